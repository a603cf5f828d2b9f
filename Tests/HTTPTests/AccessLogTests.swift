import Core
import XCTest

@testable import HTTP

final class AccessLogTests: XCTestCase {
    private func line(_ path: Substring, host: String? = "go.example.test", ms: Int64 = 1_764_419_400_007) throws
        -> JSONValue
    {
        var log = AccessLog(enabled: true)
        log.append(
            .init(
                method: "GET", host: host, path: path, status: 302, bytes: 187, microseconds: 41, route: "visit",
                tls: true, loop: 1),
            wallMilliseconds: ms)
        let bytes = log.pending
        XCTAssertEqual(bytes.last, 0x0A)
        XCTAssertEqual(bytes.filter { $0 == 0x0A }.count, 1, "one line per request")
        return try JSONParser.parse(String(decoding: bytes.dropLast(), as: UTF8.self))
    }

    func testALineHoldsEveryFieldAsJSON() throws {
        let v = try line("/invite")
        XCTAssertEqual(v["ts"], .string("2025-11-29T12:30:00.007Z"))
        XCTAssertEqual(v["method"], "GET")
        XCTAssertEqual(v["host"], "go.example.test")
        XCTAssertEqual(v["path"], "/invite")
        XCTAssertEqual(v["status"], 302)
        XCTAssertEqual(v["bytes"], 187)
        XCTAssertEqual(v["us"], 41)
        XCTAssertEqual(v["route"], "visit")
        XCTAssertEqual(v["tls"], true)
        XCTAssertEqual(v["loop"], 1)
        XCTAssertEqual(v["msg"], "request")
    }

    func testMillisecondsArePaddedAndTheSecondFollowsTheClock() throws {
        XCTAssertEqual(try line("/", ms: 1_764_419_400_000)["ts"], "2025-11-29T12:30:00.000Z")
        XCTAssertEqual(try line("/", ms: 1_764_419_400_090)["ts"], "2025-11-29T12:30:00.090Z")
        var log = AccessLog(enabled: true)
        for ms in [Int64(1_764_419_400_999), 1_764_419_401_000, 1_764_419_400_500] {
            log.append(
                .init(
                    method: "GET", host: nil, path: "/", status: 200, bytes: 0, microseconds: 0, route: "r",
                    tls: false, loop: 0),
                wallMilliseconds: ms)
        }
        let stamps = try String(decoding: log.pending, as: UTF8.self).split(separator: "\n").map {
            try JSONParser.parse(String($0))["ts"]
        }
        XCTAssertEqual(
            stamps, ["2025-11-29T12:30:00.999Z", "2025-11-29T12:30:01.000Z", "2025-11-29T12:30:00.500Z"])
    }

    func testPathsAreEscapedAndCutAtAUTF8Boundary() throws {
        XCTAssertEqual(try line(#"/a"b\c"#)["path"], .string(#"/a"b\c"#))
        XCTAssertEqual(try line("/x", host: nil)["host"], "")
        // 511 ASCII bytes then a two-byte "é": cutting at 512 bytes would split it.
        let long = "/" + String(repeating: "a", count: 510) + "é" + "tail"
        let logged = try line(Substring(long))["path"]
        XCTAssertEqual(logged, .string("/" + String(repeating: "a", count: 510)))
        let exact = "/" + String(repeating: "b", count: 511) + "cut"
        XCTAssertEqual(try line(Substring(exact))["path"], .string("/" + String(repeating: "b", count: 511)))
        // A four-byte character straddling the cut goes whole.
        let emoji = "/" + String(repeating: "c", count: 509) + "\u{1F600}"
        XCTAssertEqual(try line(Substring(emoji))["path"], .string("/" + String(repeating: "c", count: 509)))
    }

    func testARedactedPrefixKeepsItselfAndHidesTheRest() throws {
        var log = AccessLog(enabled: true, redactedPrefixes: ["/api/v1/customers/", "/console/customers/"])
        for path in ["/api/v1/customers/alice%40shop.com", "/console/customers/erased_x", "/api/v1/customers/", "/x"] {
            log.append(
                .init(
                    method: "GET", host: nil, path: Substring(path), status: 200, bytes: 0, microseconds: 0,
                    route: "r", tls: false, loop: 0),
                wallMilliseconds: 0)
        }
        let paths = try String(decoding: log.pending, as: UTF8.self).split(separator: "\n").map {
            try JSONParser.parse(String($0))["path"]
        }
        XCTAssertEqual(
            paths, ["/api/v1/customers/{redacted}", "/console/customers/{redacted}", "/api/v1/customers/", "/x"])
    }

    func testADisabledLogKeepsNothing() {
        var log = AccessLog(enabled: false)
        log.append(
            .init(
                method: "GET", host: nil, path: "/", status: 200, bytes: 0, microseconds: 0, route: "r", tls: false,
                loop: 0),
            wallMilliseconds: 0)
        XCTAssertTrue(log.pending.isEmpty)
    }
}

final class AccessLogNodeTests: XCTestCase {
    func testEveryLineNamesTheNodeRightAfterTheMessage() throws {
        var log = AccessLog(enabled: true, node: "edge-a.eu")
        log.append(
            .init(
                method: "GET", host: "go.example.test", path: "/invite", status: 302, bytes: 0, microseconds: 1,
                route: "visit", tls: false, loop: 0),
            wallMilliseconds: 1_764_419_400_007)
        let text = String(decoding: log.pending.dropLast(), as: UTF8.self)
        XCTAssertTrue(text.contains(#""msg":"request","node":"edge-a.eu","method":"GET""#), text)
        XCTAssertEqual(try JSONParser.parse(text)["node"], "edge-a.eu")
    }
}
