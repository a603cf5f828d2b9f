import Model
import XCTest

@testable import Store

/// What every backend must do for client-side click tracking (`ClientClickReading`,
/// `ClientClickWriting`, decision 0027): browser keys found by the hash of their text,
/// revoked or not, listed by creation time then id; the settings, initial until set.
enum ClientClickContract {
    static let suite: [ContractCase] = [
        ("browser keys round-trip and list by creation time then id", browserKeysRoundTrip),
        ("the settings are the initial ones until set, then as set", settingsRoundTrip),
    ]

    static func browserKeysRoundTrip(_ b: any ContractBackend) throws {
        let later = BrowserKeyRecord(id: "bk_a", name: "site", keyHash: [1, 2], hint: "abcd", createdAt: 20)
        let early = BrowserKeyRecord(id: "bk_z", name: "", keyHash: [3], hint: "efgh", createdAt: 10)
        let tie = BrowserKeyRecord(id: "bk_b", name: "tie", keyHash: [4], hint: "ijkl", createdAt: 20, revokedAt: 30)
        XCTAssertEqual(try b.committed.browserKeys(), [])
        try b.write { tx in
            try tx.putBrowserKey(later)
            try tx.putBrowserKey(early)
            try tx.putBrowserKey(tie)
        }
        XCTAssertEqual(try b.committed.browserKeys(), [early, later, tie])
        XCTAssertEqual(try b.committed.browserKey(hash: [1, 2]), later)
        XCTAssertEqual(try b.committed.browserKey(hash: [4]), tie, "revoked keys are found too")
        XCTAssertNil(try b.committed.browserKey(hash: [1]))
        var revoked = later
        revoked.revokedAt = 40
        try b.write { [revoked] tx in try tx.putBrowserKey(revoked) }
        XCTAssertEqual(try b.committed.browserKey(hash: [1, 2])?.revokedAt, 40)
        XCTAssertEqual(try b.committed.browserKeys().count, 3, "replaced by its id, not added")
        XCTAssertEqual(try b.write { tx in try tx.browserKeys() }, [early, revoked, tie])
    }

    static func settingsRoundTrip(_ b: any ContractBackend) throws {
        XCTAssertEqual(try b.committed.clientClickSettings(), .initial)
        let on = ClientClickSettings(enabled: true, hostnames: ["shop.example.com", "www.example.com"], updatedAt: 5)
        try b.write { tx in try tx.putClientClickSettings(on) }
        XCTAssertEqual(try b.committed.clientClickSettings(), on)
        let off = ClientClickSettings(enabled: false, hostnames: [], updatedAt: 6)
        XCTAssertEqual(
            try b.write { tx in
                try tx.putClientClickSettings(off)
                return try tx.clientClickSettings()
            }, off)
        XCTAssertEqual(try b.committed.clientClickSettings(), off)
    }
}
