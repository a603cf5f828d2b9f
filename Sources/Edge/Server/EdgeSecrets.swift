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
}
