import Core
import Model
import Store

#if canImport(Glibc)
import Glibc
#endif

/// Command-line dispatch.
enum BenchCommand {
    static func run(_ args: [String]) -> Int32 {
        guard let command = args.first else {
            usage()
            return 2
        }
        let options = Flags(Array(args.dropFirst()))
        switch command {
        case "bench": return Throughput.main(options)
        case "crash-writer": return CrashWriter.main(options)
        case "verify": return CrashWriter.verify(options)
        case "reads": return Reads.main(options)
        default:
            usage()
            return 2
        }
    }

    static func usage() {
        let text = """
            usage:
              StoreBench bench [--seconds N] [--inflight 64] [--threads 2] [--dir DIR]
                               [--keys random|ordered] [--ios-percent 50] [--batch 512] [--wait-us 0]
                               [--checkpoint background|inline] [--checkpoint-pages 4000] [--writer-cache-kib 16384]
                               [--page-size 4096] [--coalesce 1|0] [--only group|single] [--links 1]
              StoreBench crash-writer --dir DIR [--inflight 32]
              StoreBench verify --dir DIR --acked FILE
              StoreBench reads [--links 10000] [--lookups 1000000]

            """
        printError(text)
    }
}

/// `--name value` pairs.
struct Flags {
    private var values: [String: String] = [:]

    init(_ args: [String]) {
        var i = 0
        while i < args.count {
            let key = args[i]
            if key.hasPrefix("--"), i + 1 < args.count {
                values[String(key.dropFirst(2))] = args[i + 1]
                i += 2
            } else {
                i += 1
            }
        }
    }

    func string(_ name: String) -> String? { values[name] }
    func int(_ name: String, _ fallback: Int) -> Int { values[name].flatMap { Int($0) } ?? fallback }
    func double(_ name: String, _ fallback: Double) -> Double { values[name].flatMap { Double($0) } ?? fallback }
}

/// A fast, non-cryptographic generator for benchmark data (SplitMix64).
struct FastRandom {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var i = 0
        while i < count {
            var word = next()
            for _ in 0..<8 where i < count {
                out[i] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                i += 1
            }
        }
        return out
    }
}

/// The rows a visit writes: one click and its handoff, like the edge's Android/iOS visit path.
enum VisitRows {
    static let host = "go.bench.test"
    static let appId = "biq_mapp_01HBENCH000000000000000000"
    static let linkId = "biq_lnk_01HBENCH000000000000000000"

    static func seed(_ store: SQLiteStore) throws(StoreError) {
        try store.writeAndWait { tx in
            if try tx.domain(host) != nil { return }
            try tx.putDomain(Domain(hostname: host, verified: true))
            try tx.putApp(
                MobileApp(
                    id: appId, name: "Bench", ios: IOSPlatform(teamId: "ABCDE12345", bundleId: "test.bench"),
                    android: AndroidPlatform(packageName: "test.bench"), domains: [host]))
            try tx.putLink(
                Link(
                    id: linkId, domain: host, key: "invite", url: "https://bench.test/",
                    mobile: mobile))
        }
    }

    /// Handoff keys: random (SHA-256 of a random token, today's Visit module) or
    /// time-ordered (`--keys ordered`: the token's time prefix, then the hash).
    nonisolated(unsafe) static var orderedKeys = false
    /// Share of visits that are iOS (click with a source hash for probabilistic matching).
    nonisolated(unsafe) static var iosPercent: UInt64 = 50
    /// Links the clicks are spread over at random (`--links`): one link appends to one
    /// place of the clicks' link index (schema 7), many insert all over it.
    nonisolated(unsafe) static var linkCount: UInt64 = 1

    /// The link's payload, as the edge's link cache holds it (metadata encoded once).
    static let mobile = MobilePayload(
        appId: appId, route: "/invite", referralCode: "PARTNER_42", metadata: ["campaign": "spring"],
        dynamicKeys: ["ref"])

    static func make(_ random: inout FastRandom, now: Int64) -> (Click, Handoff) {
        let ios = random.next() % 100 < iosPercent
        let id = "biq_clk_" + ULID.make(milliseconds: UInt64(now), random: (random.next(), random.next()))
        let dynamic = [("ref", "BOB")]  // one array for both, as the visit path captures it once
        let clickLink = linkCount > 1 ? "biq_lnk_bench" + String(random.next() % linkCount) : linkId
        let click = Click(
            id: id, linkId: clickLink, appId: appId, domain: host, at: now, kind: ios ? .deepView : .androidRedirect,
            platform: ios ? .ios : .android, inAppBrowser: nil, dynamic: dynamic,
            sourceHash: ios ? random.bytes(32) : nil, osVersion: ios ? "17.4" : nil)
        let handoff = Handoff(
            tokenHash: tokenHash(&random, now: now), clickId: id, appId: appId, platform: ios ? .ios : .android,
            snapshot: HandoffSnapshot(
                linkId: linkId, shortUrl: "https://go.bench.test/invite", route: "/invite",
                referralCode: "PARTNER_42", mobile: mobile, dynamic: dynamic),
            createdAt: now, expiresAt: now + 86_400_000)
        return (click, handoff)
    }

    /// What the visit path computes (`HandoffToken.hash` of a fresh token): the
    /// time-ordered key of a time-prefixed token, or with `--keys random` the key of
    /// an all-random token (tokens made before decision 0006), which is random.
    static func tokenHash(_ random: inout FastRandom, now: Int64) -> [UInt8] {
        let body =
            orderedKeys
            ? HandoffKey.tokenBody(milliseconds: UInt64(now), random: random.bytes(26)) : random.bytes(32)
        return HandoffToken.hash(HandoffToken.make(randomBytes: body))
    }
}

/// Writes to standard error without touching C's `stderr` global.
func printError(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { _ = write(2, $0.baseAddress, $0.count) }
}
