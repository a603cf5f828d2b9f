import Model
import XCTest

@testable import Visit

/// The device a link's `devices` rules see (decision 0032): iPads and Android UAs without
/// `Mobile` are tablets, other iOS and Android UAs phones, everything else a desktop.
final class VisitorDeviceTests: XCTestCase {
    func testIPhonesAndAndroidPhonesArePhones() {
        let phones = [
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1",
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Pro) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.6312.99 Mobile Safari/537.36",
            "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0",
        ]
        for ua in phones { XCTAssertEqual(VisitorClassifier.classify(userAgent: ua).device, .phone, ua) }
    }

    func testIPadsAndAndroidWithoutMobileAreTablets() {
        let tablets = [
            "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
            "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36",
            "Mozilla/5.0 (Android 14; Tablet; rv:125.0) Gecko/125.0 Firefox/125.0",
        ]
        for ua in tablets { XCTAssertEqual(VisitorClassifier.classify(userAgent: ua).device, .tablet, ua) }
    }

    func testDesktopsBotsAndHeadAreDesktops() {
        let mac =
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15"
        XCTAssertEqual(VisitorClassifier.classify(userAgent: mac).device, .desktop)
        XCTAssertEqual(VisitorClassifier.classify(userAgent: "Slackbot-LinkExpanding 1.0").device, .desktop)
        XCTAssertEqual(VisitorClassifier.classify(method: "HEAD", userAgent: mac).device, .desktop)
    }

    func testTheCacheKeepsTheDevice() {
        let ipad =
            "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
        var cache = VisitorCache()
        XCTAssertEqual(cache.classify(method: "GET", userAgent: ipad).device, .tablet)
        XCTAssertEqual(cache.classify(method: "GET", userAgent: ipad).device, .tablet)
        XCTAssertEqual(cache.count, 1)
    }

    func testRulePlatforms() {
        XCTAssertEqual(Visitor(kind: .ios(osVersion: nil)).rulePlatform, .ios)
        XCTAssertEqual(Visitor(kind: .android).rulePlatform, .android)
        XCTAssertEqual(Visitor(kind: .desktop).rulePlatform, .desktop)
        XCTAssertNil(Visitor(kind: .head).rulePlatform)
        XCTAssertNil(Visitor(kind: .bot("x")).rulePlatform)
    }
}
