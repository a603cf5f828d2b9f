import Core
import XCTest

@testable import Edge

final class LogTests: XCTestCase {
    func testEachLineIsOneJSONObjectWithTimeLevelMessageAndFieldsInOrder() throws {
        let sink = CapturingLogSink()
        let log = Log(level: .info, sink: sink)
        log.info("listening", [("http", .string("127.0.0.1:8080")), ("loops", .int(2))])
        log.error("store failed")
        let lines = sink.lines
        XCTAssertEqual(lines.count, 2)
        let first = try XCTUnwrap(lines[0])
        XCTAssertEqual(first.objectValue?.map(\.0), ["ts", "level", "msg", "http", "loops"])
        XCTAssertEqual(first["level"], .string("info"))
        XCTAssertEqual(first["msg"], .string("listening"))
        XCTAssertEqual(first["loops"], .int(2))
        XCTAssertNotNil(Timestamp.parse(first["ts"]?.stringValue ?? ""), "ts is an RFC 3339 time")
        XCTAssertEqual(lines[1]?["level"], .string("error"))
        XCTAssertEqual(sink.rawLines.map { $0.filter { $0 == 0x0A }.count }, [1, 1], "one newline, at the end")
    }

    func testLinesBelowTheLevelAreNotWritten() {
        let sink = CapturingLogSink()
        let log = Log(level: .warn, sink: sink)
        log.debug("d")
        log.info("i")
        log.warn("w")
        log.error("e")
        XCTAssertEqual(sink.lines.map { $0?["msg"]?.stringValue }, ["w", "e"])
    }

    func testAThrottledMessageReachesTheLogOnceAsAnError() {
        let sink = CapturingLogSink()
        let throttle = LogThrottle("click write failed", log: Log(level: .info, sink: sink))
        for _ in 0..<3 { throttle.write { [("detail", .string("disk full"))] } }
        let lines = sink.lines
        XCTAssertEqual(lines.count, 1, "the others fall within the interval")
        XCTAssertEqual(lines.first??["level"], .string("error"))
        XCTAssertEqual(lines.first??["msg"], .string("click write failed"))
        XCTAssertEqual(lines.first??["detail"], .string("disk full"))
    }
}
