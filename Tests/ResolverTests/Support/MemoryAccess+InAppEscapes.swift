import Model
import Store

/// The resolver never reads the switches of the in-app escapes: this store keeps none.
extension MemoryAccess {
    func inAppEscapeSettings() throws(StoreError) -> InAppEscapeSettings { .initial }

    func putInAppEscapeSettings(_ settings: InAppEscapeSettings) throws(StoreError) {
        throw Self.notKept("in-app escapes")
    }
}
