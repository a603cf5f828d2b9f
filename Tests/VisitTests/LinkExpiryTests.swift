import Model
import XCTest

@testable import Visit

/// Expiry at the instant (decision 0032).
final class LinkExpiryTests: XCTestCase {
    func testALinkExpiresAtTheInstant() {
        let options = LinkOptions(expiresAt: 1_800_000_000_000)
        XCTAssertFalse(LinkExpiry.isExpired(options, now: 1_800_000_000_000 - 1))
        XCTAssertTrue(LinkExpiry.isExpired(options, now: 1_800_000_000_000))
        XCTAssertTrue(LinkExpiry.isExpired(options, now: 1_800_000_000_001))
        XCTAssertFalse(LinkExpiry.isExpired(LinkOptions(utm: UTMParameters(source: "s")), now: .max))
    }
}
