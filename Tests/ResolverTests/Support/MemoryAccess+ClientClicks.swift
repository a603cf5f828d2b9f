import Model
import Store

/// The resolver's tests keep no browser keys and no client-click settings: every read or
/// write of them fails (`MemoryAccess.notKept`).
extension MemoryAccess {
    func browserKey(hash: [UInt8]) throws(StoreError) -> BrowserKeyRecord? { throw Self.notKept("client clicks") }
    func browserKeys() throws(StoreError) -> [BrowserKeyRecord] { throw Self.notKept("client clicks") }
    func clientClickSettings() throws(StoreError) -> ClientClickSettings { throw Self.notKept("client clicks") }
    func putBrowserKey(_ key: BrowserKeyRecord) throws(StoreError) { throw Self.notKept("client clicks") }
    func putClientClickSettings(_ settings: ClientClickSettings) throws(StoreError) {
        throw Self.notKept("client clicks")
    }
}
