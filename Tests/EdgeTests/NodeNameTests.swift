import Core
import Store
import XCTest

@testable import Edge

#if canImport(Glibc)
import Glibc
#endif

/// `BIQLI_EDGE_NODE`: its rules, its default, and where the name shows (logs, metrics).
final class NodeNameTests: XCTestCase {
    func testANameIsOneTo64LettersDigitsDotsUnderscoresOrHyphens() {
        for good in ["a", "edge-1.eu_west", String(repeating: "x", count: 64), "EDGE.2"] {
            XCTAssertTrue(NodeName.isValid(good), good)
        }
        for bad in ["", String(repeating: "x", count: 65), "a b", "a\"b", "é", "a\nb", "a/b", "a{b}"] {
            XCTAssertFalse(NodeName.isValid(bad), bad)
        }
    }

    func testTheDefaultIsTheHostNameMadeValid() {
        var buffer = [CChar](repeating: 0, count: 256)
        XCTAssertEqual(gethostname(&buffer, 255), 0)
        let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        XCTAssertEqual(NodeName.hostDefault(), NodeName.sanitized(host))
        XCTAssertTrue(NodeName.isValid(NodeName.hostDefault()))
        XCTAssertEqual(NodeName.sanitized("web 1/eu"), "web-1-eu")
        XCTAssertEqual(NodeName.sanitized(""), "edge")
        XCTAssertEqual(NodeName.sanitized(String(repeating: "h", count: 80)).count, 64)
    }

    func testTheSettingIsReadFromTheEnvironmentAndABadOneNamesIt() throws {
        XCTAssertEqual(try EdgeConfiguration.load(file: nil, environment: [:]).node, NodeName.hostDefault())
        XCTAssertEqual(try EdgeConfiguration.load(file: nil, environment: ["BIQLI_EDGE_NODE": "edge-b"]).node, "edge-b")
        XCTAssertThrowsError(try EdgeConfiguration.load(file: nil, environment: ["BIQLI_EDGE_NODE": "no spaces"])) {
            error in
            XCTAssertTrue("\(error)".hasPrefix("BIQLI_EDGE_NODE="), "\(error)")
        }
        XCTAssertEqual(EdgeConfiguration.settings.first { $0.variable == "BIQLI_EDGE_NODE" }?.fileKey, "node")
    }

    func testTheTestMigrationHookIsOffUnlessSetAndRefusesOtherValues() throws {
        let variable = EdgeConfiguration.testMigrationVariable
        XCTAssertNil(try EdgeConfiguration.load(file: nil, environment: [:]).testMigration)
        XCTAssertEqual(try EdgeConfiguration.load(file: nil, environment: [variable: "1"]).testMigration, .additive)
        XCTAssertEqual(
            try EdgeConfiguration.load(file: nil, environment: [variable: "breaking"]).testMigration, .breaking)
        XCTAssertThrowsError(try EdgeConfiguration.load(file: nil, environment: [variable: "yes"]))
        XCTAssertFalse(EdgeConfiguration.settings.contains { $0.variable == variable }, "not in --help")
    }

    func testTheTestClockSettingIsOffUnlessSetAndBoundedTo366Days() throws {
        let variable = EdgeConfiguration.testClockBackVariable
        let year: Int64 = 366 * 86_400_000
        XCTAssertNil(try EdgeConfiguration.load(file: nil, environment: [:]).testClockBackMilliseconds)
        XCTAssertNil(try EdgeConfiguration.load(file: nil, environment: [variable: ""]).testClockBackMilliseconds)
        XCTAssertEqual(
            try EdgeConfiguration.load(file: nil, environment: [variable: "\(year)"]).testClockBackMilliseconds, year)
        for bad in ["\(year + 1)", "-1", "1d"] {
            XCTAssertThrowsError(try EdgeConfiguration.load(file: nil, environment: [variable: bad]), bad) { error in
                XCTAssertTrue("\(error)".hasPrefix(variable + "="), "\(error)")
            }
        }
        XCTAssertFalse(EdgeConfiguration.settings.contains { $0.variable == variable }, "not in --help")
    }

    func testEveryLogLineNamesTheNodeAfterItsMessage() throws {
        let sink = CapturingLogSink()
        let log = Log(level: .info, node: "edge-a", sink: sink)
        log.info("listening", [("http", .string("127.0.0.1:8080"))])
        log.error("store failed")
        XCTAssertEqual(sink.lines.map { $0?["node"] }, [.string("edge-a"), .string("edge-a")])
        XCTAssertEqual(sink.lines.first??.objectValue?.map(\.0), ["ts", "level", "msg", "node", "http"])
    }

    func testMetricsCarryTheNodeInfoSeries() {
        let text = OperationsRoutes.nodeText(node: "edge-a", backend: "postgresql")
        XCTAssertTrue(text.contains("# TYPE biqli_node_info gauge\n"), text)
        XCTAssertTrue(
            text.hasSuffix(
                "biqli_node_info{node=\"edge-a\",version=\"\(EdgeCommand.version)\",backend=\"postgresql\"} 1\n"),
            text)
    }
}
