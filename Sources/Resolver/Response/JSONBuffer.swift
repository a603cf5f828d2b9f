import Core

/// Writes the resolver's fixed-shape JSON documents (stored responses,
/// receipt claims, canonical requests) straight into bytes.
///
/// Same output as `Core.JSONWriter` for the same members in the same order
/// (tests pin it); strings without characters to escape are copied in one go
/// instead of byte by byte. Arbitrary values (link metadata) go through
/// `JSONWriter`.
struct JSONBuffer {
    var bytes: [UInt8]

    init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `"key":` (keys are ours: never need escaping).
    mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func string(_ s: String) {
        let done: Bool? = s.utf8.withContiguousStorageIfAvailable { buf in
            for c in buf where c < 0x20 || c == 0x22 || c == 0x5C || c == 0x7F { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: buf)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if done != true { JSONWriter.writeString(s, into: &bytes) }
    }

    mutating func string(orNull s: String?) {
        if let s { string(s) } else { raw("null") }
    }

    mutating func int(_ v: Int64) { bytes.append(contentsOf: String(v).utf8) }

    mutating func bool(_ b: Bool) {
        if b { raw("true") } else { raw("false") }
    }

    mutating func value(_ v: JSONValue) { JSONWriter().write(v, into: &bytes) }

    mutating func comma() { bytes.append(UInt8(ascii: ",")) }
}
