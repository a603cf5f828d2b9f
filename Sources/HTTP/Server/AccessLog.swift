#if canImport(Glibc)
import Glibc
#endif

/// JSON-lines access log of one loop, buffered and written with one `write(2)` per
/// loop iteration so lines from different loops never interleave.
///
/// Query strings are never logged: they can carry handoff tokens and dynamic values.
struct AccessLog {
    var enabled: Bool
    private var buffer: [UInt8] = []

    init(enabled: Bool) {
        self.enabled = enabled
        if enabled { buffer.reserveCapacity(16 * 1024) }
    }

    struct Entry {
        var method: String
        var host: String?
        var path: Substring
        var status: Int
        var bytes: Int
        var microseconds: UInt64
        var route: String
        var tls: Bool
        var loop: Int
    }

    mutating func append(_ e: Entry, wallMilliseconds: Int64, timestamp: (Int64) -> String) {
        guard enabled else { return }
        buffer.append(contentsOf: #"{"ts":""#.utf8)
        buffer.append(contentsOf: timestamp(wallMilliseconds).utf8)
        buffer.append(contentsOf: #"","level":"info","msg":"request","method":"#.utf8)
        AccessLog.writeString(e.method, into: &buffer)
        buffer.append(contentsOf: #","host":"#.utf8)
        AccessLog.writeString(e.host ?? "", into: &buffer)
        buffer.append(contentsOf: #","path":"#.utf8)
        AccessLog.writeString(String(e.path.prefix(512)), into: &buffer)
        buffer.append(contentsOf: #","status":"#.utf8)
        buffer.append(contentsOf: String(e.status).utf8)
        buffer.append(contentsOf: #","bytes":"#.utf8)
        buffer.append(contentsOf: String(e.bytes).utf8)
        buffer.append(contentsOf: #","us":"#.utf8)
        buffer.append(contentsOf: String(e.microseconds).utf8)
        buffer.append(contentsOf: #","route":"#.utf8)
        AccessLog.writeString(e.route, into: &buffer)
        buffer.append(contentsOf: e.tls ? #","tls":true"#.utf8 : #","tls":false"#.utf8)
        buffer.append(contentsOf: #","loop":"#.utf8)
        buffer.append(contentsOf: String(e.loop).utf8)
        buffer.append(contentsOf: "}\n".utf8)
        if buffer.count > 60 * 1024 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(1, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 {
                    if n < 0 && errno == EINTR { continue }
                    break  // stdout gone or full: drop the log rather than stall the loop
                }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for c in s.utf8 {
            switch c {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0..<0x20, 0x7F:
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 0xF)]])
            default: out.append(c)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
