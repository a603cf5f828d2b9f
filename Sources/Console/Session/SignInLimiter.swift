import Core
import Synchronization

/// Wrong keys per client address, as a GCRA: `burst` at once, then one every
/// `intervalSeconds`. While an address is over it, a wrong key from it is answered 429
/// rather than 401; a right key signs in whatever the address spent (others behind the
/// same address must not lock the operator out) and spends nothing. Only a sign-in form
/// with its token counts: a request another site's page can make (a GET, a form without
/// the token) spends nothing. A workspace key is 32 random bytes, so the limit is not
/// what stops guessing; it slows a client that keeps sending wrong keys and shows it.
///
/// Per process: each edge of a fleet counts its own (a fleet's console listeners are
/// loopback or behind one proxy, and the limit only needs to make guessing a 32-byte key
/// slower than pointless). Shared by the loops behind a lock: sign-ins are rare.
final class SignInLimiter: Sendable {
    struct Policy: Sendable, Equatable {
        /// Wrong attempts allowed at once.
        var burst: Int
        /// Seconds after which one more is allowed.
        var intervalSeconds: Int64

        init(burst: Int, intervalSeconds: Int64) {
            self.burst = max(burst, 1)
            self.intervalSeconds = max(intervalSeconds, 1)
        }
    }

    /// Addresses remembered at most; past it, those whose allowance is full again go first.
    static let capacity = 10_000

    let policy: Policy
    /// Per address, the GCRA's theoretical arrival time (milliseconds).
    private let state = Mutex<[String: Int64]>([:])

    init(policy: Policy) {
        self.policy = policy
    }

    private var interval: Int64 { policy.intervalSeconds * 1_000 }
    /// How far ahead of now the arrival time may be for one more attempt: `burst - 1`
    /// intervals, so that `burst` attempts pass at once.
    private var tolerance: Int64 { interval * Int64(policy.burst - 1) }

    /// Seconds until `address` may try again (for `Retry-After`), nil when it may now.
    func retryAfter(_ address: String, now: Int64) -> Int64? {
        state.withLock { table in
            guard let tat = table[address], tat - now > tolerance else { return nil }
            return max(1, (tat - now - tolerance + 999) / 1_000)
        }
    }

    /// Counts one wrong attempt of `address`.
    func recordFailure(_ address: String, now: Int64) {
        state.withLock { table in
            if table.count >= Self.capacity && table[address] == nil {
                table = table.filter { $0.value > now }
                if table.count >= Self.capacity, let oldest = table.min(by: { $0.value < $1.value }) {
                    table[oldest.key] = nil
                }
            }
            table[address] = max(table[address] ?? now, now) + interval
        }
    }
}
