import Model
import XCTest

@testable import Visit

/// The URL each target of a plan names.
final class VisitTargetTests: XCTestCase {
    typealias F = VisitPlanFixtures

    private func location(_ target: VisitTarget, _ app: MobileApp?) -> String {
        target.location(webURL: F.webURL, app: app)
    }

    func testWebIsTheLinksURL() {
        XCTAssertEqual(location(.web, F.app()), F.webURL)
        XCTAssertEqual(location(.web, nil), F.webURL)
    }

    func testIOSFallbackIsTheFallbackURL() {
        XCTAssertEqual(location(.iosFallback, F.app()), F.fallbackURL)
    }

    func testIOSStoreIsTheAppStoreElseTestFlight() {
        XCTAssertEqual(location(.iosStore, F.app()), "https://apps.apple.com/app/id1234567890")
        let flight = F.app(ios: F.ios(appStoreId: nil, testFlightUrl: F.testFlightURL))
        XCTAssertEqual(location(.iosStore, flight), F.testFlightURL)
    }

    func testPlayStoreIsTheOperatorsURLAsWritten() {
        let url = "https://play.google.com/store/apps/details?id=com.example.app&hl=de&referrer=utm_source%3Dx"
        XCTAssertEqual(location(.playStore, F.app(android: F.android(playStoreUrl: url))), url)
    }

    func testPlayStoreDefaultsToThePackagesPageWithoutAToken() {
        XCTAssertEqual(
            location(.playStore, F.app()), "https://play.google.com/store/apps/details?id=com.example.app")
    }

    func testATargetThatDoesNotExistFallsBackToTheWebURL() {
        XCTAssertEqual(location(.iosFallback, F.app(ios: F.ios(fallbackUrl: nil))), F.webURL)
        XCTAssertEqual(location(.iosStore, F.app(ios: F.ios(appStoreId: nil))), F.webURL)
        for target in [VisitTarget.iosFallback, .iosStore, .playStore] {
            XCTAssertEqual(location(target, F.app(ios: nil, android: nil)), F.webURL, "\(target)")
            XCTAssertEqual(location(target, nil), F.webURL, "\(target)")
        }
    }
}
