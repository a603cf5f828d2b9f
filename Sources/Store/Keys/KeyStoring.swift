import Model

/// The reads of the API keys: the workspace's secret keys (the management API's) and the
/// apps' publishable keys (the resolver's), each found by the SHA-256 of its text.
public protocol KeyReading: AnyObject {
    func secretKey(hash: [UInt8]) throws(StoreError) -> SecretKeyRecord?
    func secretKeys() throws(StoreError) -> [SecretKeyRecord]
    func publishableKey(hash: [UInt8]) throws(StoreError) -> PublishableKeyRecord?
    func publishableKeys(app: String) throws(StoreError) -> [PublishableKeyRecord]
}

/// The writes of the API keys, inside a write body. A publishable key's change moves
/// `Store.publishableKeysVersion` after the commit.
public protocol KeyWriting: KeyReading {
    func putSecretKey(_ key: SecretKeyRecord) throws(StoreError)
    func putPublishableKey(_ key: PublishableKeyRecord) throws(StoreError)
}
