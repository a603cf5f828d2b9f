import Foundation
import XCTest

@testable import Edge

/// The backup file's format: tar headers that GNU tar reads (and that this reads back,
/// checksum checked, sizes past ustar's octal field in base-256), and the manifest.
final class BackupArchiveTests: XCTestCase {
    func testAHeaderReadsBackAndItsChecksumIsChecked() throws {
        let entry = TarArchive.Entry(path: "secrets/source-address.key", size: 32, mode: 0o600, mtime: 1_700_000_000)
        var header = try XCTUnwrap(TarArchive.header(entry))
        XCTAssertEqual(header.count, 512)
        XCTAssertEqual(Array(header[257..<262]), Array("ustar".utf8))
        let parsed = try XCTUnwrap(try TarArchive.parse(header))
        XCTAssertEqual(parsed.path, entry.path)
        XCTAssertEqual(parsed.size, 32)
        XCTAssertEqual(parsed.mode, 0o600)
        XCTAssertEqual(parsed.mtime, 1_700_000_000)
        header[0] ^= 0x01  // one bit of the name
        XCTAssertThrowsError(try TarArchive.parse(header))
    }

    func testSizesPastEightGiBUseBase256AndAnEmptyBlockEndsTheArchive() throws {
        let big: Int64 = 12 * 1024 * 1024 * 1024 + 7
        let header = try XCTUnwrap(TarArchive.header(.init(path: "edge.sqlite3", size: big, mode: 0o600, mtime: 0)))
        XCTAssertEqual(header[124], 0x80)
        XCTAssertEqual(try TarArchive.parse(header)?.size, big)
        XCTAssertNil(try TarArchive.parse([UInt8](repeating: 0, count: 512)))
        XCTAssertEqual(TarArchive.padding(after: 512), 0)
        XCTAssertEqual(TarArchive.padding(after: 513), 511)
    }

    func testPathsTooLongOrLeavingTheDataDirectoryAreRefused() {
        XCTAssertNil(TarArchive.header(.init(path: String(repeating: "a", count: 101), size: 0, mode: 0o600, mtime: 0)))
        for bad in ["../etc/passwd", "/etc/passwd", "secrets/../../x", "a//b", "", "certs/.", "x y"] {
            XCTAssertFalse(DataDirectoryRestore.safe(bad), bad)
        }
        for good in [
            "edge.sqlite3", "secrets/source-address.key", "certs/*.example.com.pem", "certs/go.example.com.pem",
        ] {
            XCTAssertTrue(DataDirectoryRestore.safe(good), good)
        }
    }

    func testTheManifestRoundTripsAndANewerFormatIsRefused() throws {
        let manifest = BackupManifest(
            edgeVersion: "0.2.0-dev", schemaVersion: 7, createdAt: 1_700_000_000_123, node: "edge-1",
            files: [.init(path: "edge.sqlite3", bytes: 4096, sha256: String(repeating: "ab", count: 32))])
        XCTAssertEqual(try BackupManifest(parsing: manifest.json), manifest)
        let newer = String(decoding: manifest.json, as: UTF8.self).replacingOccurrences(
            of: "\"formatVersion\": 1", with: "\"formatVersion\": 2")
        XCTAssertThrowsError(try BackupManifest(parsing: Array(newer.utf8)))
        XCTAssertThrowsError(try BackupManifest(parsing: Array("{\"format\": \"other\"}".utf8)))
    }
}
