import Core
import Foundation
import XCTest

@testable import Templates

/// Fails while `Sources/Templates/Assets/EmbeddedAssets.swift` does not match `public/`:
/// run `scripts/gen-assets` after editing anything there.
final class EmbeddedAssetsFreshnessTests: XCTestCase {
    static let publicDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("public")

    func testEmbeddedAssetsMatchPublicFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.publicDirectory.path)
            .filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertEqual(
            AssetCatalog.all.map(\.name).sorted(), names, "public/ changed: run scripts/gen-assets")
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: Self.publicDirectory.appendingPathComponent(name)))
            let asset = try XCTUnwrap(AssetCatalog.all.first { $0.name == name }, "run scripts/gen-assets")
            XCTAssertEqual(asset.bytes, bytes, "\(name) is stale: run scripts/gen-assets")
            XCTAssertEqual(asset.hash, String(SHA256.hex(SHA256.hash(bytes)).prefix(12)), name)
        }
    }

    func testGzipBytesAreAValidEncodingOfTheFile() throws {
        for asset in AssetCatalog.all {
            guard let gzip = asset.gzip else { continue }
            // RFC 1952: magic, deflate, and a trailer with the CRC-32 and length of the original.
            XCTAssertEqual(Array(gzip.prefix(3)), [0x1F, 0x8B, 0x08], asset.name)
            let trailer = Array(gzip.suffix(8))
            let crc = trailer[0..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let size = trailer[4..<8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            XCTAssertEqual(crc, Self.crc32(asset.bytes), asset.name)
            XCTAssertEqual(size, UInt32(asset.bytes.count), asset.name)
            // mtime = 0, so the generator's output is deterministic.
            XCTAssertEqual(Array(gzip[4..<8]), [0, 0, 0, 0], asset.name)
        }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
