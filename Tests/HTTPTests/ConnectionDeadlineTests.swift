import XCTest

@testable import HTTP

final class ConnectionDeadlineTests: XCTestCase {
    let timeouts = HTTPTimeouts(
        headMilliseconds: 10_000, idleMilliseconds: 60_000, bodyMilliseconds: 30_000, writeMilliseconds: 20_000,
        handshakeMilliseconds: 5_000, lingerMilliseconds: 2_000)

    func testTricklingHeadDoesNotExtendItsDeadline() {
        var d = ConnectionDeadline(timeouts: timeouts, phase: .idle, now: 0)
        d.enter(.head, now: 1_000)
        XCTAssertEqual(d.expiresAt, 11_000)
        // More bytes of the same head keep the clock that started at the first byte.
        d.enter(.head, now: 5_000)
        d.enter(.head, now: 10_999)
        XCTAssertEqual(d.expiresAt, 11_000)
        XCTAssertFalse(d.isExpired(now: 10_999))
        XCTAssertTrue(d.isExpired(now: 11_000))
    }

    func testEachRequestRestartsTheIdleClock() {
        var d = ConnectionDeadline(timeouts: timeouts, phase: .idle, now: 0)
        d.enter(.processing, now: 50_000)
        XCTAssertNil(d.expiresAt)
        XCTAssertFalse(d.isExpired(now: .max))
        d.enter(.idle, now: 50_001)
        XCTAssertEqual(d.expiresAt, 110_001)
    }

    func testBodyHasItsOwnDeadlineFromTheHead() {
        var d = ConnectionDeadline(timeouts: timeouts, phase: .head, now: 0)
        d.enter(.body, now: 2_000)
        XCTAssertEqual(d.expiresAt, 32_000)
    }

    func testWritingMeasuresInactivityAndProgressRestartsIt() {
        var d = ConnectionDeadline(timeouts: timeouts, phase: .processing, now: 0)
        d.enter(.writing, now: 1_000)
        XCTAssertEqual(d.expiresAt, 21_000)
        d.progress(now: 15_000)
        XCTAssertEqual(d.expiresAt, 35_000)
        // Progress means nothing in phases that count from a start.
        d.enter(.head, now: 16_000)
        d.progress(now: 20_000)
        XCTAssertEqual(d.expiresAt, 26_000)
    }

    func testAPROXYHeaderAndThenTheFirstHeadShareTheHeadDeadlineFromAccept() {
        var d = ConnectionDeadline(timeouts: timeouts, phase: .proxyHeader, now: 1_000)
        XCTAssertEqual(d.expiresAt, 11_000)
        // Plain listener: the header came; the first request's head still counts from accept.
        d.enter(.head, now: 4_000)
        XCTAssertEqual(d.expiresAt, 11_000)
        var tls = ConnectionDeadline(timeouts: timeouts, phase: .proxyHeader, now: 1_000)
        tls.enter(.handshake, now: 2_000)
        XCTAssertEqual(tls.expiresAt, 7_000, "the handshake has its own time once the header is in")
    }

    func testASilentConnectionHasTheHeadDeadlineFromAccept() {
        var d = ConnectionDeadline(timeouts: timeouts, phase: .awaitingFirstRequest, now: 1_000)
        XCTAssertEqual(d.expiresAt, 11_000, "the head time, not the 60 s idle time")
        // Its first bytes do not restart the clock: the first head counts from accept.
        d.enter(.head, now: 9_000)
        XCTAssertEqual(d.expiresAt, 11_000)
        // Later heads count from their own first byte.
        d.enter(.processing, now: 9_500)
        d.enter(.idle, now: 9_600)
        d.enter(.head, now: 20_000)
        XCTAssertEqual(d.expiresAt, 30_000)
    }

    func testATLSConnectionWaitsForItsFirstRequestUntilTheHeadDeadlineFromAccept() {
        var d = ConnectionDeadline(timeouts: timeouts, phase: .handshake, now: 0)
        d.enter(.awaitingFirstRequest, now: 3_000)
        XCTAssertEqual(d.expiresAt, 10_000)
        XCTAssertEqual(d.since, 3_000)
    }

    func testHandshakeAndLingerDeadlines() {
        let d = ConnectionDeadline(timeouts: timeouts, phase: .handshake, now: 100)
        XCTAssertEqual(d.expiresAt, 5_100)
        var l = d
        l.enter(.lingering, now: 200)
        XCTAssertEqual(l.expiresAt, 2_200)
    }
}

final class TimerWheelTests: XCTestCase {
    func testEntriesComeDueInTheirSlotAndNotBefore() {
        var wheel = TimerWheel(slotMilliseconds: 100, slotCount: 16, now: 0)
        wheel.schedule(.init(fd: 1, generation: 1, deadline: 250))
        wheel.schedule(.init(fd: 2, generation: 1, deadline: 900))
        XCTAssertEqual(wheel.advance(now: 199), [])
        XCTAssertEqual(wheel.advance(now: 299).map(\.fd), [1])
        XCTAssertEqual(wheel.advance(now: 850), [])
        XCTAssertEqual(wheel.advance(now: 901).map(\.fd), [2])
        XCTAssertEqual(wheel.count, 0)
    }

    func testDeadlinesBeyondOneRevolutionWaitForTheirTurn() {
        var wheel = TimerWheel(slotMilliseconds: 100, slotCount: 8, now: 0)
        wheel.schedule(.init(fd: 7, generation: 3, deadline: 2_050))  // 2.5 revolutions ahead
        XCTAssertEqual(wheel.advance(now: 900), [])
        XCTAssertEqual(wheel.advance(now: 1_700), [])
        XCTAssertEqual(wheel.advance(now: 2_100).map(\.fd), [7])
    }

    func testPastDeadlinesFireOnTheNextAdvance() {
        var wheel = TimerWheel(slotMilliseconds: 100, slotCount: 8, now: 1_000)
        wheel.schedule(.init(fd: 3, generation: 1, deadline: 10))
        XCTAssertEqual(wheel.advance(now: 1_100).map(\.fd), [3])
    }

    func testALongSleepCollectsEverythingDue() {
        var wheel = TimerWheel(slotMilliseconds: 100, slotCount: 8, now: 0)
        for i in 0..<20 { wheel.schedule(.init(fd: Int32(i), generation: 1, deadline: UInt64(100 + i * 100))) }
        let due = wheel.advance(now: 10_000)
        XCTAssertEqual(Set(due.map(\.fd)), Set(0..<20))
    }
}
