import CSystem

/// HMAC-SHA256 (OpenSSL): the external account binding's signature (HS256).
enum HMACSHA256 {
    static func mac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let ok = key.withUnsafeBufferPointer { k in
            data.withUnsafeBufferPointer { d in csys_hmac_sha256(k.baseAddress, k.count, d.baseAddress, d.count, &out) }
        }
        return ok == 1 ? out : []
    }
}
