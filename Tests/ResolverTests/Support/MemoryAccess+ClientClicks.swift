import Model
import Store

/// The resolver's tests keep no browser keys and no client-click settings.
extension MemoryAccess {
    func browserKey(hash: [UInt8]) throws(StoreError) -> BrowserKeyRecord? { nil }
    func browserKeys() throws(StoreError) -> [BrowserKeyRecord] { [] }
    func clientClickSettings() throws(StoreError) -> ClientClickSettings { .initial }
    func putBrowserKey(_ key: BrowserKeyRecord) throws(StoreError) {}
    func putClientClickSettings(_ settings: ClientClickSettings) throws(StoreError) {}
}
