import Synchronization

/// Fast, thread-safe, non-cryptographic random numbers for identifiers (ULIDs of
/// clicks, opens, links): SplitMix64 over one atomic counter seeded once from the
/// system's CSPRNG. Every call is one atomic add and a few multiplies, where
/// `SystemRandomNumberGenerator` costs a `getrandom` system call; on the visit path
/// that difference is measurable.
///
/// Never use it for secrets: tokens and keys come from libsodium.
public enum FastRandom {
    private static let state: Atomic<UInt64> = {
        var system = SystemRandomNumberGenerator()
        return Atomic(system.next())
    }()

    public static func next() -> UInt64 {
        let x = state.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
