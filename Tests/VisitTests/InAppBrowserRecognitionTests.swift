import XCTest

@testable import Visit

/// Recognition of the in-app browsers of `docs/in-app-browsers.md` over `InAppBrowserCorpus`.
final class InAppBrowserRecognitionTests: XCTestCase {
    func testEveryEntryGetsItsTagAndPlatform() {
        for entry in InAppBrowserCorpus.entries {
            let visitor = VisitorClassifier.classify(method: "GET", userAgent: entry.userAgent)
            XCTAssertEqual(visitor.inAppBrowser, entry.tag, entry.label)
            switch entry.platform {
            case .iOS: XCTAssertEqual(visitor.platform, .ios, entry.label)
            case .android: XCTAssertEqual(visitor.platform, .android, entry.label)
            case .desktop: XCTAssertEqual(visitor.platform, .desktop, entry.label)
            }
            XCTAssertTrue(visitor.recordsClick, entry.label)
        }
    }

    func testTheCachedClassificationIsTheSame() {
        var cache = VisitorCache()
        for _ in 0..<2 {
            for entry in InAppBrowserCorpus.entries {
                XCTAssertEqual(
                    cache.classify(method: "GET", userAgent: entry.userAgent),
                    VisitorClassifier.classify(userAgent: entry.userAgent), entry.label)
            }
        }
    }

    func testRegularBrowsersAreNeverTagged() {
        XCTAssertGreaterThanOrEqual(InAppBrowserCorpus.regular.filter { $0.platform == .iOS }.count, 4)
        XCTAssertGreaterThanOrEqual(InAppBrowserCorpus.regular.filter { $0.platform == .android }.count, 4)
        for entry in InAppBrowserCorpus.regular {
            XCTAssertNil(entry.tag, entry.label)
            XCTAssertNil(VisitorClassifier.inAppBrowser(userAgent: entry.userAgent), entry.label)
        }
        // The issue-34 corpus's regular browsers too.
        for entry in UserAgentCorpus.iOS + UserAgentCorpus.android + UserAgentCorpus.desktop
        where entry.inApp == nil {
            XCTAssertNil(VisitorClassifier.inAppBrowser(userAgent: entry.userAgent), entry.label)
        }
    }

    func testEveryRecognisableAppIsCoveredOnBothPlatformsOrSaysWhyNot() {
        let tagged = Dictionary(grouping: InAppBrowserCorpus.inApp.filter { $0.tag != nil }, by: { $0.tag! })
        // Recognised on iOS and on Android from published UAs.
        for tag in ["facebook", "messenger", "instagram", "tiktok", "line", "wechat"] {
            XCTAssertTrue(tagged[tag]?.contains { $0.platform == .iOS } ?? false, tag)
            XCTAssertTrue(tagged[tag]?.contains { $0.platform == .android } ?? false, tag)
        }
        // Published for one platform only: the other opens links in the default browser or a
        // Custom Tab (docs/in-app-browsers.md), or sends a browser's UA.
        for tag in ["google", "linkedin", "snapchat", "twitter"] {
            XCTAssertTrue(tagged[tag]?.contains { $0.platform == .iOS } ?? false, tag)
        }
        XCTAssertTrue(tagged["telegram"]?.contains { $0.platform == .android } ?? false)
    }

    func testEveryEntryNamesItsSource() {
        for entry in InAppBrowserCorpus.entries {
            XCTAssertTrue(
                entry.source.hasPrefix("https://") || entry.source.hasPrefix("format: https://"), entry.label)
        }
    }

    /// Tags are stored on clicks and counted in `byInAppBrowser`: the ones released before
    /// issue 36 keep their token and tag.
    func testReleasedTagsAreUnchanged() {
        let released: [(String, String)] = [
            ("instagram", "instagram"), ("barcelona", "threads"), ("fban/messengerforios", "messenger"),
            ("fban/orca-android", "messenger"), ("fban/", "facebook"), ("fbav/", "facebook"),
            ("fb_iab", "facebook"), ("fbios", "facebook"), ("musical_ly", "tiktok"),
            ("bytedancewebview", "tiktok"), ("bytelocale", "tiktok"), ("tiktok", "tiktok"),
            ("linkedinapp", "linkedin"), ("snapchat", "snapchat"), (" line/", "line"),
            ("micromessenger", "wechat"), ("twitter for iphone", "twitter"), ("twitter for ipad", "twitter"),
            ("twitterandroid", "twitter"), ("[pinterest/", "pinterest"), ("kakaotalk", "kakaotalk"),
            ("naver(inapp", "naver"), (" gsa/", "google"), ("; wv)", "webview"),
        ]
        for (token, tag) in released {
            XCTAssertEqual(UserAgentPatterns.inAppBrowsers.first { $0.token == token }?.tag, tag, token)
        }
        // The generic WebView marker stays last: every named app wins over it.
        XCTAssertEqual(UserAgentPatterns.inAppBrowsers.last?.token, "; wv)")
    }

    func testNewTokensComeBeforeTheRowsThatWouldShadowThem() {
        func index(_ token: String) -> Int {
            UserAgentPatterns.inAppBrowsers.firstIndex { $0.token == token } ?? Int.max
        }
        XCTAssertLessThan(index("fb_iab/messenger"), index("fb_iab"))
        XCTAssertLessThan(index("instagram"), index("metaiab"))
        XCTAssertLessThan(index("telegram-android/"), index("; wv)"))
        // Telegram's link-preview fetcher stays a bot.
        XCTAssertEqual(VisitorClassifier.classify(userAgent: "TelegramBot (like TwitterBot)").kind, .bot("TelegramBot"))
    }
}
