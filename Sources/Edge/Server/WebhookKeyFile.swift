import Model

#if canImport(Glibc)
import Glibc
#endif

/// The keyring that seals the webhooks' signing secrets, on disk (decision 0031):
/// `<data>/secrets/webhook-keys`, 0600, beside the source-address key; in every backup of
/// the data directory (`backup` copies `secrets/`); on PostgreSQL each node's copy of one
/// file, given to every node as its certificates and other secrets are (never the
/// database: a dump alone must not let its reader sign).
enum WebhookKeyFile {
    static func path(dataDirectory: String) -> String { dataDirectory + "/secrets/webhook-keys" }

    enum Failure: Error, CustomStringConvertible {
        case damaged(path: String, WebhookKeyring.ParseError)
        case unwritable(path: String)

        var description: String {
            switch self {
            case .damaged(let path, let why):
                return "\(path) is damaged (\(why)); restore it from a backup or from another node of the fleet"
            case .unwritable(let path): return "cannot write \(path)"
            }
        }
    }

    /// The file's keyring; nil when there is no file.
    static func read(_ path: String) throws(Failure) -> WebhookKeyring? {
        guard let bytes = readFile(path) else { return nil }
        do {
            return try WebhookKeyring.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .damaged(path: path, error)
        }
    }

    static func write(_ keyring: WebhookKeyring, to path: String) throws(Failure) {
        let dir = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        guard makeDirectories(dir), writeFileAtomically(path, Array(keyring.text.utf8), mode: 0o600) else {
            throw .unwritable(path: path)
        }
    }

    /// The keyring at start-up: the file's; or, when there is none and the store registered
    /// no key yet (a new edge, or one upgraded from before sealing), a new one, written there
    /// and registered (`register` returns the registry after: on a new fleet the first node
    /// to start wins, and the others are told to copy its file). Nil when the file is missing
    /// but the store has a key (a node not given the fleet's file, a store restored without
    /// its data directory): the caller says so, and this node neither seals nor signs sealed
    /// secrets until the file is there.
    static func load(dataDirectory: String, registered: [String], register: (String) throws -> [String])
        throws -> (WebhookKeyring?, made: Bool, registered: [String])
    {
        let file = path(dataDirectory: dataDirectory)
        if let ring = try read(file) { return (ring, false, registered) }
        guard registered.isEmpty else { return (nil, false, registered) }
        let ring = WebhookKeyring(keys: [.generate()])
        // The file first: a registered key that no file holds would be lost.
        try write(ring, to: file)
        let after = try register(ring.keys[0].id)
        guard after.contains(ring.keys[0].id) else {
            // Another node of a new fleet registered its key first: its file is the fleet's.
            _ = unlink(file)
            return (nil, false, after)
        }
        return (ring, true, after)
    }
}
