import Console
import Core
import Dispatch
import HTTPMessages
import Model
import Store
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// A console over a real SQLite store in a scratch directory, a clock the test moves,
/// and a browser's cookie jar: requests go through `Console.handle` as the edge sends
/// them, deferred answers are waited for.
final class ConsoleHarness {
    static let key = "biqli_sk_" + String(repeating: "A", count: 43)
    static let keyId = "sk_console"
    static let host = "go.example.test"
    static let appId = "biq_mapp_01HCONSOLE00000000000000AA"
    static let linkId = "biq_lnk_01HCONSOLE000000000000001"

    let directory: String
    let store: SQLiteStore
    let console: Console
    let clock = Shared<Int64>(1_800_000_000_000)
    let logSink = BufferLogSink()
    /// Each log line's level and message (`error console overview failed`).
    var logs: [String] {
        logSink.lines.map { ($0?["level"]?.stringValue ?? "") + " " + ($0?["msg"]?.stringValue ?? "") }
    }
    /// The background jobs' outcomes (`ConsoleEnvironment.counted`): `overview counted|failed`.
    let counts = Shared<[String]>([])
    var jar: [String: String] = [:]
    var address = "203.0.113.9"

    init(configuration: ConsoleConfiguration = .init()) throws {
        var template = Array("/tmp/consoletests-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil)
        directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let clock = self.clock
        var options = SQLiteStore.Options()
        options.clock = { clock.value }
        store = try SQLiteStore.open(dataDirectory: directory, readers: 2, options: options)
        let now = clock.value
        try store.writeAndWait { tx in
            try tx.putSecretKey(
                SecretKeyRecord(
                    id: Self.keyId, name: "ops", keyHash: SHA256.hash(Self.key), hint: "AAAA", createdAt: 0))
            try tx.putDomain(Domain(hostname: Self.host, verified: true, createdAt: 0, updatedAt: 0))
            try tx.putApp(
                MobileApp(
                    id: Self.appId, name: "Demo <App>", ios: IOSPlatform(teamId: "ABCDE12345", bundleId: "com.x"),
                    domains: [Self.host], createdAt: 0, updatedAt: 0))
            try tx.putLink(
                Link(
                    id: Self.linkId, domain: Self.host, key: "invite", url: "https://example.com/?a=1&b=2",
                    mobile: MobilePayload(appId: Self.appId, route: "/invite"),
                    preview: LinkPreview(title: "Join \"us\" <now>"), createdAt: now, updatedAt: now))
        }
        let counts = self.counts
        let store = self.store
        console = Console(
            store: store, backgroundReaderLoop: 1, configuration: configuration,
            environment: ConsoleEnvironment(
                now: { clock.value }, resumeOnLoop: { _, work in work() },
                certificate: { _ in CertificateStatus(status: "valid", source: "directory", notAfter: 0) },
                domainFindings: { _ in [] },
                dns: { DNSTarget(canonicalName: "edge.example.com", httpsPort: 443, httpPort: 80) },
                log: Logger(level: .info, sink: logSink),
                counted: { job, ok in counts.update { $0.append(job + (ok ? " counted" : " failed")) } }))
        console.start()
    }

    func close() {
        console.stop()
        store.close()
        for suffix in ["", "-wal", "-shm"] { unlink(directory + "/" + SQLiteStore.fileName + suffix) }
        rmdir(directory)
    }

    func advance(seconds: Int64) { clock.update { $0 += seconds * 1_000 } }

    /// One request as the browser sends it (the jar's cookies), the jar updated from the answer.
    @discardableResult
    func send(_ method: HTTPMethod, _ target: String, form: [(String, String)]? = nil) -> HTTPResponse {
        var headers = HTTPHeaders()
        if !jar.isEmpty { headers.add("cookie", jar.map { $0.key + "=" + $0.value }.joined(separator: "; ")) }
        var body: [UInt8] = []
        if let form {
            headers.add("content-type", "application/x-www-form-urlencoded")
            body = Array(
                form.map { PercentCoding.encode($0.0) + "=" + PercentCoding.encode($0.1) }.joined(separator: "&").utf8)
        }
        let request = HTTPRequest(method: method, target: target, headers: headers, body: body)
        let response: HTTPResponse
        switch console.handle(
            request, client: ConsoleClient(address: address, secure: false, loop: 0), reader: store.reader(loop: 0))
        {
        case .response(let r):
            response = r
        case .deferred(let later):
            let done = DispatchSemaphore(value: 0)
            let box = Shared<HTTPResponse?>(nil)
            later { r in
                box.update { $0 = r }
                done.signal()
            }
            done.wait()
            response = box.value!
        }
        for cookie in response.headers.values("set-cookie") {
            let pair = cookie.split(separator: ";")[0].split(
                separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if cookie.contains("Max-Age=0") {
                jar[String(pair[0])] = nil
            } else {
                jar[String(pair[0])] = String(pair[1])
            }
        }
        return response
    }

    /// The page's text.
    func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    /// The `csrf` field of the page at `target`.
    func csrf(of target: String) -> String {
        let page = text(send(.get, target))
        guard let range = page.range(of: "name=\"csrf\" value=\"") else { return "" }
        return String(page[range.upperBound...].prefix { $0 != "\"" })
    }

    /// Signs in with the key through the form.
    func signIn() {
        let token = csrf(of: "/console/sign-in")
        let answer = send(.post, "/console/sign-in", form: [("csrf", token), ("key", Self.key)])
        XCTAssertEqual(answer.status, 303)
    }
}

/// A value several threads read and change.
final class Shared<T: Sendable>: Sendable {
    private let state: Mutex<T>
    init(_ value: T) { state = Mutex(value) }
    var value: T { state.withLock { $0 } }
    func update(_ change: (inout T) -> Void) { state.withLock { change(&$0) } }
}
