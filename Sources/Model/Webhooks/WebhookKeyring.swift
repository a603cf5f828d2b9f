import Core

/// The keys that seal the webhooks' signing secrets at rest (decision 0031): 32 random
/// bytes each, with an id, kept outside the database (each node's
/// `<data>/secrets/webhook-keys`, a text file the fleet's nodes share the way they share
/// their other secrets). The first key seals; every key opens, so a rotation keeps the
/// older keys until nothing sealed with them is left (`biqli-edge webhook-key status`).
///
/// The file: comment lines (`#`), then one key a line, `<id> <base64 of 32 bytes>`.
public struct WebhookKeyring: Sendable, Equatable {
    public struct Key: Sendable, Equatable {
        /// `wk_` + 16 hex digits, random: it names the key in sealed values and in the
        /// store's registry, and says nothing of the key.
        public var id: String
        public var bytes: [UInt8]

        public init(id: String, bytes: [UInt8]) {
            self.id = id
            self.bytes = bytes
        }

        public static let keyBytes = 32
        public static let idPrefix = "wk_"

        public static func generate() -> Key {
            Key(id: idPrefix + SHA256.hex(SecureRandom.bytes(8)), bytes: SecureRandom.bytes(keyBytes))
        }

        /// `wk_` + 1 to 32 of `[0-9a-z]`: no separator of the sealed form.
        static func isId(_ id: some StringProtocol) -> Bool {
            id.hasPrefix(idPrefix) && (4...35).contains(id.utf8.count)
                && id.utf8.dropFirst(3).allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) }
        }
    }

    /// The first seals; the order is the file's.
    public var keys: [Key]

    public init(keys: [Key]) { self.keys = keys }

    /// The key that seals.
    public var current: Key? { keys.first }

    public func key(id: String) -> Key? { keys.first { $0.id == id } }

    public var ids: [String] { keys.map(\.id) }

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        /// Line `line` (1-based) is not `<id> <base64 of 32 bytes>`.
        case malformedLine(Int)
        case duplicateId(String)
        case empty

        public var description: String {
            switch self {
            case .malformedLine(let n): return "line \(n) is not `<id> <base64 of 32 bytes>`"
            case .duplicateId(let id): return "the key \(id) is listed twice"
            case .empty: return "it holds no key"
            }
        }
    }

    /// The file's keys; never a key's bytes in the error.
    public static func parse(_ text: String) throws(ParseError) -> WebhookKeyring {
        var keys: [Key] = []
        // "\r\n" is one Character: a file written on Windows splits too.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (i, raw) in lines.enumerated() {
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2, Key.isId(parts[0]), let bytes = Base64.decode(String(parts[1])),
                bytes.count == Key.keyBytes
            else { throw .malformedLine(i + 1) }
            let id = String(parts[0])
            if keys.contains(where: { $0.id == id }) { throw .duplicateId(id) }
            keys.append(Key(id: id, bytes: bytes))
        }
        guard !keys.isEmpty else { throw .empty }
        return WebhookKeyring(keys: keys)
    }

    /// The file's text.
    public var text: String {
        var out = """
            # biqli-edge: the keys that seal the webhooks' signing secrets in the store (decision 0031).
            # The first key seals, every key opens. Keep this file as secret as the database and give
            # the same file to every node of a fleet; `biqli-edge webhook-key` rotates it.

            """
        for k in keys { out += k.id + " " + Base64.encode(k.bytes) + "\n" }
        return out
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return s
    }
}
