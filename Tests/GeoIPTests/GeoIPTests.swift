import Foundation
import Synchronization
import XCTest

@testable import GeoIP

#if canImport(Glibc)
import Glibc
#endif

/// Countries from a real `.mmdb` written by `tests/geoip/make-mmdb.pl` (Debian's
/// libmaxmind-db-writer-perl): found, absent, unparseable, IPv6 and IPv4-mapped
/// addresses; a changed file used from the next lookup on; a broken one leaving the
/// last good one in use.
final class GeoIPTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        var template = Array("/tmp/geoiptests-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        directory = String(cString: made!)
        guard system("perl -MMaxMind::DB::Writer::Tree -e 1 2>/dev/null") == 0 else {
            throw XCTSkip("libmaxmind-db-writer-perl is not installed (BIQLI_SETUP_TEST=1 scripts/setup)")
        }
    }

    override func tearDown() {
        _ = system("rm -rf '\(directory)'")
    }

    /// Writes a database mapping each network to a country code (see the script).
    @discardableResult
    func makeDatabase(_ name: String, _ networks: [String]) throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../tests/geoip/make-mmdb.pl").standardized.path
        let path = directory + "/" + name
        let status = system("perl '\(script)' '\(path)' " + networks.map { "'\($0)'" }.joined(separator: " "))
        XCTAssertEqual(status, 0, "make-mmdb.pl failed")
        return path
    }

    func testCountriesAreFoundByAddress() throws {
        let db = try GeoIPDatabase(
            path: makeDatabase(
                "a.mmdb",
                [
                    "127.0.0.0/8=DE", "10.1.0.0/16=fr", "2001:db8::/32=JP", "192.0.2.0/24=registered:BR",
                    "198.51.100.0/24=none", "203.0.113.0/24=XYZ",
                ]))
        XCTAssertEqual(db.databaseType, "biqli-Test-Country")
        XCTAssertGreaterThan(db.buildEpoch, 1_600_000_000)
        XCTAssertEqual(db.country(of: "127.0.0.1"), "DE")
        XCTAssertEqual(db.country(of: "127.255.1.2"), "DE")
        XCTAssertEqual(db.country(of: "10.1.200.3"), "FR", "codes are upper-cased")
        XCTAssertEqual(db.country(of: "2001:db8::1"), "JP")
        XCTAssertEqual(db.country(of: "::ffff:127.0.0.9"), "DE", "an IPv4-mapped address is looked up as IPv4")
        XCTAssertEqual(db.country(of: "192.0.2.7"), "BR", "the registered country when the record has no country")
        XCTAssertNil(db.country(of: "198.51.100.1"), "a record without a country")
        XCTAssertNil(db.country(of: "203.0.113.1"), "not a two-letter code")
        XCTAssertNil(db.country(of: "10.2.0.1"), "not in the file")
        XCTAssertNil(db.country(of: "2001:db9::1"))
        XCTAssertNil(db.country(of: "not-an-address"))
        XCTAssertNil(db.country(of: ""))
        XCTAssertNil(db.country(of: "127.0.0.1:443"))
    }

    func testAFileThatIsNotADatabaseIsRefused() throws {
        let path = directory + "/bad.mmdb"
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try GeoIPDatabase(path: path)) { error in
            guard case .unreadable(let p, _) = error as? GeoIPError else { return XCTFail("\(error)") }
            XCTAssertEqual(p, path)
        }
        XCTAssertThrowsError(try GeoIPDatabase(path: directory + "/missing.mmdb"))
        XCTAssertThrowsError(try GeoIPLookup(path: path, loops: 1))
    }

    func testTheLetterCodeIsCheckedAndUpperCased() {
        XCTAssertEqual(GeoIPDatabase.countryCode(UInt8(ascii: "d"), UInt8(ascii: "E")), "DE")
        XCTAssertNil(GeoIPDatabase.countryCode(UInt8(ascii: "D"), UInt8(ascii: "1")))
        XCTAssertNil(GeoIPDatabase.countryCode(0xC3, 0x9F))
    }

    func testAChangedFileIsUsedByEveryLoopAndABrokenOneKeepsTheLastGood() throws {
        let path = try makeDatabase("live.mmdb", ["127.0.0.0/8=DE"])
        let events = Mutex<[GeoIPLookup.Event]>([])
        let lookup = try GeoIPLookup(path: path, loops: 2) { event in events.withLock { $0.append(event) } }
        XCTAssertEqual(lookup.country(of: "127.0.0.1", loop: 0), "DE")
        XCTAssertEqual(lookup.country(of: "127.0.0.1", loop: 1), "DE")
        XCTAssertFalse(lookup.reloadIfChanged(), "nothing changed")

        // Replaced by a rename, as an updater does.
        try makeDatabase("live.mmdb", ["127.0.0.0/8=AT"])
        XCTAssertTrue(lookup.reloadIfChanged())
        XCTAssertEqual(lookup.country(of: "127.0.0.1", loop: 0), "AT")
        XCTAssertEqual(lookup.country(of: "127.0.0.1", loop: 1), "AT")

        // Overwritten with garbage: reported once, the last good database stays.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertFalse(lookup.reloadIfChanged())
        XCTAssertFalse(lookup.reloadIfChanged(), "the same broken file is not tried again")
        XCTAssertEqual(lookup.country(of: "127.0.0.1", loop: 0), "AT")
        // Gone: the same.
        unlink(path)
        XCTAssertFalse(lookup.reloadIfChanged())
        XCTAssertEqual(lookup.country(of: "127.0.0.1", loop: 1), "AT")
        // Back: used again.
        try makeDatabase("live.mmdb", ["127.0.0.0/8=CH"])
        XCTAssertTrue(lookup.reloadIfChanged())
        XCTAssertEqual(lookup.country(of: "127.0.0.1", loop: 0), "CH")

        let seen = events.withLock { $0 }
        XCTAssertEqual(seen.count, 5, "\(seen)")
        guard seen.count == 5 else { return }
        XCTAssertEqual(seen[0], .loaded(path: path, databaseType: "biqli-Test-Country", buildEpoch: seen[0].epoch))
        XCTAssertTrue(seen[1].isLoaded)
        XCTAssertFalse(seen[2].isLoaded)
        XCTAssertFalse(seen[3].isLoaded)
        XCTAssertTrue(seen[4].isLoaded)
    }

    func testTheWatcherReloadsByItself() throws {
        let path = try makeDatabase("watched.mmdb", ["127.0.0.0/8=DE"])
        let lookup = try GeoIPLookup(path: path, loops: 1, checkIntervalMilliseconds: 20)
        lookup.start()
        defer { lookup.stop() }
        try makeDatabase("watched.mmdb", ["127.0.0.0/8=NL"])
        let deadline = Date().addingTimeInterval(5)
        while lookup.country(of: "127.0.0.1", loop: 0) != "NL" && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(lookup.country(of: "127.0.0.1", loop: 0), "NL")
    }
}

extension GeoIPLookup.Event {
    var isLoaded: Bool {
        if case .loaded = self { return true }
        return false
    }

    var epoch: UInt64 {
        if case .loaded(_, _, let e) = self { return e }
        return 0
    }
}
