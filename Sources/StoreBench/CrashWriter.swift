import Core
import Model
import Store

#if canImport(Glibc)
import Glibc
#endif

/// `crash-writer`: writes visits forever and prints each click id on stdout only
/// after its completion said it is committed; the crash test kills it with
/// SIGKILL at a random moment and then runs `verify`.
enum CrashWriter {
    static func main(_ flags: Flags) -> Int32 {
        guard let dir = flags.string("dir") else {
            printError("crash-writer needs --dir\n")
            return 2
        }
        let inflight = max(flags.int("inflight", 32), 1)
        do {
            let store = try SQLiteStore.open(dataDirectory: dir, readers: 1)
            try VisitRows.seed(store)
            let slots = Slots(inflight)
            var random = FastRandom(state: Clock.monotonicNanoseconds() ^ UInt64(getpid()))
            while true {
                slots.acquire()
                let (click, handoff) = VisitRows.make(&random, now: Int64(Clock.nowMilliseconds()))
                let id = click.id
                store.write({ tx in
                    try tx.insertClick(click)
                    try tx.insertHandoff(handoff)
                }) { result in
                    // One write(2) per line: a kill never leaves half a line behind a full one.
                    if case .success = result {
                        var line = Array((id + "\n").utf8)
                        line.withUnsafeMutableBytes { _ = Glibc.write(1, $0.baseAddress, $0.count) }
                    } else {
                        printError("write failed: \(result)\n")
                    }
                    slots.release()
                }
            }
        } catch {
            printError("crash-writer: \(error)\n")
            return 1
        }
    }

    /// Opens the directory like a restarted edge would, checks the file's integrity
    /// and that every acknowledged click (one id per complete line of `--acked`) is there.
    static func verify(_ flags: Flags) -> Int32 {
        guard let dir = flags.string("dir"), let ackedPath = flags.string("acked") else {
            printError("verify needs --dir and --acked\n")
            return 2
        }
        guard let acked = readCompleteLines(ackedPath) else {
            printError("verify: cannot read \(ackedPath)\n")
            return 2
        }
        do {
            let store = try SQLiteStore.open(dataDirectory: dir, readers: 1)
            defer { store.close() }
            let problems = try store.integrityCheck()
            let present = try store.allClickIds()
            var missing = 0
            for id in acked where !present.contains(id) {
                missing += 1
                if missing <= 5 { printError("missing acknowledged click \(id)\n") }
            }
            let total = try store.writeAndWait { tx in try tx.analytics(app: VisitRows.appId, since: 0, recent: 0) }
                .clicks.reduce(0) { $0 + $1.count }
            print(
                "integrity: \(problems.isEmpty ? "ok" : problems.joined(separator: "; ")), acknowledged: \(acked.count), "
                    + "missing: \(missing), clicks in file: \(total)")
            return problems.isEmpty && missing == 0 ? 0 : 1
        } catch {
            printError("verify: \(error)\n")
            return 1
        }
    }

    /// Lines that end with a newline (a killed writer may leave a partial last line).
    static func readCompleteLines(_ path: String) -> [String]? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        var lines: [String] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            if i > start { lines.append(String(decoding: bytes[start..<i], as: UTF8.self)) }
            start = i + 1
        }
        return lines
    }
}
