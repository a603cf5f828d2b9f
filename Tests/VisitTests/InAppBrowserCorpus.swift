@testable import Visit

/// User agents of the in-app browsers of `docs/in-app-browsers.md`, and of regular browsers
/// that must not be taken for one, each with where it was published.
///
/// Every string is copied as published (including a fixture's own artefacts, such as
/// inapp-spy's `{useragents: ` prefix before some bracketed Meta tokens), except the
/// entries whose `source` says "format": those are built from a vendor's documented
/// format, because no captured string of that browser was found in a citable source.
enum InAppBrowserCorpus {
    enum Platform { case iOS, android, desktop }

    struct Entry {
        let label: String
        let platform: Platform
        let userAgent: String
        /// The tag the edge must give it (`Visitor.inAppBrowser`); nil for a regular browser
        /// and for an in-app browser that sends a browser's UA unchanged.
        let tag: String?
        let source: String
    }

    /// shalanah/inapp-spy's test fixtures (real UAs collected with inappdebugger.com).
    static let inappSpy = "https://github.com/shalanah/inapp-spy/blob/main/src/tests/mobile.ts"
    static let telegramSource =
        "https://github.com/DrKLO/Telegram/blob/master/TMessagesProj/src/main/java/org/telegram/ui/web/BotWebViewContainer.java"
    static let samsungFormat = "https://developer.samsung.com/internet/user-agent-string-format.html"
    static let samsungCaptured =
        "https://github.com/device-hackers/swipe-up/blob/master/features/system-tests/samsung-browser.feature"
    static let edgeFormat = "https://docs.microsoft.com/en-us/microsoft-edge/web-platform/user-agent-string"

    private static func e(
        _ label: String, _ platform: Platform, _ ua: String, _ tag: String?, _ source: String = inappSpy
    ) -> Entry {
        Entry(label: label, platform: platform, userAgent: ua, tag: tag, source: source)
    }

    static let entries: [Entry] = inApp + regular

    static let inApp: [Entry] = [
        // iOS
        e(
            "Google app on iPhone (iOS 18.1)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/334.0.674067880 Mobile/15E148 Safari/604.1",
            "google"),
        e(
            "LinkedIn on iPhone", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 {useragents: [LinkedInApp]/9.30.1753",
            "linkedin"),
        e(
            "Messenger on iPhone (iOS 10)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 10_2_1 like Mac OS X) AppleWebKit/602.4.6 (KHTML, like Gecko) Mobile/14D27 {useragents: [FBAN/MessengerForiOS;FBAV/117.0.0.36.70;FBBV/57539258;FBDV/iPhone7,2;FBMD/iPhone;FBSN/iOS;FBSV/10.2.1;FBSS/2;FBCR/&#20013-&#33775-&#38651-&#20449-;FBID/phone;FBLC/zh_TW;FBOP/5;FBRV/0]",
            "messenger"),
        // inapp-spy files this one under Messenger; FBAN/FBIOS is the Facebook app's token and
        // nothing in the string tells Messenger apart, so it counts as Facebook.
        e(
            "Messenger on iPhone (iOS 18.1, sends Facebook's FBIOS)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/482.2.0.68.110;FBBV/658316928;FBDV/iPhone12,8;FBMD/iPhone;FBSN/iOS;FBSV/18.1;FBSS/2;FBCR/;FBID/phone;FBLC/en_US;FBOP/80]",
            "facebook"),
        e(
            "Facebook on iPhone (iOS 10)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 10_2_1 like Mac OS X) AppleWebKit/602.4.6 (KHTML, like Gecko) Mobile/14D27 {useragents: [FBAN/FBIOS;FBAV/93.0.0.49.65;FBBV/58440824;FBDV/iPhone7,2;FBMD/iPhone;FBSN/iOS;FBSV/10.2.1;FBSS/2;FBCR/&#20013-&#33775-&#38651-&#20449-;FBID/phone;FBLC/zh_TW;FBOP/5;FBRV/0]",
            "facebook"),
        e(
            "Facebook on iPhone (iOS 18.1)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/22B83 [FBAN/FBIOS;FBAV/488.0.0.68.101;FBBV/658219612;FBDV/iPhone12,8;FBMD/iPhone;FBSN/iOS;FBSV/18.1;FBSS/2;FBID/phone;FBLC/en_US;FBOP/5;FBRV/0;IABMV/1]",
            "facebook"),
        e(
            "Facebook on iPhone (iOS 18.6, MetaIAB without FBAN)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/22G100 Safari/604.1 MetaIAB Facebook",
            "facebook"),
        e(
            "Twitter on iPhone (before X moved to SFSafariViewController)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 10_2_1 like Mac OS X) AppleWebKit/602.3.12 (KHTML, like Gecko) Mobile/14D27 Twitter for iPhone",
            "twitter"),
        e(
            "LINE on iPhone", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 10_2_1 like Mac OS X) AppleWebKit/602.4.6 (KHTML, like Gecko) Mobile/14D27 Safari Line/7.3.2",
            "line"),
        e(
            "Instagram on iPhone (iOS 10)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 10_2_1 like Mac OS X) AppleWebKit/602.4.6 (KHTML, like Gecko) Mobile/14D27 Instagram 10.21.0 (iPhone7,2; iOS 10_2_1; zh-Hant_JP; zh-Hant-JP; scale=2.00; gamut=normal; 750x1334)",
            "instagram"),
        e(
            "Instagram on iPhone (iOS 18.1)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/22B83 Instagram 354.0.0.29.90 (iPhone12,8; iOS 18_1; en_US; en; scale=2.00; 750x1334; 654111336; IABMV/1)",
            "instagram"),
        e(
            "Instagram on iPhone (iOS 18.5, with Safari/)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/22F76 Instagram 393.1.0.36.70 (iPhone15,3; iOS 18_5; en_US; en; scale=3.00; 1290x2796; IABMV/1; 776538208) Safari/604.1)",
            "instagram"),
        e(
            "WeChat on iPhone", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 10_2_1 like Mac OS X) AppleWebKit/602.4.6 (KHTML, like Gecko) Mobile/14D27 MicroMessenger/6.5.8 NetType/WIFI Language/zh_CN",
            "wechat"),
        e(
            "Snapchat on iPhone", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3.1 Mobile/15E148 Snapchat/12.72.0.39 (like Safari/8617.2.4.10.8, panda)",
            "snapchat"),
        e(
            "TikTok on iPhone (iOS 17.3)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 BytedanceWebview/d8a21c6 musical_ly_33.2.1 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US FalconTag/BDB55B46-0286-4504-847E-C8300CB9F79D",
            "tiktok"),
        e(
            "TikTok on iPhone (iOS 18.6, short form)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari/604.1 musical_ly_41.9.0",
            "tiktok"),
        // Telegram's in-app browser on iOS sends Safari's UA unchanged: only a page's script
        // can tell (`window.TelegramWebviewProxy`), the edge cannot.
        e(
            "Telegram on iPhone (Safari's UA, not recognisable)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/22B5045g Safari/604.1",
            nil),

