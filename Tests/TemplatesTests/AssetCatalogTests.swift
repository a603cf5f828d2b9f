import XCTest

@testable import Templates

final class AssetCatalogTests: XCTestCase {
    func testURLsAreContentHashedUnderThePrefix() throws {
        for name in ["deepview.js", "biqli.css", "app-icon.svg"] {
            let url = try XCTUnwrap(AssetCatalog.url(for: name), name)
            let asset = try XCTUnwrap(AssetCatalog.all.first { $0.name == name })
            XCTAssertTrue(url.hasPrefix("/_biqli/assets/"), url)
            XCTAssertEqual(asset.hash.count, 12)
            XCTAssertTrue(asset.hash.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            let stem = name.split(separator: ".")[0]
            let ext = name.split(separator: ".")[1]
            XCTAssertEqual(url, "/_biqli/assets/\(stem).\(asset.hash).\(ext)")
        }
        XCTAssertNil(AssetCatalog.url(for: "missing.js"))
    }

    func testLookupMatchesOnlyExactHashedNames() throws {
        let js = try XCTUnwrap(AssetCatalog.url(for: "deepview.js"))
        let name = String(js.dropFirst(AssetCatalog.prefix.count))
        XCTAssertEqual(AssetCatalog.lookup(path: name)?.name, "deepview.js")
        XCTAssertEqual(AssetCatalog.lookup(requestPath: js)?.name, "deepview.js")
        let misses = [
            "deepview.js", "", "/", name.uppercased(), "/" + name, name + "?v=1", name + "/", "./" + name,
            "../" + name, "..%2f" + name, "x/../" + name, "deepview.000000000000.js", "%64eepview" + name.dropFirst(8),
            "../../etc/passwd", "..\\" + name, name + "\0",
        ]
        for path in misses {
            XCTAssertNil(AssetCatalog.lookup(path: path), path)
        }
        XCTAssertNil(AssetCatalog.lookup(requestPath: "/_biqli/assets/../" + name))
        XCTAssertNil(AssetCatalog.lookup(requestPath: "/other/" + name))
    }

    func testResponsesAreImmutableWithCorrectTypes() throws {
        let types = [
            "deepview.js": "text/javascript; charset=utf-8", "biqli.css": "text/css; charset=utf-8",
            "inapp.css": "text/css; charset=utf-8",
            "app-icon.svg": "image/svg+xml", "analytics-v1.js": "text/javascript; charset=utf-8",
            "analytics-v2.js": "text/javascript; charset=utf-8", "analytics-v3.js": "text/javascript; charset=utf-8",
        ]
        for asset in AssetCatalog.all {
            let page = try XCTUnwrap(AssetCatalog.response(path: asset.hashedName, acceptEncoding: nil))
            XCTAssertEqual(page.status, 200)
            XCTAssertEqual(page.header("Content-Type"), types[asset.name], asset.name)
            XCTAssertEqual(page.header("Cache-Control"), "public, max-age=31536000, immutable")
            XCTAssertEqual(page.header("X-Content-Type-Options"), "nosniff")
            XCTAssertNil(page.header("Content-Encoding"))
            XCTAssertEqual(page.body, asset.bytes)
        }
        XCTAssertNil(AssetCatalog.response(path: "deepview.js", acceptEncoding: "gzip"))
    }

    func testGzipIsPresentForTextAssetsAndServedOnlyWhenAccepted() throws {
        for name in ["deepview.js", "biqli.css"] {
            let asset = try XCTUnwrap(AssetCatalog.all.first { $0.name == name })
            let gzip = try XCTUnwrap(asset.gzip, name)
            XCTAssertLessThan(gzip.count, asset.bytes.count)
            let zipped = try XCTUnwrap(
                AssetCatalog.response(path: asset.hashedName, acceptEncoding: "gzip, deflate, br"))
            XCTAssertEqual(zipped.header("Content-Encoding"), "gzip")
            XCTAssertEqual(zipped.header("Vary"), "Accept-Encoding")
            XCTAssertEqual(zipped.body, gzip)
            for refused in [nil, "", "identity", "br", "gzip;q=0", "gzip;q=0.000, *", "deflate"] {
                let plain = try XCTUnwrap(AssetCatalog.response(path: asset.hashedName, acceptEncoding: refused))
                XCTAssertNil(plain.header("Content-Encoding"), refused ?? "nil")
                XCTAssertEqual(plain.header("Vary"), "Accept-Encoding")
                XCTAssertEqual(plain.body, asset.bytes)
            }
            for accepted in ["GZIP", "x-gzip", "*", "br;q=1, gzip;q=0.5", " gzip ; q=0.001"] {
                let page = try XCTUnwrap(AssetCatalog.response(path: asset.hashedName, acceptEncoding: accepted))
                XCTAssertEqual(page.header("Content-Encoding"), "gzip", accepted)
            }
        }
    }

    func testScriptStaysSmall() throws {
        let script = try XCTUnwrap(AssetCatalog.all.first { $0.name == "deepview.js" })
        XCTAssertLessThan(script.bytes.count, 6 * 1024)
    }
}
