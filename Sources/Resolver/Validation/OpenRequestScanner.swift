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
        body.withUnsafeBufferPointer { b in
            plain.withUnsafeBufferPointer { p in
                var cursor = Cursor(b: b, plain: p)
                return cursor.object()
            }
        }
    }

    /// 1 for bytes a string may hold as they are: printable ASCII and DEL, but
    /// not the quote and the backslash. Fetched once per body (each access to a
    /// global table is a call to check its lazy initialisation).
    private static let plain: [Bool] = (0..<256).map { c in c >= 0x20 && c < 0x80 && c != 0x22 && c != 0x5C }

    /// A position in one body. A struct with mutating methods rather than local
    /// functions capturing the index: a captured variable that is also passed
    /// `inout` costs a dynamic exclusivity check on every such call.
    private struct Cursor {
        let b: UnsafeBufferPointer<UInt8>
        let plain: UnsafeBufferPointer<Bool>
        var i = 0

        init(b: UnsafeBufferPointer<UInt8>, plain: UnsafeBufferPointer<Bool>) {
            self.b = b
            self.plain = plain
        }

        mutating func skipWhitespace() {
            while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
        }

        /// Whether the byte at the cursor is `c` (false at the end).
        func at(_ c: UInt8) -> Bool { i < b.count && b[i] == c }

        /// The whole body as one flat object, or nil.
        mutating func object() -> Fields? {
            skipWhitespace()
            guard at(UInt8(ascii: "{")) else { return nil }
            i += 1
            skipWhitespace()
            var fields = Fields()
            var seen: UInt32 = 0
            if at(UInt8(ascii: "}")) {
                i += 1
            } else {
                while true {
                    guard at(UInt8(ascii: "\"")) else { return nil }
                    i += 1
                    let keyStart = i
                    while i < b.count, plain[Int(b[i])] { i += 1 }
                    guard at(UInt8(ascii: "\"")) else { return nil }
                    guard let field = Field.named(UnsafeBufferPointer(rebasing: b[keyStart..<i])) else { return nil }
                    i += 1
                    guard seen & field.bit == 0 else { return nil }
                    seen |= field.bit
                    skipWhitespace()
                    guard at(UInt8(ascii: ":")) else { return nil }
                    i += 1
                    skipWhitespace()
                    guard let value = value() else { return nil }
                    field.assign(value, to: &fields)
                    skipWhitespace()
                    if at(UInt8(ascii: ",")) {
                        i += 1
                        skipWhitespace()
                        continue
                    }
                    guard at(UInt8(ascii: "}")) else { return nil }
                    i += 1
                    break
                }
            }
            skipWhitespace()
            return i == b.count ? fields : nil
        }

        /// A string, `true`, `false` or `null` at the cursor; nil for anything else.
        mutating func value() -> OpenRequestValidator.FieldValue? {
            guard i < b.count else { return nil }
            switch b[i] {
            case UInt8(ascii: "\""): return string().map { .string($0) }
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return nil
            }
        }

        /// The string whose opening quote is at the cursor, which ends after its closing quote.
        mutating func string() -> String? {
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

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard i + count <= b.count else { return false }
            let bytes = word.utf8Start
            for k in 0..<count where b[i + k] != bytes[k] { return false }
            i += count
            return true
        }
    }

    /// The members the scanner knows (`attestation` is left to the general path).
    enum Field: UInt8, CaseIterable {
        case eventId, appId, appInstanceId, platform, firstOpen, probabilisticAllowed, handoffToken, deepLink
        case domain, appVersion, osVersion, sdkVersion, occurredAt

        /// The member's bit in the scanner's set of members seen.
        var bit: UInt32 { UInt32(1) << UInt32(rawValue) }

        /// The member's name in a body.
        var name: StaticString {
            switch self {
            case .eventId: return "eventId"
            case .appId: return "appId"
            case .appInstanceId: return "appInstanceId"
            case .platform: return "platform"
            case .firstOpen: return "firstOpen"
            case .probabilisticAllowed: return "probabilisticAllowed"
            case .handoffToken: return "handoffToken"
            case .deepLink: return "deepLink"
            case .domain: return "domain"
            case .appVersion: return "appVersion"
            case .osVersion: return "osVersion"
            case .sdkVersion: return "sdkVersion"
            case .occurredAt: return "occurredAt"
            }
        }

        /// The member named `key`: the length and the first byte pick the one
        /// candidate (they tell all thirteen apart), whose name is then compared whole.
        static func named(_ key: UnsafeBufferPointer<UInt8>) -> Field? {
            guard let first = key.first else { return nil }
            let candidate: Field
            switch (key.count, first) {
            case (7, UInt8(ascii: "e")): candidate = .eventId
            case (5, UInt8(ascii: "a")): candidate = .appId
            case (13, UInt8(ascii: "a")): candidate = .appInstanceId
            case (8, UInt8(ascii: "p")): candidate = .platform
            case (9, UInt8(ascii: "f")): candidate = .firstOpen
            case (20, UInt8(ascii: "p")): candidate = .probabilisticAllowed
            case (12, UInt8(ascii: "h")): candidate = .handoffToken
            case (8, UInt8(ascii: "d")): candidate = .deepLink
            case (6, UInt8(ascii: "d")): candidate = .domain
            case (10, UInt8(ascii: "a")): candidate = .appVersion
            case (9, UInt8(ascii: "o")): candidate = .osVersion
            case (10, UInt8(ascii: "s")): candidate = .sdkVersion
            case (10, UInt8(ascii: "o")): candidate = .occurredAt
            default: return nil
            }
            let name = candidate.name
            guard name.utf8CodeUnitCount == key.count else { return nil }
            let bytes = name.utf8Start  // once: each read of `utf8Start` checks the representation
            for k in 1..<key.count where key[k] != bytes[k] { return nil }
            return candidate
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
