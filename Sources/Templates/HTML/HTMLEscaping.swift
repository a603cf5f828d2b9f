/// Escaping of text for HTML element content and double-quoted attribute values.
///
/// One escaper serves both contexts because templates always double-quote attributes: `&`, `<`,
/// `>`, `"` and `'` become character references, so text can neither open a tag nor leave an
/// attribute value (in either quote style). NUL becomes U+FFFD, and the other C0 controls except
/// tab, newline and carriage return are dropped: they are parse errors with no visible use.
/// Everything else, including any Unicode, passes through unchanged and stays text.
public enum HTMLEscaping {
    /// Appends the escaped form of `text` to `output`.
    public static func escape(_ text: String, into output: inout String) {
        // Fast path: most titles need no escaping at all. One pass over contiguous bytes
        // with a table; `utf8.contains(where:)` here was the page's most expensive line.
        let clean =
            text.utf8.withContiguousStorageIfAvailable { bytes in
                workTable.withUnsafeBufferPointer { table in !bytes.contains { table[Int($0)] } }
            } ?? !text.utf8.contains(where: needsWork)
        if clean {
            output += text
            return
        }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": scalars.append(contentsOf: "&amp;".unicodeScalars)
            case "<": scalars.append(contentsOf: "&lt;".unicodeScalars)
            case ">": scalars.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": scalars.append(contentsOf: "&quot;".unicodeScalars)
            case "'": scalars.append(contentsOf: "&#39;".unicodeScalars)
            case "\u{0}": scalars.append("\u{FFFD}")
            case "\t", "\n", "\r": scalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                scalars.append(scalar)
            }
        }
        output += String(scalars)
    }

    /// The escaped form of `text`.
    public static func escape(_ text: String) -> String {
        var output = ""
        escape(text, into: &output)
        return output
    }

    private static let workTable: [Bool] = (0..<256).map { needsWork(UInt8($0)) }

    private static func needsWork(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"):
            return true
        case UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            return false
        default:
            return byte < 0x20 || byte == 0x7F
        }
    }
}
