#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock and monotonic time without Foundation, cheap enough for hot paths.
public enum Clock {
    /// Milliseconds since the Unix epoch (wall clock).
    public static func nowMilliseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(ts.tv_sec) * 1000 + UInt64(ts.tv_nsec) / 1_000_000
    }

    /// Seconds since the Unix epoch (wall clock).
    public static func nowSeconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec)
    }

    /// Monotonic nanoseconds, for durations and deadlines.
    public static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
