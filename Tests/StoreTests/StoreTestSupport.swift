import Core
import Model
import XCTest

@testable import Store

#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/storetests-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    var databasePath: String { path + "/" + SQLiteStore.fileName }

    func remove() {
        for suffix in ["", "-wal", "-shm"] { unlink(databasePath + suffix) }
        rmdir(path)
    }
}

/// A test case with one open store in a temporary directory, closed afterwards.
class StoreTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var store: SQLiteStore!

    /// Overridden by tests that need other options.
    func makeOptions() -> SQLiteStore.Options {
        var options = SQLiteStore.Options()
        options.clock = { 1_700_000_000_000 }
        return options
    }

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        store = try SQLiteStore.open(dataDirectory: directory.path, readers: 2, options: makeOptions())
    }

    override func tearDown() {
        store?.close()
        store = nil
        directory?.remove()
    }

    var reader: any StoreReader { store.reader(loop: 0) }

    /// `writeAndWait` with typed throws turned into XCTest's untyped throws.
    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws -> T {
        try store.writeAndWait(body)
    }

    /// The StoreError a write fails with, or nil when it succeeded.
    func writeError<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) -> StoreError? {
        do {
            _ = try store.writeAndWait(body)
            return nil
        } catch {
            return error
        }
    }

    /// Occupies the writer with a job that waits for the returned latch's `release()`,
    /// so that the writes queued meanwhile run as one batch.
    func holdWriter() -> Latch {
        let gate = Latch()
        let entered = Latch()
        store.write({ _ in
            entered.countDown()
            gate.block()
        }) { _ in }
        XCTAssertTrue(entered.wait(for: 1))
        return gate
    }

    /// Domain `go.example.com`, app `biq_mapp_A` attached to it, and a mobile link `invite`.
    func seedCatalog() throws {
        try write { tx in
            try tx.putDomain(Fixture.domain())
            try tx.putApp(Fixture.app())
            try tx.putLink(Fixture.link())
        }
    }
}

/// Model values with every field set.
enum Fixture {
    static let host = "go.example.com"
    static let appId = "biq_mapp_01ARZ3NDEKTSV4RRFFQ69G5FAV"
    static let linkId = "biq_lnk_01ARZ3NDEKTSV4RRFFQ69G5FAX"

    static func domain(_ host: String = host) -> Domain {
        Domain(
            hostname: host, verified: true, deepViewEnabled: false, rootUrl: "https://example.com/",
            notFoundUrl: "https://example.com/404", createdAt: 1_000, updatedAt: 2_000)
    }

    static func app(_ id: String = appId, domains: [String] = [host]) -> MobileApp {
        MobileApp(
            id: id, name: "Example", enabled: false, iconUrl: "https://example.com/icon.png",
            ios: IOSPlatform(
                teamId: "ABCDE12345", bundleId: "com.example.app", appStoreId: "123456789",
                testFlightUrl: "https://testflight.apple.com/join/ABC", fallbackUrl: "https://example.com/ios",
                probabilisticFallback: true, probabilisticWindowMinutes: 15, sdkEnabled: false, webCredentials: true,
                appClipBundleId: "com.example.app.Clip"),
            android: AndroidPlatform(
                packageName: "com.example.app", sha256CertFingerprints: ["AB:CD", "EF:01"],
                playStoreUrl: "https://play.google.com/store/apps/details?id=com.example.app",
                fallbackUrl: "https://example.com/android", sdkEnabled: false),
            domains: domains, handoffLifetimeSeconds: 3_600, keyOverlapSeconds: 60, createdAt: 3_000,
            updatedAt: 4_000)
    }

    static func link(
        id: String = linkId, host: String = host, key: String = "invite", appId: String? = Fixture.appId
    ) -> Link {
        Link(
            id: id, domain: host, key: key, url: "https://example.com/invite?x=1", enabled: true,
            mobile: appId.map {
                MobilePayload(
                    appId: $0, route: "/invite/accepted", referralCode: "PARTNER_42",
                    metadata: ["campaign": "spring", "n": 3, "nested": ["a": [true, nil, 1.5]]],
                    dynamicKeys: ["ref", "utm_source"], deepView: false)
            },
            preview: LinkPreview(title: "Join", description: "Come \"in\"", imageUrl: "https://example.com/i.png"),
            createdAt: 5_000, updatedAt: 6_000)
    }

