import Model

/// The reads of the keys that sign the resolver's receipts.
public protocol SigningKeyReading: AnyObject {
    func signingKeys() throws(StoreError) -> [SigningKeyRecord]
}

/// The writes of the receipt signing keys, inside a write body.
public protocol SigningKeyWriting: SigningKeyReading {
    func putSigningKey(_ key: SigningKeyRecord) throws(StoreError)
}
