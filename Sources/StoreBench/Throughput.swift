import Core
import Model
import Store

#if canImport(Glibc)
import Glibc
#endif

/// `bench`: durable click+handoff writes per second with group commit, then with
/// one transaction per write, in the same run and on fresh files.
enum Throughput {
    struct Figures {
        var writes: Int
        var seconds: Double
        var p50: Double
        var p99: Double
        var p999: Double
        var max: Double
        var batches: Int
        var failed: Int
        var checkpoints: Int
        var walResets: Int
        /// Process CPU time (user + system, all threads) per write, microseconds.
        var cpuMicrosPerWrite: Double
        /// The writer thread's CPU time per write, microseconds.
        var writerMicrosPerWrite: Double
        var perSecond: Double { Double(writes) / seconds }
    }

    static func main(_ flags: Flags) -> Int32 {
        let seconds = flags.double("seconds", 5)
        let inflight = max(flags.int("inflight", 64), 1)
        let threads = max(flags.int("threads", 2), 1)
        let waitMicros = flags.int("wait-us", 0)
        let batch = flags.int("batch", 512)
        VisitRows.orderedKeys = flags.string("keys") == "ordered"
        VisitRows.iosPercent = UInt64(max(0, min(100, flags.int("ios-percent", 50))))
        VisitRows.linkCount = UInt64(max(1, flags.int("links", 1)))
        let inlineCheckpoint = flags.string("checkpoint") == "inline"
        let checkpointPages = flags.int("checkpoint-pages", SQLiteStore.Options().walCheckpointPages)
        let base = flags.string("dir") ?? "/tmp/storebench-\(getpid())"
        // `--only group|single` runs one mode (for profiling); both by default.
        let only = flags.string("only")
        mkdir(base, 0o700)
        print(
            "store bench: \(seconds) s per mode, \(inflight) writes in flight from \(threads) threads, "
                + "clicks over \(VisitRows.linkCount) link(s)")
        print("each write = 1 click + 1 handoff (2 rows), durable (WAL, synchronous=NORMAL) before its completion")
        do {
            var group = SQLiteStore.Options()
            group.maxBatchCount = batch
            group.maxBatchWaitMicroseconds = waitMicros
            group.backgroundCheckpoint = !inlineCheckpoint
            group.walCheckpointPages = checkpointPages
            group.writerCacheKiB = flags.int("writer-cache-kib", group.writerCacheKiB)
            group.pageSize = flags.int("page-size", group.pageSize)
            group.coalesceWALWrites = flags.int("coalesce", 1) != 0
            var g: Figures?
            if only != "single" {
                let figures = try measure(
                    dir: base + "/group", options: group, seconds: seconds, inflight: inflight, threads: threads)
                report("group commit (batch <= \(batch), wait \(waitMicros) us)", figures)
                g = figures
            }
            if only == "group" { return 0 }
            var single = SQLiteStore.Options()
            single.maxBatchCount = 1
            single.backgroundCheckpoint = !inlineCheckpoint
            single.walCheckpointPages = checkpointPages
            single.writerCacheKiB = flags.int("writer-cache-kib", single.writerCacheKiB)
            single.pageSize = flags.int("page-size", single.pageSize)
            single.coalesceWALWrites = flags.int("coalesce", 1) != 0
            let s = try measure(
                dir: base + "/single", options: single, seconds: seconds, inflight: inflight, threads: threads)
            report("one transaction per write", s)
            if let g { print("speed-up: " + fixed(g.perSecond / s.perSecond, 1) + "x") }
        } catch {
            printError("bench failed: \(error)\n")
            return 1
        }
        return 0
    }

    static func report(_ title: String, _ f: Figures) {
        print(
            title + ": " + fixed(f.perSecond, 0) + " writes/s (\(f.writes) in " + fixed(f.seconds, 2) + " s), "
                + "commit wait p50 " + fixed(f.p50, 2) + " ms, p99 " + fixed(f.p99, 2) + " ms, p99.9 "
                + fixed(f.p999, 2) + " ms, max " + fixed(f.max, 2) + " ms, "
                + fixed(Double(f.writes) / Double(max(f.batches, 1)), 1) + " writes/batch, "
                + fixed(f.cpuMicrosPerWrite, 1) + " us CPU/write (writer thread " + fixed(f.writerMicrosPerWrite, 1)
                + " us), \(f.checkpoints) checkpoints, \(f.walResets) WAL resets, \(f.failed) failed")
    }

    /// `value` with `decimals` digits after the point (no Foundation here).
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        var text = (value < 0 ? "-" : "") + String(whole)
        if decimals > 0 {
            let fraction = String(scaled % Int64(scale))
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return text
    }

    static func measure(dir: String, options: SQLiteStore.Options, seconds: Double, inflight: Int, threads: Int)
        throws(StoreError) -> Figures
    {
        mkdir(dir, 0o700)
        for suffix in ["", "-wal", "-shm"] { unlink(dir + "/" + SQLiteStore.fileName + suffix) }
        let store = try SQLiteStore.open(dataDirectory: dir, readers: 1, options: options)
        try VisitRows.seed(store)
        let recorder = LatencyRecorder(capacity: 2_000_000)
        let stop = StopFlag()
        let perThread = max(inflight / threads, 1)
        let before = store.statistics
        let cpuBefore = cpuMicroseconds()
        let start = Clock.monotonicNanoseconds()
        let workers = (0..<threads).map { t in
            Worker(index: t, slots: perThread, store: store, recorder: recorder, stop: stop)
        }
        for w in workers { w.start() }
        usleep(UInt32(seconds * 1_000_000))
        stop.set()
        for w in workers { w.join() }
        let elapsed = Double(Clock.monotonicNanoseconds() - start) / 1e9
        let cpu = cpuMicroseconds() - cpuBefore
        let after = store.statistics
        store.close()
        let sorted = recorder.sortedMilliseconds()
        func pct(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        return Figures(
            writes: sorted.count, seconds: elapsed, p50: pct(0.50), p99: pct(0.99), p999: pct(0.999),
            max: sorted.last ?? 0, batches: after.batches - before.batches,
            failed: after.failedJobs - before.failedJobs,
            checkpoints: after.checkpoints - before.checkpoints, walResets: after.walResets - before.walResets,
            cpuMicrosPerWrite: cpu / Double(max(sorted.count, 1)),
            writerMicrosPerWrite: Double(after.writerCPUNanoseconds - before.writerCPUNanoseconds) / 1e3
                / Double(max(sorted.count, 1)))
    }

    static func cpuMicroseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }
}
