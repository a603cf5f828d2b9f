import XCTest

@testable import Edge

/// Issue 34 item 4: the edge's services start in the order of their needs and stop in
/// reverse, through fake services that write down what happens to them.
final class EdgeLifecycleTests: XCTestCase {
    private var events: [String] = []

    private func fake(_ name: String, needs: [String] = [], failing: Bool = false) -> EdgeService {
        EdgeService(
            name, needs: needs,
            start: { [unowned self] () throws(EdgeStartError) in
                events.append("start " + name)
                if failing { throw .io(name + " cannot start") }
            },
            beginStopping: { [unowned self] in events.append("begin stopping " + name) },
            stop: { [unowned self] in events.append("stop " + name) })
    }

    func testServicesStartAfterWhatTheyNeedAndStopInReverse() throws {
        // Listed in no useful order: the needs alone give it.
        let lifecycle = try EdgeLifecycle([
            fake("acme", needs: ["server", "store"]),
            fake("server", needs: ["store", "webhooks", "console"]),
            fake("webhooks", needs: ["store"]),
            fake("console", needs: ["store"]),
            fake("store"),
        ])
        XCTAssertEqual(lifecycle.order, ["store", "webhooks", "console", "server", "acme"])
        try lifecycle.start()
        XCTAssertEqual(events, ["start store", "start webhooks", "start console", "start server", "start acme"])
        events = []
        lifecycle.stop()
        // Every service is told first (the server stops accepting without waiting for the
        // certificate manager), then each stops, the store last.
        XCTAssertEqual(
            events,
            [
                "begin stopping acme", "begin stopping server", "begin stopping console", "begin stopping webhooks",
                "begin stopping store", "stop acme", "stop server", "stop console", "stop webhooks", "stop store",
            ])
    }

    func testServicesThatNeedNothingOfEachOtherKeepTheirListedOrder() throws {
        let lifecycle = try EdgeLifecycle([fake("b"), fake("a"), fake("c", needs: ["d"]), fake("d")])
        XCTAssertEqual(lifecycle.order, ["b", "a", "d", "c"])
    }

    func testAFailedStartStopsWhatHadStartedInReverseAndStartsNothingAfter() throws {
        let lifecycle = try EdgeLifecycle([
            fake("store"), fake("webhooks", needs: ["store"]), fake("server", needs: ["webhooks"], failing: true),
            fake("acme", needs: ["server"]),
        ])
        XCTAssertThrowsError(try lifecycle.start()) { error in
            XCTAssertEqual("\(error)", "server cannot start")
        }
        XCTAssertEqual(
            events,
            [
                "start store", "start webhooks", "start server", "begin stopping webhooks", "begin stopping store",
                "stop webhooks", "stop store",
            ])
        events = []
        lifecycle.stop()
        XCTAssertEqual(events, [], "nothing left to stop")
    }

    func testStopStopsOnceAndNothingBeforeAStart() throws {
        let lifecycle = try EdgeLifecycle([fake("store"), fake("server", needs: ["store"])])
        lifecycle.stop()
        XCTAssertEqual(events, [])
        try lifecycle.start()
        lifecycle.stop()
        events = []
        lifecycle.stop()
        XCTAssertEqual(events, [])
    }

    func testANeedOfNoServiceATwiceUsedNameOrACycleIsRefusedBeforeAnythingStarts() {
        func problem(_ services: [EdgeService]) -> EdgeLifecycle.Problem? {
            do {
                _ = try EdgeLifecycle(services)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(
            problem([fake("store"), fake("server", needs: ["stor"])]), .unknownNeed(service: "server", need: "stor"))
        XCTAssertEqual(problem([fake("store"), fake("store")]), .duplicate("store"))
        XCTAssertEqual(
            problem([fake("store"), fake("a", needs: ["b", "store"]), fake("b", needs: ["a"])]), .cycle(["a", "b"]))
        XCTAssertEqual(problem([fake("a", needs: ["a"])]), .cycle(["a"]))
        XCTAssertEqual(events, [])
    }
}
