import Synchronization

/// Universally unique lexicographically sortable identifiers (26 Crockford base32
/// characters: 48-bit millisecond time then 80 random bits), the suffix of every
/// `biq_mapp_`, `biq_lnk_` and `biq_open_` identifier.
public enum ULID {
    static let alphabet: [UInt8] = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// A new ULID. Within one process they are monotonic: an id made in the same
    /// millisecond as the previous one (or with a clock that stepped back) takes the
    /// previous time and random part plus one, so ids sort in creation order (cursor
    /// pagination, time-ordered inserts).
    public static func make(milliseconds: UInt64 = Clock.nowMilliseconds()) -> String {
        let (time, random) = next(milliseconds)
        return make(milliseconds: time, random: random)
    }

    private static func next(_ milliseconds: UInt64) -> (UInt64, (UInt64, UInt64)) {
        shared.withLock { $0.next(milliseconds) }
    }

    /// `prefix` + a new ULID, built in one allocation.
    static func make(prefix: String, milliseconds: UInt64 = Clock.nowMilliseconds()) -> String {
        let (time, random) = next(milliseconds)
        return make(prefix: prefix, milliseconds: time, random: random)
    }

    /// The process-wide sequence (`make`): for ids made anywhere, such as the
    /// management API's, that must sort in creation order across threads.
    private static let shared = Mutex(ULIDGenerator())

    /// Deterministic form for tests: `random.0` holds the top 16 of the 80 random bits.
    public static func make(milliseconds: UInt64, random: (UInt64, UInt64)) -> String {
        make(prefix: "", milliseconds: milliseconds, random: random)
    }

    /// `prefix` and the 26 characters written straight into the string's storage.
    public static func make(prefix: String, milliseconds: UInt64, random: (UInt64, UInt64)) -> String {
        var prefix = prefix
        return prefix.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + 26) { out in
                _ = out.initialize(fromContentsOf: head)
                let base = head.count
                var t = milliseconds & 0xFFFF_FFFF_FFFF
                for i in stride(from: 9, through: 0, by: -1) {
                    out[base + i] = alphabet[Int(t & 31)]
                    t >>= 5
                }
                // 80 random bits -> 16 characters.
                var hi = random.0 & 0xFFFF
                var lo = random.1
                for i in stride(from: 25, through: 10, by: -1) {
                    out[base + i] = alphabet[Int(lo & 31)]
                    lo = lo >> 5 | (hi & 31) << 59
                    hi >>= 5
                }
                return base + 26
            }
        }
    }

    /// True for 26 upper-case Crockford characters whose first one keeps the value in 128 bits.
    public static func isValid(_ text: Substring) -> Bool {
        let u = text.utf8
        guard u.count == 26, let first = u.first, first <= UInt8(ascii: "7") else { return false }
        return u.allSatisfy { alphabet.contains($0) }
    }

    /// The millisecond timestamp a valid ULID carries.
    public static func milliseconds(_ text: Substring) -> UInt64? {
        guard isValid(text) else { return nil }
        var t: UInt64 = 0
        for c in text.utf8.prefix(10) {
            guard let v = alphabet.firstIndex(of: c) else { return nil }
            t = t << 5 | UInt64(v)
        }
        return t
    }
}

/// Prefixed identifiers of the public API.
public enum Identifier {
    public static let mobileAppPrefix = "biq_mapp_"
    public static let linkPrefix = "biq_lnk_"
    public static let openPrefix = "biq_open_"
    public static let clickPrefix = "biq_clk_"
    public static let tagPrefix = "biq_tag_"

    public static func make(_ prefix: String) -> String { ULID.make(prefix: prefix) }

    /// True when `text` is `prefix` followed by a valid ULID.
    public static func isValid(_ text: String, prefix: String) -> Bool {
        text.hasPrefix(prefix) && ULID.isValid(text.dropFirst(prefix.count))
    }
}

/// A monotonic ULID sequence owned by one thread (an event loop): its ids sort in the
/// order it made them, without a lock shared with other threads. `ULID.make` is the
/// same sequence behind a process-wide lock.
public struct ULIDGenerator: Sendable {
    private var milliseconds: UInt64 = 0
    private var random: (UInt64, UInt64) = (0, 0)

    public init() {}

    /// `prefix` + the next ULID at `milliseconds`, in one allocation.
    public mutating func make(prefix: String, milliseconds: UInt64) -> String {
        let (time, random) = next(milliseconds)
        return ULID.make(prefix: prefix, milliseconds: time, random: random)
    }

    /// An id in the same millisecond as the previous one (or with a clock that stepped
    /// back) takes the previous time and random part plus one.
    mutating func next(_ now: UInt64) -> (UInt64, (UInt64, UInt64)) {
        if now > milliseconds {
            milliseconds = now
            // Leave headroom so that increments within one millisecond never overflow 80 bits.
            random = (FastRandom.next() & 0x7FFF, FastRandom.next())
        } else {
            let (low, carry) = random.1.addingReportingOverflow(1)
            random = (random.0 + (carry ? 1 : 0), low)
        }
        return (milliseconds, random)
    }
}
