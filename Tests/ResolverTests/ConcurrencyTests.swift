import Core
import Dispatch
import Model
import Store
import XCTest

@testable import Resolver

final class ConcurrencyTests: XCTestCase {
    private func resolveConcurrently(_ w: World, _ inputs: [ResolveInput]) -> [Answer] {
        let answers = Locked<[Answer]>([])
        let group = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: inputs.count) { i in
            group.enter()
            w.resolver.resolve(inputs[i]) { output in
                answers.value.append(Answer(output))
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 20), .success)
        return answers.value
    }

    func testFiftyConcurrentIdenticalRequestsMakeExactlyOneOpenEvent() {
        let w = World()
        var r = w.android()
        r.handoffToken = w.addHandoff(platform: .android).token
        let inputs = (0..<50).map { i in r.input(now: w.now, loop: i % 64) }
        let answers = resolveConcurrently(w, inputs)
        XCTAssertEqual(answers.count, 50)
        XCTAssertTrue(answers.allSatisfy { $0.status == 200 && $0.matchedBy == "exact_install_referrer" })
        XCTAssertEqual(Set(answers.compactMap(\.openId)).count, 1, "every answer names the same open")
        // One live answer and 49 replays, every one with the receipt stored with the event.
        XCTAssertNotNil(answers.first?.receipt)
        XCTAssertEqual(Set(answers.map(\.receipt)).count, 1, "the same receipt in every answer")
        XCTAssertEqual(w.openEvents.count, 1)
    }

    func testConcurrentInstancesRacingForOneHandoffLetExactlyOneWin() {
        let w = World()
        let token = w.addHandoff(platform: .ios).token
        let inputs = (0..<20).map { i -> ResolveInput in
            var r = w.ios()
            r.handoffToken = token
            r.sourceAddress = "198.51.100.\(i)"
            return r.input(now: w.now, loop: i)
        }
        let answers = resolveConcurrently(w, inputs)
        XCTAssertEqual(answers.filter { $0.matchedBy == "exact_handoff" }.count, 1)
        XCTAssertEqual(answers.filter { $0.errorCode == "resource_not_found" }.count, 19)
        XCTAssertEqual(w.openEvents.count, 1)
    }

    func testWritesAreBatchedOnTheWriter() {
        let w = World()
        let inputs = (0..<40).map { i in w.android().input(now: w.now, loop: i) }
        _ = resolveConcurrently(w, inputs)
        XCTAssertEqual(w.openEvents.count, 40)
        XCTAssertEqual(w.store.bodiesRun, 41)  // plus the keyring's start-up write
    }
}
