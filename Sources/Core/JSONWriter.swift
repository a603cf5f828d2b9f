/// Compact JSON serialization.
///
/// Output is byte-for-byte deterministic for a given value: members in the order
/// the value holds them, or sorted when `sortedKeys` is set (the canonical form
/// used to compare requests for idempotency). `/` is not escaped; non-ASCII is
/// written as UTF-8.
public struct JSONWriter {
    public var sortedKeys: Bool
    public var pretty: Bool

    public init(sortedKeys: Bool = false, pretty: Bool = false) {
        self.sortedKeys = sortedKeys
        self.pretty = pretty
    }

    public func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out, indent: 0)
        return out
    }

    public func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    public func write(_ value: JSONValue, into out: inout [UInt8], indent: Int = 0) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): JSONWriter.writeInteger(Int(i), into: &out)
        case .wideInt(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d):
            if d.rounded() == d && abs(d) < 1e15 {
                out.append(contentsOf: String(Int64(d)).utf8)
            } else {
                out.append(contentsOf: String(d).utf8)
            }
        case .string(let s): JSONWriter.writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, indent + 1)
                write(item, into: &out, indent: indent + 1)
            }
            if !items.isEmpty { newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let ordered = sortedKeys ? members.sorted { $0.0 < $1.0 } : members
            for (i, (k, v)) in ordered.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, indent + 1)
                JSONWriter.writeString(k, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                write(v, into: &out, indent: indent + 1)
            }
            if !members.isEmpty { newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private func newline(_ out: inout [UInt8], _ level: Int) {
        guard pretty else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    public static func writeString(_ s: String, into out: inout [UInt8]) {
        var text = s
        text.withUTF8 { writeString(utf8: $0, into: &out) }
    }

    /// Writes `bytes` (UTF-8) as a JSON string.
    public static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Copy runs that need no escaping in bulk; most strings are one run.
        var runStart = 0
        for (i, c) in bytes.enumerated() where c == 0x22 || c == 0x5C || c < 0x20 || c == 0x7F {
            if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
            switch c {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            default:
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 0xF)]])
            }
            runStart = i + 1
        }
        if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        out.append(UInt8(ascii: "\""))
    }

    /// Writes the decimal form of `value` without making a `String` of it.
    public static func writeInteger(_ value: Int, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        // The magnitude as UInt: Int.min has no positive Int.
        DecimalDigits.with(UInt64(value.magnitude)) { out.append(contentsOf: $0) }
    }
}

extension JSONValue {
    /// Compact JSON text of this value.
    public var jsonString: String { JSONWriter().string(self) }
    /// Compact JSON bytes of this value.
    public var jsonBytes: [UInt8] { JSONWriter().bytes(self) }
    /// Sorted-key compact bytes: equal for equal values, whatever their member order.
    public var canonicalBytes: [UInt8] { JSONWriter(sortedKeys: true).bytes(self.sortedDeep) }

    private var sortedDeep: JSONValue {
        switch self {
        case .array(let a): return .array(a.map(\.sortedDeep))
        case .object(let o): return .object(o.map { ($0.0, $0.1.sortedDeep) }.sorted { $0.0 < $1.0 })
        default: return self
        }
    }
}
