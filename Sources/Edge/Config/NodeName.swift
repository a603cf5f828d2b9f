#if canImport(Glibc)
import Glibc
#endif

/// `BIQLI_EDGE_NODE`: the name of this edge process in its logs, on `/metrics` and in
/// `biqli-edge nodes`. 1 to 64 characters of `A-Z a-z 0-9 . _ -`: safe unquoted in a
/// log line, a Prometheus label and a terminal table. Default: the host name.
enum NodeName {
    static let maximumLength = 64

    static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return !bytes.isEmpty && bytes.count <= maximumLength && bytes.allSatisfy(isAllowed)
    }

    /// The host name (`gethostname`), made valid: other characters become `-` and it is
    /// cut to 64; `edge` when there is none.
    static func hostDefault() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "edge" }
        return sanitized(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    static func sanitized(_ text: String) -> String {
        let bytes = text.utf8.prefix(maximumLength).map { isAllowed($0) ? $0 : UInt8(ascii: "-") }
        return bytes.isEmpty ? "edge" : String(decoding: bytes, as: UTF8.self)
    }

    private static func isAllowed(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default: return false
        }
    }
}
