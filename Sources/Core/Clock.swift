import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock and monotonic time without Foundation, cheap enough for hot paths.
public enum Clock {
    /// Milliseconds the wall clock is set back by (`setBack`, tests only): 0 in service.
    private static let back = Atomic<Int64>(0)

    /// Sets the process's wall clock `milliseconds` back: every time read through `Clock`
    /// (clicks, events, ids, the store's) is that much in the past. Only for
    /// `BIQLI_EDGE_TEST_CLOCK_BACK_MS`, the screenshot script's way to make past traffic
    /// through the real paths (decision 0026); set once at start, before any thread.
    public static func setBack(milliseconds: Int64) {
        back.store(max(milliseconds, 0), ordering: .relaxed)
    }

    /// Milliseconds the wall clock is set back by: 0 unless `setBack` was called.
    public static var backMilliseconds: Int64 { back.load(ordering: .relaxed) }

    /// Milliseconds since the Unix epoch (wall clock).
    public static func nowMilliseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let now = UInt64(ts.tv_sec) * 1000 + UInt64(ts.tv_nsec) / 1_000_000
        return now - UInt64(back.load(ordering: .relaxed))
    }

    /// Seconds since the Unix epoch (wall clock).
    public static func nowSeconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) - back.load(ordering: .relaxed) / 1_000
    }

    /// Monotonic nanoseconds, for durations and deadlines.
    public static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
