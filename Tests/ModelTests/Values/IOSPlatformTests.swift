import XCTest

@testable import Model

final class IOSPlatformTests: XCTestCase {
    private func ios(appStoreId: String? = nil, testFlightUrl: String? = nil) -> IOSPlatform {
        IOSPlatform(
            teamId: "ABCDE12345", bundleId: "com.example.app", appStoreId: appStoreId, testFlightUrl: testFlightUrl)
    }

    func testStoreURLIsTheAppStoreWhenAnIdExistsElseTestFlight() {
        let flight = "https://testflight.apple.com/join/ABCDEF"
        XCTAssertEqual(ios(appStoreId: "123").storeUrl, "https://apps.apple.com/app/id123")
        XCTAssertEqual(ios(appStoreId: "123", testFlightUrl: flight).storeUrl, "https://apps.apple.com/app/id123")
        XCTAssertEqual(ios(appStoreId: "", testFlightUrl: flight).storeUrl, flight)
        XCTAssertEqual(ios(testFlightUrl: flight).storeUrl, flight)
        XCTAssertNil(ios(appStoreId: "").storeUrl)
        XCTAssertNil(ios().storeUrl)
    }

    func testHasStoreURLAnswersWhetherThereIsOne() {
        let flight = "https://testflight.apple.com/join/ABCDEF"
        for (id, testFlight) in [
            ("123", nil), ("123", flight), ("", flight), (nil, flight), ("", nil), (nil, nil),
        ] as [(String?, String?)] {
            let platform = ios(appStoreId: id, testFlightUrl: testFlight)
            XCTAssertEqual(
                platform.hasStoreUrl, platform.storeUrl != nil,
                "\(String(describing: id)) \(String(describing: testFlight))")
        }
        XCTAssertFalse(ios(appStoreId: "").hasStoreUrl)
        XCTAssertTrue(ios(appStoreId: "1").hasStoreUrl)
    }
}
