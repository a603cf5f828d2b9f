/// An `application/x-www-form-urlencoded` body (or a query string): `name=value` pairs
/// joined by `&`, `+` for a space, `%XX` for a byte, the bytes UTF-8 (WHATWG URL,
/// "application/x-www-form-urlencoded parsing"). A name may come more than once; the
/// first value is the one read.
struct FormBody: Sendable, Equatable {
    private(set) var pairs: [(String, String)] = []

    /// Nil when a `%` is not followed by two hex digits or the bytes are not UTF-8:
    /// no browser sends that, so the request is refused rather than guessed at.
    init?<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        var name: [UInt8] = []
        var value: [UInt8] = []
        var inValue = false
        var index = bytes.startIndex
        func finish() -> Bool {
            defer {
                name.removeAll(keepingCapacity: true)
                value.removeAll(keepingCapacity: true)
                inValue = false
            }
            if name.isEmpty && value.isEmpty { return true }
            guard let n = String(validating: name, as: UTF8.self), let v = String(validating: value, as: UTF8.self)
            else { return false }
            pairs.append((n, v))
            return true
        }
        while index != bytes.endIndex {
            var byte = bytes[index]
            index = bytes.index(after: index)
            switch byte {
            case UInt8(ascii: "&"):
                guard finish() else { return nil }
                continue
            case UInt8(ascii: "=") where !inValue:
                inValue = true
                continue
            case UInt8(ascii: "+"):
                byte = UInt8(ascii: " ")
            case UInt8(ascii: "%"):
                guard index != bytes.endIndex, let hi = Self.hex(bytes[index]) else { return nil }
                index = bytes.index(after: index)
                guard index != bytes.endIndex, let lo = Self.hex(bytes[index]) else { return nil }
                index = bytes.index(after: index)
                byte = hi << 4 | lo
            default:
                break
            }
            if inValue { value.append(byte) } else { name.append(byte) }
        }
        guard finish() else { return nil }
    }

    init(pairs: [(String, String)]) { self.pairs = pairs }

    static func == (a: FormBody, b: FormBody) -> Bool { a.pairs.elementsEqual(b.pairs, by: ==) }

    /// The first value of `name`, nil when absent.
    subscript(_ name: String) -> String? {
        for (n, v) in pairs where n == name { return v }
        return nil
    }

    /// The value of `name` with surrounding spaces removed ("" when absent): what a text
    /// field of a form means.
    func text(_ name: String) -> String {
        self[name]?.trimmed ?? ""
    }

    /// `value` percent-encoded for a query string or a path segment: everything but
    /// `A-Z a-z 0-9 - . _ ~`.
    static func encode(_ value: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count)
        let digits = Array("0123456789ABCDEF".utf8)
        for b in value.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(b)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(digits[Int(b >> 4)])
                out.append(digits[Int(b & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `%XX` decoded (nothing else: a `+` stays a plus), nil unless well-formed UTF-8.
    static func percentDecode<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
        var out: [UInt8] = []
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard index != bytes.endIndex, let hi = hex(bytes[index]) else { return nil }
            index = bytes.index(after: index)
            guard index != bytes.endIndex, let lo = hex(bytes[index]) else { return nil }
            index = bytes.index(after: index)
            out.append(hi << 4 | lo)
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
