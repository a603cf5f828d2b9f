import Core

#if canImport(Glibc)
import Glibc
#endif

/// JSON-lines access log of one loop, buffered and written with one `write(2)` per
/// loop iteration so lines from different loops never interleave.
///
/// Query strings are never logged: they can carry handoff tokens and dynamic values.
/// Nor is what follows a redacted prefix (`redactedPrefixes`): paths that name a
/// person (`/api/v1/customers/{externalId}`) are logged as `prefix{redacted}`.
///
/// A line is written straight into the buffer, without a `String` in between: it is
/// the one thing every request does, and formatting through `String`s (timestamp,
/// numbers, the path) cost as much as routing a short-link visit.
struct AccessLog {
    var enabled: Bool
    private var buffer: [UInt8] = []
    /// `2026-11-29T12:30:00` of `cachedSecond`: a loop logs many lines per second.
    private var cachedSecond: Int64 = .min
    private var secondText: [UInt8] = []
    /// `,"node":"<name>"`, written after `msg` in every line (empty without a node name).
    private let nodeField: [UInt8]
    /// Path prefixes whose rest is never logged, as UTF-8.
    private let redactedPrefixes: [[UInt8]]

    /// Paths are cut to this many bytes (at a UTF-8 boundary) in the log.
    static let maximumPathBytes = 512

    init(enabled: Bool, node: String? = nil, redactedPrefixes: [String] = []) {
        self.enabled = enabled
        self.redactedPrefixes = redactedPrefixes.map { Array($0.utf8) }
        var field: [UInt8] = []
        if let node {
            field.append(contentsOf: Array(#","node":"#.utf8))
            JSONWriter.writeString(node, into: &field)
        }
        nodeField = field
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

    mutating func append(_ e: Entry, wallMilliseconds: Int64) {
        guard enabled else { return }
        literal(#"{"ts":""#)
        timestamp(wallMilliseconds)
        literal(#"","level":"info","msg":"request""#)
        buffer.append(contentsOf: nodeField)
        literal(#","method":"#)
        JSONWriter.writeString(e.method, into: &buffer)
        literal(#","host":"#)
        JSONWriter.writeString(e.host ?? "", into: &buffer)
        literal(#","path":"#)
        var path = e.path
        path.withUTF8 { utf8 in
            if let prefix = redactedPrefixes.first(where: { utf8.count > $0.count && utf8.starts(with: $0) }) {
                buffer.append(UInt8(ascii: "\""))
                buffer.append(contentsOf: prefix)
                literal(#"{redacted}""#)
            } else {
                JSONWriter.writeString(utf8: Self.truncated(utf8), into: &buffer)
            }
        }
        literal(#","status":"#)
        JSONWriter.writeInteger(e.status, into: &buffer)
        literal(#","bytes":"#)
        JSONWriter.writeInteger(e.bytes, into: &buffer)
        literal(#","us":"#)
        JSONWriter.writeInteger(Int(clamping: e.microseconds), into: &buffer)
        literal(#","route":"#)
        JSONWriter.writeString(e.route, into: &buffer)
        literal(e.tls ? #","tls":true,"loop":"# : #","tls":false,"loop":"#)
        JSONWriter.writeInteger(e.loop, into: &buffer)
        literal("}\n")
        if buffer.count > 60 * 1024 { flush() }
    }

    /// The first `maximumPathBytes` bytes of `path`, not ending inside a UTF-8 sequence
    /// (one has at most three continuation bytes; a longer run is not UTF-8 anyway).
    static func truncated(_ path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard path.count > maximumPathBytes else { return path }
        var end = maximumPathBytes
        while end > maximumPathBytes - 3 && path[end] & 0xC0 == 0x80 { end -= 1 }
        return UnsafeBufferPointer(rebasing: path[..<end])
    }

    /// `2026-11-29T12:30:00.123Z`, the date part formatted once per second.
    private mutating func timestamp(_ wallMilliseconds: Int64) {
        let second = wallMilliseconds >= 0 ? wallMilliseconds / 1000 : (wallMilliseconds - 999) / 1000
        if second != cachedSecond {
            cachedSecond = second
            secondText = Array(Timestamp.format(seconds: second).utf8.dropLast())  // without its "Z"
        }
        buffer.append(contentsOf: secondText)
        let ms = Int(wallMilliseconds - second * 1000)
        buffer.append(UInt8(ascii: "."))
        buffer.append(UInt8(truncatingIfNeeded: 48 + ms / 100))
        buffer.append(UInt8(truncatingIfNeeded: 48 + ms / 10 % 10))
        buffer.append(UInt8(truncatingIfNeeded: 48 + ms % 10))
        buffer.append(UInt8(ascii: "Z"))
    }

    private mutating func literal(_ text: StaticString) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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

    /// The lines appended and not yet flushed (tests).
    var pending: [UInt8] { buffer }
}