    static func click(
        id: String, at: Int64, platform: VisitorPlatform = .ios, kind: ClickKind = .deepView,
        app: String? = appId, host: String = host, sourceHash: [UInt8]? = [1, 2, 3], osVersion: String? = "17.4"
    ) -> Click {
        Click(
            id: id, linkId: linkId, appId: app, domain: host, at: at, kind: kind, platform: platform,
            inAppBrowser: "instagram", dynamic: [("ref", "BOB"), ("utm_source", "x"), ("ref", "again")],
            sourceHash: sourceHash, osVersion: osVersion)
    }

    static func handoff(token: UInt8, clickId: String, expiresAt: Int64 = 90_000) -> Handoff {
        Handoff(
            tokenHash: [UInt8](repeating: token, count: 32), clickId: clickId, appId: appId, platform: .android,
            snapshot: HandoffSnapshot(
                linkId: linkId, shortUrl: "https://go.example.com/invite", route: "/invite/accepted",
                referralCode: "PARTNER_42", metadata: ["campaign": "spring"], dynamic: [("ref", "BOB")]),
            createdAt: 10_000, expiresAt: expiresAt)
    }

    static func open(
        id: String, eventId: String, app: String = appId, idempotencyKeyHash: [UInt8]? = nil, at: Int64 = 20_000,
        matchedBy: MatchType = .exactHandoff, firstOpen: Bool = true
    ) -> OpenEvent {
        OpenEvent(
            id: id, appId: app, appInstanceId: "install_0123456789abcdef", eventId: eventId,
            idempotencyKeyHash: idempotencyKeyHash, requestHash: [9, 9, 9], platform: .ios, matchedBy: matchedBy,
            firstOpen: firstOpen, sdkVersion: "1.0.0", linkId: linkId, clickId: "biq_clk_1", at: at,
            storedResponse: Array("{\"open\":{}}".utf8))
    }
}

extension StoreTestCase {
    /// A separate connection to the same file, as another process would see it.
    func outsideConnection(queryOnly: Bool = true) throws -> SQLiteConnection {
        try SQLiteConnection.open(
            path: directory.databasePath, create: false, busyTimeoutMilliseconds: 5_000, cacheKiB: 1_024,
            queryOnly: queryOnly)
    }

    func count(_ table: String) throws -> Int64 {
        try outsideConnection().integer("SELECT count(*) FROM \(table)")
    }

    /// Every click of `Fixture.appId` the analytics counters hold.
    func countedClicks() throws -> Int {
        try reader.analytics(app: Fixture.appId, since: 0, recent: 0).clicks.reduce(0) { $0 + $1.count }
    }
}

/// A counter and a gate shared with completions on the writer thread.
final class Latch: Sendable {
    private let monitor = Monitor((count: 0, open: false))

    func countDown() {
        monitor.withLock { state in
            state.count += 1
            monitor.broadcast()
        }
    }

    /// Waits until `countDown` was called `target` times; false after `seconds`.
    func wait(for target: Int, seconds: Double = 30) -> Bool {
        let deadline = Clock.monotonicNanoseconds() + UInt64(seconds * 1e9)
        return monitor.withCondition { held in
            while held.state.count < target {
                if !held.wait(untilMonotonic: deadline) && held.state.count < target { return false }
            }
            return true
        }
    }

    /// Blocks until `release()`; used to hold the writer while a batch queues up.
    func block() {
        monitor.withCondition { held in
            while !held.state.open { held.wait() }
        }
    }

    func release() {
        monitor.withLock { state in
            state.open = true
            monitor.broadcast()
        }
    }
}

/// Results gathered from completions.
final class Box<T: Sendable>: Sendable {
    private let monitor = Monitor<[T]>([])

    func append(_ item: T) { monitor.withLock { $0.append(item) } }
    var values: [T] { monitor.withLock { $0 } }
}

/// Hands a thread-confined value to exactly one other thread (the test guarantees it).
final class Handover<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
