import Model
import XCTest

@testable import Visit

final class VisitorClassifierTests: XCTestCase {
    func testCorpusHasAtLeastFortyRealUserAgentsCoveringEveryGroup() {
        XCTAssertGreaterThanOrEqual(UserAgentCorpus.entries.count, 40)
        XCTAssertGreaterThanOrEqual(UserAgentCorpus.bots.count, 15)
        XCTAssertGreaterThanOrEqual(UserAgentCorpus.inAppIOS.count + UserAgentCorpus.inAppAndroid.count, 14)
    }

    func testCorpusClassesInAppTagsAndVersions() {
        for entry in UserAgentCorpus.entries {
            let visitor = VisitorClassifier.classify(method: "GET", userAgent: entry.userAgent)
            XCTAssertEqual(visitor.kind, entry.kind, entry.label)
            XCTAssertEqual(visitor.inAppBrowser, entry.inApp, entry.label)
        }
    }

    func testInAppTagDoesNotDependOnClassification() {
        for entry in UserAgentCorpus.entries where entry.inApp != nil && entry.inApp != "webview" {
            XCTAssertEqual(VisitorClassifier.inAppBrowser(userAgent: entry.userAgent), entry.inApp, entry.label)
        }
    }

    func testHeadIsNeverAClickWhateverTheUserAgent() {
        for entry in UserAgentCorpus.entries {
            let visitor = VisitorClassifier.classify(method: "HEAD", userAgent: entry.userAgent)
            XCTAssertEqual(visitor, Visitor(kind: .head), entry.label)
            XCTAssertFalse(visitor.recordsClick)
            XCTAssertNil(visitor.platform)
        }
        // Methods are case-sensitive: "head" is not HEAD.
        XCTAssertEqual(
            VisitorClassifier.classify(method: "head", userAgent: UserAgentCorpus.desktop[0].userAgent).kind, .desktop)
    }

    func testMissingOrBlankUserAgentIsABot() {
        XCTAssertEqual(VisitorClassifier.classify(method: "GET", userAgent: nil).kind, .bot("empty"))
        XCTAssertEqual(VisitorClassifier.classify(method: "GET", userAgent: "").kind, .bot("empty"))
        XCTAssertEqual(VisitorClassifier.classify(method: "GET", userAgent: "  \t ").kind, .bot("empty"))
    }

    func testBotTokensWinOverPlatformTokens() {
        // iMessage poses as a Mac; Googlebot smartphone as Android.
        for entry in UserAgentCorpus.bots {
            let visitor = VisitorClassifier.classify(userAgent: entry.userAgent)
            XCTAssertFalse(visitor.recordsClick, entry.label)
            XCTAssertEqual(visitor.platform, .bot, entry.label)
            XCTAssertNil(visitor.inAppBrowser, entry.label)
        }
    }

    func testMatchingIgnoresCase() {
        XCTAssertEqual(VisitorClassifier.classify(userAgent: "CURL/8.0").kind, .bot("curl"))
        XCTAssertEqual(
            VisitorClassifier.classify(userAgent: "MOZILLA/5.0 (IPHONE; CPU IPHONE OS 17_4 LIKE MAC OS X)").kind,
            .ios(osVersion: "17.4"))
    }

    /// Constructed from real UAs: device names and app build strings of people's phones
    /// can contain crawler words; they must not turn a person into a bot.
    func testGenericCrawlerWordsOnPeoplesPhonesAreIgnored() {
        let cubot =
            "Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0.4664.104 Mobile Safari/537.36"
        XCTAssertEqual(VisitorClassifier.classify(userAgent: cubot).kind, .android)
        let instagram =
            "Mozilla/5.0 (Linux; Android 13; RMX3630 Build/TP1A.220905.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.105 Mobile Safari/537.36 Instagram 321.0.0.39.106 Android (33/13; 480dpi; 1080x2400; realme; RMX3630; RE58C2; mt6833; en_US; 576089123; IABMV/1) crawler-spider-bot"
        let v = VisitorClassifier.classify(userAgent: instagram)
        XCTAssertEqual(v.kind, .android)
        XCTAssertEqual(v.inAppBrowser, "instagram")
        // The same words without a mobile platform token, or with a crawler marker, are a bot.
        XCTAssertEqual(VisitorClassifier.classify(userAgent: "SomeCrawler/1.0").kind, .bot("generic"))
        XCTAssertEqual(
            VisitorClassifier.classify(
                userAgent:
                    "Mozilla/5.0 (Linux; Android 7.0;) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; PetalBot;+https://webmaster.petalsearch.com/site/petalbot)"
            ).kind, .bot("generic"))
    }

    func testPinterestInAppBrowserIsAPersonAndPinterestsFetcherIsABot() {
        XCTAssertEqual(
            VisitorClassifier.classify(userAgent: UserAgentCorpus.inAppAndroid.last!.userAgent).kind, .android)
        XCTAssertEqual(
            VisitorClassifier.classify(userAgent: "Pinterest/0.2 (+http://www.pinterest.com/bot.html)").kind,
            .bot("Pinterest"))
    }

    func testIOSVersionTable() {
        let table: [(String, String?)] = [
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) Safari/604.1", "17.4.1"),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Safari/604.1", "17.4"),
            ("Mozilla/5.0 (iPad; CPU OS 16_5 like Mac OS X) Safari/604.1", "16.5"),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 17 like Mac OS X)", "17"),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) Version/18.6 Mobile/15E148 Safari/604.1", "18.6"),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) Version/26.1 Mobile/15E148 Safari/604.1", "26.1"),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) Mobile/15E148", "18.6"),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_ like Mac OS X)", "17"),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 123456 like Mac OS X)", nil),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS like Mac OS X)", nil),
            ("Mozilla/5.0 (iPhone)", nil),
        ]
        for (ua, expected) in table {
            XCTAssertEqual(VisitorClassifier.iOSVersion(userAgent: ua), expected, ua)
        }
    }

    func testClickPlatformMapping() {
        XCTAssertEqual(Visitor(kind: .android).platform, .android)
        XCTAssertEqual(Visitor(kind: .ios(osVersion: nil)).platform, .ios)
        XCTAssertEqual(Visitor(kind: .desktop).platform, .desktop)
        XCTAssertEqual(Visitor(kind: .bot("x")).platform, .bot)
        XCTAssertTrue(Visitor(kind: .desktop).recordsClick)
        XCTAssertEqual(Visitor(kind: .ios(osVersion: "17.4")).osVersion, "17.4")
        XCTAssertNil(Visitor(kind: .android).osVersion)
    }

    func testOnlyTheFirstBytesAreScanned() {
        let padding = String(repeating: "x", count: VisitorClassifier.maxScannedBytes)
        XCTAssertEqual(VisitorClassifier.classify(userAgent: "curl/8 " + padding).kind, .bot("curl"))
        XCTAssertEqual(VisitorClassifier.classify(userAgent: padding + " curl/8").kind, .desktop)
    }
}
