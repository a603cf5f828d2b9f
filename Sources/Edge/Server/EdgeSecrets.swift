import Model
import Store

#if canImport(Glibc)
import Glibc
#endif

/// Secrets the edge generates for itself and keeps in `<data>/secrets/` (mode 0600):
/// the key of the source-address hash, so that probabilistic signals of clicks
/// stored before a restart still match after it.
enum EdgeSecrets {
    static func sourceAddressKey(dataDirectory: String) throws(EdgeStartError) -> [UInt8] {
        let dir = dataDirectory + "/secrets"
        guard makeDirectories(dir) else { throw .io("cannot create \(dir)") }
        let path = dir + "/source-address.key"
        if let existing = readFile(path) {
            guard existing.count == SourceAddressHasher.keyBytes else {
                throw .io(
                    "\(path) is damaged (expected \(SourceAddressHasher.keyBytes) bytes); remove it to regenerate")
            }
            return existing
        }
        let key = SourceAddressHasher.generateKey()
        guard writeFileAtomically(path, key, mode: 0o600) else { throw .io("cannot write \(path)") }
        return key
    }

    /// The key for this edge's store: on PostgreSQL the fleet's one, shared by every edge
    /// on the database (a click on one node must match an open on another), made from
    /// this node's file key when it has one (so that an edge moved to PostgreSQL keeps
    /// its recent candidates); on SQLite the file's.
    static func sourceAddressKey(dataDirectory: String, backend: StoreBackend) throws(EdgeStartError) -> [UInt8] {
        guard case .postgresql(let store) = backend else { return try sourceAddressKey(dataDirectory: dataDirectory) }
        let path = dataDirectory + "/secrets/source-address.key"
        do {
            return try store.sharedSecret(named: "source-address-key") {
                if let existing = readFile(path), existing.count == SourceAddressHasher.keyBytes { return existing }
                return SourceAddressHasher.generateKey()
            }
        } catch {
            throw .store("cannot read the fleet's source-address key: \(error.safeMessage)")
        }
    }
}
