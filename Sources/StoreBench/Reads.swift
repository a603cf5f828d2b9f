import Core
import Model
import Store

#if canImport(Glibc)
import Glibc
#endif

/// `reads`: the cost of a link lookup on a loop's reader, from its cache and
/// from SQLite (cache misses), and of a domain lookup from the snapshot.
enum Reads {
    static func main(_ flags: Flags) -> Int32 {
        let links = max(flags.int("links", 10_000), 1)
        let lookups = max(flags.int("lookups", 1_000_000), 1)
        let dir = flags.string("dir") ?? "/tmp/storebench-reads-\(getpid())"
        mkdir(dir, 0o700)
        for suffix in ["", "-wal", "-shm"] { unlink(dir + "/" + SQLiteStore.fileName + suffix) }
        do {
            var options = SQLiteStore.Options()
            let cached = try SQLiteStore.open(dataDirectory: dir, readers: 1, options: options)
            try VisitRows.seed(cached)
            try cached.writeAndWait { tx in
                for i in 0..<links {
                    try tx.putLink(
                        Link(id: "biq_lnk_r\(i)", domain: VisitRows.host, key: "k\(i)", url: "https://r.test/\(i)"))
                }
            }
            let keys = (0..<links).map { "k\($0)" }
            let reader = cached.reader(loop: 0)
            for k in keys { _ = try reader.link(host: VisitRows.host, key: k) }  // warm the cache
            report("link from the loop's cache", lookups) { i throws(StoreError) in
                _ = try reader.link(host: VisitRows.host, key: keys[i % links])
            }
            report("domain from the snapshot", lookups) { _ throws(StoreError) in
                _ = try reader.domain(VisitRows.host)
            }
            cached.close()

            options.linkCacheCapacity = 1  // every lookup goes to SQLite
            let uncached = try SQLiteStore.open(dataDirectory: dir, readers: 1, options: options)
            let direct = uncached.reader(loop: 0)
            report("link from SQLite (cache miss, cached statement)", min(lookups, 200_000)) { i throws(StoreError) in
                _ = try direct.link(host: VisitRows.host, key: keys[(i &* 7919) % links])
            }
            uncached.close()
        } catch {
            printError("reads failed: \(error)\n")
            return 1
        }
        return 0
    }

    static func report(_ title: String, _ count: Int, _ body: (Int) throws(StoreError) -> Void) {
        let start = Clock.monotonicNanoseconds()
        for i in 0..<count { try? body(i) }
        let ns = Double(Clock.monotonicNanoseconds() - start) / Double(count)
        print(title + ": " + Throughput.fixed(ns, 0) + " ns per lookup")
    }
}
