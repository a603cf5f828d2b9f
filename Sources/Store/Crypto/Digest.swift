import CSodium

/// SHA-256 through libsodium.
///
/// Byte-for-byte the same digest as `Core.SHA256.hash` (a test pins it), for the
/// hot paths (handoff keys, key and request hashes of the resolver): Core's
/// pure-Swift version, generic over `Sequence` across a module boundary, costs
/// about ten times more per call.
public enum Digest {
    public static let sha256Bytes = 32

    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: sha256Bytes) { out, count in
            _ = crypto_hash_sha256(
                out.baseAddress!, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
            count = sha256Bytes
        }
    }

    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { sha256($0) }
    }

    /// The digest of the UTF-8 bytes of `text`.
    public static func sha256(_ text: String) -> [UInt8] {
        if let d = text.utf8.withContiguousStorageIfAvailable({ sha256(UnsafeRawBufferPointer($0)) }) { return d }
        return sha256(Array(text.utf8))
    }
}