        // Android
        e(
            "Facebook on Android (Pixel 8)", .android,
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240905.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.83 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/488.0.0.62.79;IABMV/1;]",
            "facebook"),
        e(
            "Facebook Lite on Android (FBAN/EMA)", .android,
            "Mozilla/5.0 (Linux; Android 4.4.2; ASUS_T00F Build/KVT49L) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/30.0.0.0 Mobile Safari/537.36{useragents: [FBAN/EMA;FBLC/zh_TW;FBAV/42.0.0.3.64;]",
            "facebook"),
        e(
            "Messenger on Android (FB_IAB/MESSENGER)", .android,
            "Mozilla/5.0 (Linux; Android 6.0.1; D6653 Build/23.5.A.0.575; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/58.0.3029.83 Mobile Safari/537.36 {useragents: [FB_IAB/MESSENGER;FBAV/118.0.0.19.82;]",
            "messenger"),
        // Filed under Messenger by inapp-spy, but byte for byte the Facebook app's token.
        e(
            "Messenger on Android (Pixel 8, sends Facebook's FB4A)", .android,
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240905.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.58 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/482.0.0.71.108;]",
            "facebook"),
        e(
            "Instagram on Android (Pixel 8)", .android,
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240905.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.58 Mobile Safari/537.36 Instagram 355.1.0.44.103 Android (34/14; 420dpi; 1080x2205; Google/google; Pixel 8; shiba; shiba; en_US; 658190016)",
            "instagram"),
        e(
            "Instagram on Android (Xiaomi Mi A3)", .android,
            "Mozilla/5.0 (Linux; Android 11; Mi A3 Build/RKQ1.200903.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.6778.14 Mobile Safari/537.36 Instagram 355.0.0.37.103 Android (30/11; 320dpi; 720x1411; Xiaomi; Mi A3; laurel_sprout; qcom; pt_BR; 657300861)",
            "instagram"),
        e(
            "Threads on Android", .android,
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240905.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.58 Mobile Safari/537.36 Barcelona 355.0.0.39.109 Android (34/14; 420dpi; 1080x2205; Google/google; Pixel 8; shiba; shiba; en_US; 657318936)",
            "threads"),
        e(
            "TikTok on Android", .android,
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A.240105.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/121.0.6167.143 Mobile Safari/537.36 musical_ly_2023303040 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/musical_ly app_version/33.3.4 ByteLocale/en ByteFullLocale/en Region/US AppId/1233 Spark/1.5.0.5-alpha.2 AppVersion/33.3.4 BytedanceWebview/d8a21c6",
            "tiktok"),
        e(
            "LINE on Android", .android,
            "Mozilla/5.0 (Linux; Android 6.0.1; D6653 Build/23.5.A.0.575; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/58.0.3029.83 Mobile Safari/537.36 Line/7.4.0/IAB",
            "line"),
        e(
            "WeChat on Android", .android,
            "Mozilla/5.0 (Linux; Android 6.0.1; D6653 Build/23.5.A.0.575; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/58.0.3029.83 Mobile Safari/537.36 MicroMessenger/6.5.7.1041 NetType/WIFI Language/zh_TW",
            "wechat"),
        // Telegram's browser removes `; wv` from the WebView's UA: it reads as Chrome.
        e(
            "Telegram on Android (Chrome's UA, not recognisable)", .android,
            "Mozilla/5.0 (Linux; Android 14; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.6668.100 Mobile Safari/537.36",
            nil),
        e(
            "Telegram Mini App on Android (format)", .android,
            "Mozilla/5.0 (Linux; Android 14; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.6668.100 Mobile Safari/537.36 Telegram-Android/11.4.3 (Samsung SM-S918B; Android 14; SDK 34; HIGH)",
            "telegram", "format: " + telegramSource),
        e(
            "Reddit on Android (an unnamed WebView)", .android,
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240905.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.58 Mobile Safari/537.36 Reddit/Version 2024.41.0/Build 2102450/Android 14",
            "webview"),
    ]

    /// Browsers that must never be tagged.
    static let regular: [Entry] = [
        e(
            "Safari on iPhone (iOS 18.1; also SFSafariViewController, X and Gmail on iOS)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
            nil),
        e(
            "Safari on iPhone (26.4, OS token frozen)", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.4 Mobile/15E148 Safari/604.1",
            nil),
        e(
            "Chrome on iPhone", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 10_2_1 like Mac OS X) AppleWebKit/602.1.50 (KHTML, like Gecko) CriOS/58.0.3029.113 Mobile/14D27 Safari/602.1",
            nil),
        e(
            "Firefox on iPhone", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/130.1  Mobile/15E148 Safari/605.1.15",
            nil),
        e(
            "Edge on iPhone", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) EdgiOS/128.0.2739.82 Version/18.0 Mobile/15E148 Safari/604.1",
            nil),
        e(
            "Opera on iPhone", .iOS,
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1 OPT/5.0.7",
            nil),
        e(
            "Chrome on Android (reduced UA)", .android,
            "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.0.0 Mobile Safari/537.36",
            nil),
        e(
            "Chrome on Android (Pixel 3)", .android,
            "Mozilla/5.0 (Linux; Android 12; Pixel 3) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/102.0.0.0 Mobile Safari/537.36",
            nil),
        e("Firefox on Android", .android, "Mozilla/5.0 (Android 4.4.2; Mobile; rv:53.0) Gecko/53.0 Firefox/53.0", nil),
        e(
            "Samsung Internet 5.4", .android,
            "Mozilla/5.0 (Linux; Android 7.0; SAMSUNG SM-N920C Build/NRD90M) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/5.4 Chrome/51.0.2704.106 Mobile Safari/537.36",
            nil, samsungCaptured),
        e(
            "Samsung Internet 24+ (reduced UA, format)", .android,
            "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
            nil, "format: " + samsungFormat),
        e(
            "Edge on Android (format: Chromium's UA and the EdgA token)", .android,
            "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 EdgA/124.0.2478.50",
            nil, "format: " + edgeFormat),
        e(
            "MIUI Browser", .android,
            "Mozilla/5.0 (Linux; U; Android 6.0.1; zh-tw; Redmi Note 3 Build/MMB29M) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/53.0.2785.146 Mobile Safari/537.36 XiaoMi/MiuiBrowser/8.5.8",
            nil),
        e(
            "Edge on Windows", .desktop,
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.74 Safari/537.36 Edg/79.0.309.43",
            nil, edgeFormat),
    ]
}
