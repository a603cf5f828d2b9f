/// Unpadded base64url encoding specialised for byte arrays.
///
/// Produces exactly `Core.Base64URL.encode` (a test pins it); it exists because
/// the JWS of every receipt encodes several hundred bytes, and Core's encoder,
/// generic over `Collection` across a module boundary, cost as much as the
/// Ed25519 signature itself.
enum Base64URLEncoder {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func append(_ input: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let n = input.count
        out.reserveCapacity(out.count + (n * 4 + 2) / 3)
        alphabet.withUnsafeBufferPointer { a in
            var i = 0
            while i + 3 <= n {
                let v = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                out.append(a[Int(v >> 18 & 63)])
                out.append(a[Int(v >> 12 & 63)])
                out.append(a[Int(v >> 6 & 63)])
                out.append(a[Int(v & 63)])
                i += 3
            }
            if n - i == 1 {
                let v = UInt32(input[i]) << 16
                out.append(a[Int(v >> 18 & 63)])
                out.append(a[Int(v >> 12 & 63)])
            } else if n - i == 2 {
                let v = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
                out.append(a[Int(v >> 18 & 63)])
                out.append(a[Int(v >> 12 & 63)])
                out.append(a[Int(v >> 6 & 63)])
            }
        }
    }

    static func append(_ input: [UInt8], to out: inout [UInt8]) {
        input.withUnsafeBytes { append($0, to: &out) }
    }

    static func encode(_ input: [UInt8]) -> String {
        var out: [UInt8] = []
        append(input, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
