import Core
import Model
import Synchronization
import XCTest

@testable import Store

/// ACME's tables on both backends (decision 0017): rows round-trip, every write moves
/// the version the nodes poll, one claim per hostname at a time, one account per CA.
final class CertificateStoreTests: XCTestCase {
    private func row(_ host: String, at now: Int64) -> StoredCertificate {
        StoredCertificate(
            hostname: host, status: .valid, chainPEM: "-----BEGIN CERTIFICATE-----\nchain\n",
            keyPEM: "-----BEGIN PRIVATE KEY-----\nkey\n", notBefore: now - 1_000, notAfter: now + 90 * 86_400_000,
            issuer: "CN=Test CA", renewalAt: now + 60 * 86_400_000, renewalInfoCheckAt: nil,
            lastErrorType: "urn:ietf:params:acme:error:connection", lastErrorDetail: "refused", failures: 2,
            nextAttemptAt: now + 600_000, updatedAt: now)
    }

    /// The checks, on two stores that share one database (two nodes), or one store twice.
    private func exercise(_ a: any Store, _ b: any Store) throws {
        let now: Int64 = 1_700_000_000_000
        let v0 = try a.writeAndWait { try $0.certificatesVersion() }

        // One claim at a time: the other node is refused until the lease ends or is released.
        XCTAssertTrue(
            try a.writeAndWait {
                try $0.claimCertificateOrder(hostname: "go.example.test", node: "a", until: now + 60_000, now: now)
            })
        XCTAssertFalse(
            try b.writeAndWait {
                try $0.claimCertificateOrder(hostname: "go.example.test", node: "b", until: now + 60_000, now: now + 1)
            })
        XCTAssertTrue(
            try a.writeAndWait {
                try $0.claimCertificateOrder(hostname: "go.example.test", node: "a", until: now + 90_000, now: now + 2)
            },
            "the holder may renew its claim")
        XCTAssertTrue(
            try b.writeAndWait {
                try $0.claimCertificateOrder(
                    hostname: "go.example.test", node: "b", until: now + 200_000, now: now + 90_000)
            },
            "an expired claim is free")
        try b.writeAndWait { try $0.releaseCertificateOrder(hostname: "go.example.test", node: "b") }
        XCTAssertTrue(
            try a.writeAndWait {
                try $0.claimCertificateOrder(
                    hostname: "go.example.test", node: "a", until: now + 60_000, now: now + 90_001)
            })
        let pending = try b.writeAndWait { try $0.storedCertificate(hostname: "go.example.test") }
        XCTAssertEqual(pending?.status, .pending)
        XCTAssertEqual(pending?.leaseNode, "a")
        XCTAssertNil(pending?.chainPEM)
        let v1 = try b.writeAndWait { try $0.certificatesVersion() }
        XCTAssertGreaterThan(v1, v0)

        let stored = row("go.example.test", at: now)
        try a.writeAndWait { try $0.putStoredCertificate(stored) }
        XCTAssertEqual(try b.writeAndWait { try $0.storedCertificate(hostname: "go.example.test") }, stored)
        XCTAssertEqual(try b.reader(loop: 0).storedCertificates(), [stored], "readers see them too (check)")
        let v2 = try b.writeAndWait { try $0.certificatesVersion() }
        XCTAssertGreaterThan(v2, v1)

        // Two nodes making their first account at once keep one key.
        let first = ACMEAccountRecord(
            directoryURL: "https://ca.test/dir", keyPEM: "key-a", accountURL: nil, createdAt: now)
        let second = ACMEAccountRecord(
            directoryURL: "https://ca.test/dir", keyPEM: "key-b", accountURL: nil, createdAt: now)
        XCTAssertEqual(try a.writeAndWait { try $0.insertACMEAccountIfAbsent(first) }.keyPEM, "key-a")
        XCTAssertEqual(try b.writeAndWait { try $0.insertACMEAccountIfAbsent(second) }.keyPEM, "key-a")
        try b.writeAndWait {
            try $0.setACMEAccountURL(directoryURL: "https://ca.test/dir", accountURL: "https://ca.test/acct/1")
        }
        XCTAssertEqual(
            try a.writeAndWait { try $0.acmeAccount(directoryURL: "https://ca.test/dir") }?.accountURL,
            "https://ca.test/acct/1")

        // Challenges every node answers, and their expiry.
        let challenge = ACMEChallengeRecord(
            token: "tok", hostname: "go.example.test", kind: .tlsALPN01, keyAuthorization: "tok.thumb",
            expiresAt: now + 10)
        try a.writeAndWait { try $0.putACMEChallenge(challenge) }
        XCTAssertEqual(try b.writeAndWait { try $0.acmeChallenges() }, [challenge])
        XCTAssertEqual(try b.writeAndWait { try $0.deleteExpiredACMEChallenges(now: now + 10) }, 1)
        XCTAssertEqual(try a.writeAndWait { try $0.acmeChallenges() }, [])
        XCTAssertGreaterThan(try a.writeAndWait { try $0.certificatesVersion() }, v2)

        // Attempts: the newest kept per hostname.
        for i in 0..<5 {
            try a.writeAndWait { tx in
                try tx.insertCertificateOrder(
                    CertificateOrderRecord(
                        hostname: "go.example.test", node: "a", startedAt: now + Int64(i), finishedAt: now + Int64(i),
                        result: i == 4 ? "issued" : "failed", problemType: nil, detail: nil))
            }
        }
        XCTAssertEqual(try a.writeAndWait { try $0.pruneCertificateOrders(keep: 2) }, 3)
        XCTAssertEqual(
            try b.writeAndWait { try $0.certificateOrders(hostname: "go.example.test", limit: 10) }.map(\.result),
            ["issued", "failed"])
        XCTAssertTrue(try a.writeAndWait { try $0.deleteStoredCertificate(hostname: "go.example.test") })
        XCTAssertNil(try b.writeAndWait { try $0.storedCertificate(hostname: "go.example.test") })
    }

    func testOnSQLite() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteStore.open(dataDirectory: directory.path, readers: 1)
        defer { store.close() }
        try exercise(store, store)
    }

    func testOnPostgreSQLWithTwoNodes() throws {
        let database = try PGTestDatabase(now: Int64(Clock.nowMilliseconds()))
        defer { database.drop() }
        let settings = try PGConnectionSettings(database.url)
        let a = try PGStore.open(settings: settings, readers: 1)
        let b = try PGStore.open(settings: settings, readers: 1)
        defer {
            a.close()
            b.close()
        }
        try exercise(a, b)
    }

    func testTwoNodesClaimingAtOnceGetOneClaim() throws {
        let database = try PGTestDatabase(now: Int64(Clock.nowMilliseconds()))
        defer { database.drop() }
        let settings = try PGConnectionSettings(database.url)
        let stores = try (0..<4).map { _ in try PGStore.open(settings: settings, readers: 1) }
        defer { for s in stores { s.close() } }
        for round in 0..<10 {
            let host = "race\(round).example.test"
            let wins = Atomic<Int>(0)
            let threads = stores.enumerated().map { i, store in
                OSThread(name: "claim-\(i)") {
                    let won = try? store.writeAndWait { tx in
                        try tx.claimCertificateOrder(hostname: host, node: "node-\(i)", until: 2_000, now: 1_000)
                    }
                    if won == true { wins.add(1, ordering: .relaxed) }
                }
            }
            for t in threads { t.join() }
            XCTAssertEqual(wins.load(ordering: .relaxed), 1, host)
        }
    }
}
