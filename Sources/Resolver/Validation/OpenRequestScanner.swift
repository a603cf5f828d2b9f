import Core

/// The usual shape of an SDK body, read straight from its bytes into
/// `OpenRequestValidator.Fields`: one flat object whose members are known field
/// names without escapes and whose values are ASCII strings, booleans or
/// `null`. That is every body the official SDKs send, and it spares each
/// request a `JSONValue` tree and its strings.
///
/// It accepts only what the general parser accepts, with the same values, and
/// returns nil for anything else (numbers, objects, arrays, `\u` escapes,
/// non-ASCII text, unknown or repeated names, `attestation`, any syntax
/// problem), so that the general path decides those with its exact errors and
/// their order. Tests compare both paths on SDK bodies and on mutations of them.
enum OpenRequestScanner {
    typealias Fields = OpenRequestValidator.Fields

    static func scan(_ body: [UInt8]) -> Fields? {
        body.withUnsafeBufferPointer { b in plain.withUnsafeBufferPointer { scan(b, plain: $0) } }
    }

    /// 1 for bytes a string may hold as they are: printable ASCII and DEL, but
    /// not the quote and the backslash.
    private static let plain: [Bool] = (0..<256).map { c in c >= 0x20 && c < 0x80 && c != 0x22 && c != 0x5C }

    /// `plain` is the table above, fetched once per body (each access to a global
    /// table is a call to check its lazy initialisation).
    static func scan(_ b: UnsafeBufferPointer<UInt8>, plain: UnsafeBufferPointer<Bool>) -> Fields? {
        let n = b.count
        var i = 0
        @inline(__always) func skipWhitespace() {
            while i < n, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
        }
        skipWhitespace()
        guard i < n, b[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        skipWhitespace()
        var fields = Fields()
        var seen: UInt32 = 0
        if i < n, b[i] == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                guard i < n, b[i] == UInt8(ascii: "\"") else { return nil }
                i += 1
                let keyStart = i
                while i < n, plain[Int(b[i])] { i += 1 }
                guard i < n, b[i] == UInt8(ascii: "\"") else { return nil }
                guard let (field, bit) = Field.named(UnsafeBufferPointer(rebasing: b[keyStart..<i])) else { return nil }
                i += 1
                guard seen & bit == 0 else { return nil }
                seen |= bit
                skipWhitespace()
                guard i < n, b[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                skipWhitespace()
                guard i < n else { return nil }
                let value: OpenRequestValidator.FieldValue
                switch b[i] {
                case UInt8(ascii: "\""):
                    guard let s = string(b, &i, plain) else { return nil }
                    value = .string(s)
                case UInt8(ascii: "t"):
                    guard literal(b, &i, "true") else { return nil }
                    value = .bool(true)
                case UInt8(ascii: "f"):
                    guard literal(b, &i, "false") else { return nil }
                    value = .bool(false)
                case UInt8(ascii: "n"):
                    guard literal(b, &i, "null") else { return nil }
                    value = .null
                default:
                    return nil
                }
                field.assign(value, to: &fields)
                skipWhitespace()
                guard i < n else { return nil }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    skipWhitespace()
                    continue
                }
                guard b[i] == UInt8(ascii: "}") else { return nil }
                i += 1
                break
            }
        }
        skipWhitespace()
        return i == n ? fields : nil
    }

    /// The string whose opening quote is at `i`; `i` ends after its closing quote.
    private static func string(
        _ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ plain: UnsafeBufferPointer<Bool>
    ) -> String? {
        let n = b.count
        let start = i + 1
        var j = start
        while j < n, plain[Int(b[j])] { j += 1 }
        guard j < n else { return nil }
        if b[j] == UInt8(ascii: "\"") {
            i = j + 1
            return String(decoding: UnsafeBufferPointer(rebasing: b[start..<j]), as: UTF8.self)
        }
        guard b[j] == UInt8(ascii: "\\") else { return nil }
        // Escapes (iOS writes `\/`): the single-character ones only.
        var out = [UInt8](UnsafeBufferPointer(rebasing: b[start..<j]))
        while j < n {
            let c = b[j]
            if c == UInt8(ascii: "\"") {
                i = j + 1
                return String(decoding: out, as: UTF8.self)
            }
            if plain[Int(c)] {
                out.append(c)
                j += 1
                continue
            }
            guard c == UInt8(ascii: "\\"), j + 1 < n, let unescaped = JSONParser.simpleEscape(b[j + 1]) else {
                return nil
            }
            out.append(unescaped)
            j += 2
        }
        return nil
    }

    private static func literal(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard i + count <= b.count else { return false }
        for k in 0..<count where b[i + k] != word.utf8Start[k] { return false }
        i += count
        return true
    }

    /// The members the scanner knows (`attestation` is left to the general path).
    private enum Field: String, CaseIterable {
        case eventId, appId, appInstanceId, platform, firstOpen, probabilisticAllowed, handoffToken, deepLink
        case domain, appVersion, osVersion, sdkVersion, occurredAt

        /// Each member's name as bytes and its bit in the scanner's set of members seen,
        /// from the cases.
        private static let table: [(field: Field, name: [UInt8], bit: UInt32)] = allCases.enumerated().map {
            ($1, Array($1.rawValue.utf8), UInt32(1) << UInt32($0))
        }

        /// The member named `key`, with its bit.
        static func named(_ key: UnsafeBufferPointer<UInt8>) -> (field: Field, bit: UInt32)? {
            for entry in table where entry.name.count == key.count && entry.name[0] == key[0] {
                if entry.name.withUnsafeBufferPointer({ $0.elementsEqual(key) }) { return (entry.field, entry.bit) }
            }
            return nil
        }

        func assign(_ v: OpenRequestValidator.FieldValue, to f: inout Fields) {
            switch self {
            case .eventId: f.eventId = v
            case .appId: f.appId = v
            case .appInstanceId: f.appInstanceId = v
            case .platform: f.platform = v
            case .firstOpen: f.firstOpen = v
            case .probabilisticAllowed: f.probabilisticAllowed = v
            case .handoffToken: f.handoffToken = v
            case .deepLink: f.deepLink = v
            case .domain: f.domain = v
            case .appVersion: f.appVersion = v
            case .osVersion: f.osVersion = v
            case .sdkVersion: f.sdkVersion = v
            case .occurredAt: f.occurredAt = v
            }
        }
    }
}
