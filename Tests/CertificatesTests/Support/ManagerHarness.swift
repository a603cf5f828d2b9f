import Core
import Foundation
import Store
import Synchronization

@testable import Certificates

/// What the manager's hooks were called with, and what its `domains` hook answers
/// (nil: the read failed).
final class HookRecorder: Sendable {
    let domains = Mutex<[String]?>(nil)
    private let events = Mutex<[String]>([])
    private let lists = Mutex<[[String]]>([])

    var hooks: CertificateManagerHooks {
        CertificateManagerHooks(
            domains: { [self] in domains.withLock { $0 } }, directoryCovers: { _ in false },
            serve: { [self] list in lists.withLock { $0.append(list.map(\.hostname)) } },
            presentALPN: { _, _ in }, withdrawALPN: { _ in },
            event: { [self] event in events.withLock { $0.append(Self.describe(event)) } })
    }

    func setDomains(_ hostnames: [String]?) { domains.withLock { $0 = hostnames } }

    /// The events so far whose description starts with `prefix` (`orderStarted a.test`).
    func events(_ prefix: String) -> [String] { events.withLock { $0.filter { $0.hasPrefix(prefix) } } }

    /// The hostnames of each list handed to `serve`, in order.
    var served: [[String]] { lists.withLock { $0 } }

    static func describe(_ event: CertificateEvent) -> String {
        switch event {
        case .accountRegistered: return "accountRegistered"
        case .orderStarted(let host, _): return "orderStarted \(host)"
        case .challengePublished(let host, _): return "challengePublished \(host)"
        case .issued(let host, _, _, _): return "issued \(host)"
        case .orderFailed(let host, let problem, _, _): return "orderFailed \(host) \(problem.type)"
        case .renewalInformation(let host, _): return "renewalInformation \(host)"
        case .storeFailed: return "storeFailed"
        }
    }
}

/// The managers' clock, moved by the test.
final class TestClock: Sendable {
    private let milliseconds: Atomic<Int64>

    init(_ start: Int64) { milliseconds = Atomic(start) }

    var now: Int64 { milliseconds.load(ordering: .acquiring) }
    func advance(_ by: Int64) { milliseconds.add(by, ordering: .acquiringAndReleasing) }
}

/// A SQLite store that can be made to fail, a clock, and certificate managers over them
/// (the nodes of one fleet when several share the store). The CA is out of reach unless
/// a test gives one (`FakeCA`).
final class ManagerHarness {
    let directory: String
    let store: FlakyStore
    let clock = TestClock(Int64(Clock.nowMilliseconds()))
    let recorder = HookRecorder()
    /// Nothing listens there: every request to the CA is refused.
    static let unreachableCA = "https://127.0.0.1:1/dir"

    init() throws {
        directory = try OpenSSLTool.scratch()
        store = FlakyStore(base: try SQLiteStore.open(dataDirectory: directory, readers: 1))
    }

    func manager(
        node: String = "node-a", directoryURL: String = ManagerHarness.unreachableCA, rootsFile: String? = nil,
        recorder: HookRecorder? = nil
    ) throws -> CertificateManager {
        let settings = ACMESettings(
            directoryURL: directoryURL, email: nil, externalAccount: nil, rootsFile: rootsFile, node: node,
            userAgent: "certificates-tests", challenges: [.http01], fleet: false)
        let clock = clock
        return try CertificateManager(
            settings: settings, store: store, hooks: (recorder ?? self.recorder).hooks, now: { clock.now })
    }

    func put(_ row: StoredCertificate) throws { try store.base.writeAndWait { tx in try tx.putStoredCertificate(row) } }

    func row(_ hostname: String) throws -> StoredCertificate? {
        try store.base.writeAndWait { tx in try tx.storedCertificate(hostname: hostname) }
    }

    /// A row holding a certificate valid for a day around now, renewed at `renewalAt`.
    func validRow(_ hostname: String, renewalAt: Int64) -> StoredCertificate {
        let now = clock.now
        return StoredCertificate(
            hostname: hostname, status: .valid, chainPEM: "chain of \(hostname)", keyPEM: "key of \(hostname)",
            notBefore: now - 86_400_000, notAfter: now + 86_400_000, issuer: "CN=Test", renewalAt: renewalAt,
            updatedAt: now)
    }

    /// A chain for `hostname` from a CA of the test's own, with the authority key
    /// identifier and serial that make its CertID (RFC 9773), and its key.
    func issuedChain(_ hostname: String) throws -> (chain: String, key: String, info: CertificateInfo) {
        func run(_ args: [String]) throws {
            let out = try OpenSSLTool.run(args, in: directory)
            guard out.status == 0 else { throw OpenSSLTool.Failure(description: out.output) }
        }
        try run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "issuer.key",
            "-out", "issuer.pem", "-days", "3", "-subj", "/CN=Test Issuing CA",
        ])
        let key = try ECKey.generate().pem
        try key.write(toFile: directory + "/leaf.key", atomically: true, encoding: .utf8)
        try run(["req", "-new", "-key", "leaf.key", "-subj", "/CN=\(hostname)", "-out", "leaf.csr"])
        try "subjectAltName=DNS:\(hostname)\nauthorityKeyIdentifier=keyid\n".write(
            toFile: directory + "/ext.cnf", atomically: true, encoding: .utf8)
        try run([
            "x509", "-req", "-in", "leaf.csr", "-CA", "issuer.pem", "-CAkey", "issuer.key", "-set_serial", "0x0a0b0c",
            "-days", "2", "-extfile", "ext.cnf", "-out", "leaf.pem",
        ])
        let chain =
            try String(contentsOfFile: directory + "/leaf.pem", encoding: .utf8)
            + String(contentsOfFile: directory + "/issuer.pem", encoding: .utf8)
        guard let info = CertificateInfo(pem: chain) else { throw OpenSSLTool.Failure(description: "unreadable chain") }
        return (chain, key, info)
    }

    func close() {
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
