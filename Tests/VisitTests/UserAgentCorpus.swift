@testable import Visit

/// Real user agents (as sent by the named browsers, apps and fetchers) with the class,
/// in-app tag and iOS version the classifier must give them.
enum UserAgentCorpus {
    struct Entry {
        let label: String
        let userAgent: String
        let kind: VisitorClass
        let inApp: String?
    }

    private static func e(_ label: String, _ ua: String, _ kind: VisitorClass, _ inApp: String? = nil) -> Entry {
        Entry(label: label, userAgent: ua, kind: kind, inApp: inApp)
    }

    static let entries: [Entry] = iOS + android + inAppIOS + inAppAndroid + desktop + bots

    static let iOS: [Entry] = [
        e(
            "iPhone Safari 17.4.1",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1",
            .ios(osVersion: "17.4.1")),
        e(
            "iPhone Safari 18.5",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1",
            .ios(osVersion: "18.5")),
        e(
            "iPhone Safari 26 (OS token frozen at 18_6)",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1",
            .ios(osVersion: "26.0")),
        e(
            "iPad Safari (mobile site requested)",
            "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
            .ios(osVersion: "17.4")),
        e(
            "iPod touch Safari",
            "Mozilla/5.0 (iPod touch; CPU iPhone OS 15_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.7 Mobile/15E148 Safari/604.1",
            .ios(osVersion: "15.7")),
        e(
            "Chrome on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/123.0.6312.52 Mobile/15E148 Safari/604.1",
            .ios(osVersion: "17.4")),
        e(
            "Chrome on iPad",
            "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/123.0.6312.52 Mobile/15E148 Safari/604.1",
            .ios(osVersion: "17.4")),
        e(
            "Firefox on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/124.0 Mobile/15E148 Safari/605.1.15",
            .ios(osVersion: "17.4")),
        e(
            "Edge on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/122.0.2365.99 Mobile/15E148 Safari/605.1.15",
            .ios(osVersion: "17.4")),
        e(
            "iPadOS Safari in desktop mode (Mac UA)",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
            .desktop),
    ]

    static let android: [Entry] = [
        e(
            "Chrome on Android (reduced UA)",
            "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
            .android),
        e(
            "Chrome on Pixel 8 Pro",
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Pro) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.6312.99 Mobile Safari/537.36",
            .android),
        e(
            "Chrome on an Android tablet",
            "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36",
            .android),
        e("Firefox on Android", "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0", .android),
        e(
            "Samsung Internet",
            "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
            .android),
        e(
            "Edge on Android",
            "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 EdgA/124.0.2478.50",
            .android),
        e(
            "Android WebView",
            "Mozilla/5.0 (Linux; Android 13; SM-G998B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36",
            .android, "webview"),
    ]

    static let inAppIOS: [Entry] = [
        e(
            "Instagram on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 325.0.3.23.90 (iPhone15,2; iOS 17_4; en_US; en; scale=3.00; 1179x2556; 585614476)",
            .ios(osVersion: "17.4"), "instagram"),
        e(
            "Facebook on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/458.0.0.44.108;FBBV/581524385;FBDV/iPhone15,3;FBMD/iPhone;FBSN/iOS;FBSV/17.4;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/583203399]",
            .ios(osVersion: "17.4"), "facebook"),
        e(
            "Messenger on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/MessengerForiOS;FBAV/452.0.0.36.109;FBBV/567853113;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.3.1;FBSS/3;FBCR/;FBID/phone;FBLC/en_US;FBOP/5]",
            .ios(osVersion: "17.3.1"), "messenger"),
        e(
            "TikTok on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_34.1.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US ByteFullLocale/en isDarkMode/0 WKWebView/1 RevealType/Dialog BytedanceWebview/d8a21c6",
            .ios(osVersion: "17.4"), "tiktok"),
        e(
            "LinkedIn on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.29.6140",
            .ios(osVersion: "17.4"), "linkedin"),
        e(
            "Snapchat on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Snapchat/13.6.0.40 (like Safari/8617.1.17.10.9, panda)",
            .ios(osVersion: "17.4"), "snapchat"),
        e(
            "LINE on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.4.1",
            .ios(osVersion: "17.4"), "line"),
        e(
            "WeChat on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.48(0x18003030) NetType/WIFI Language/zh_CN",
            .ios(osVersion: "17.4"), "wechat"),
        e(
            "Twitter on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.13",
            .ios(osVersion: "16.6"), "twitter"),
        e(
            "Threads on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Barcelona 324.0.2.22.96 (iPhone14,7; iOS 17_4; en_US; en-US; scale=3.00; 1170x2532; 584166096)",
            .ios(osVersion: "17.4"), "threads"),
        e(
            "Google app on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/308.0.614563770 Mobile/15E148 Safari/604.1",
            .ios(osVersion: "17.4"), "google"),
        e(
            "Unnamed app's WKWebView on iPhone",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
            .ios(osVersion: "17.4"), "webview"),
    ]

    static let inAppAndroid: [Entry] = [
        e(
            "Instagram on Android",
            "Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.6312.99 Mobile Safari/537.36 Instagram 325.0.0.35.91 Android (34/14; 480dpi; 1080x2340; samsung; SM-S918B; dm3q; qcom; en_US; 582470329)",
            .android, "instagram"),
        e(
            "Facebook on Android",
            "Mozilla/5.0 (Linux; Android 14; Pixel 7 Build/AP1A.240405.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.6312.118 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/458.0.0.54.108;]",
            .android, "facebook"),
        e(
            "TikTok on Android",
            "Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 musical_ly_2023403030 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/musical_ly app_version/34.3.3 ByteLocale/en ByteFullLocale/en Region/GB AppId/1233 Spark/1.5.0.5-bugfix AppVersion/34.3.3 BytedanceWebview/d8a21c6",
            .android, "tiktok"),
        e(
            "LinkedIn on Android",
            "Mozilla/5.0 (Linux; Android 14; Pixel 6 Build/AP1A.240405.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.6312.99 Mobile Safari/537.36 [LinkedInApp]/4.1.923",
            .android, "linkedin"),
        e(
            "Snapchat on Android",
            "Mozilla/5.0 (Linux; Android 14; SM-S911B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.6312.99 Mobile Safari/537.36 Snapchat/13.5.0.36 (SM-S911B; Android 14#S911BXXU2BXBE#34; gzip; )",
            .android, "snapchat"),
        e(
            "LINE on Android",
            "Mozilla/5.0 (Linux; Android 13; SO-51C Build/64.1.C.0.131; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 Line/14.3.1/IAB",
            .android, "line"),
        e(
            "WeChat on Android",
            "Mozilla/5.0 (Linux; Android 13; V2171A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64",
            .android, "wechat"),
        e(
            "Pinterest on Android",
            "Mozilla/5.0 (Linux; Android 13; SM-G991U Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/121.0.6167.178 Mobile Safari/537.36 [Pinterest/Android]",
            .android, "pinterest"),
    ]

    static let desktop: [Entry] = [
        e(
            "Chrome on Windows",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
            .desktop),
        e(
            "Chrome on macOS",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
            .desktop),
        e(
            "Chrome on Linux",
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
            .desktop),
        e(
            "Chrome on ChromeOS",
            "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
            .desktop),
        e(
            "Firefox on Windows",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0", .desktop),
        e("Firefox on Linux", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", .desktop),
        e(
            "Safari on macOS",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15",
            .desktop),
        e(
            "Edge on Windows",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
            .desktop),
    ]

    static let bots: [Entry] = [
        e(
            "iMessage link preview (Mac Safari UA with bot tokens appended)",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0",
            .bot("iMessage")),
        e(
            "Facebook crawler", "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
            .bot("facebookexternalhit")),
        e("Twitterbot", "Twitterbot/1.0", .bot("Twitterbot")),
        e("Slack unfurler", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", .bot("Slackbot")),
        e(
            "LinkedInBot", "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
            .bot("LinkedInBot")),
        e("Discordbot", "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", .bot("Discordbot")),
        e("TelegramBot", "TelegramBot (like TwitterBot)", .bot("TelegramBot")),
        e("WhatsApp (Android)", "WhatsApp/2.24.8.78 A", .bot("WhatsApp")),
        e("WhatsApp (iOS)", "WhatsApp/2.24.6.77 i", .bot("WhatsApp")),
        e(
            "Googlebot smartphone",
            "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.91 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            .bot("Googlebot")),
        e(
            "Googlebot desktop", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            .bot("Googlebot")),
        e("bingbot", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", .bot("bingbot")),
        e(
            "Applebot",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
            .bot("Applebot")),
        e(
            "Pinterestbot", "Mozilla/5.0 (compatible; Pinterestbot/1.0; +http://www.pinterest.com/bot.html)",
            .bot("Pinterestbot")),
        e("redditbot", "Mozilla/5.0 (compatible; redditbot/1.0; +http://www.reddit.com/feedback)", .bot("redditbot")),
        e("Embedly", "Mozilla/5.0 (compatible; Embedly/0.2; +http://support.embed.ly/)", .bot("Embedly")),
        e("Skype preview", "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5", .bot("SkypeUriPreview")),
        e(
            "Headless Chrome",
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.6367.60 Safari/537.36",
            .bot("HeadlessChrome")),
        e("curl", "curl/8.5.0", .bot("curl")),
        e("python-requests", "python-requests/2.31.0", .bot("python-requests")),
        e("Wget", "Wget/1.21.4", .bot("Wget")),
        e("Go client", "Go-http-client/1.1", .bot("Go-http-client")),
        e("Apple's AASA CDN", "AASA-Bot/1.0.0", .bot("AASA-Bot")),
        e("YandexBot", "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", .bot("generic")),
        e(
            "Baiduspider", "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
            .bot("generic")),
        e("AhrefsBot", "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", .bot("generic")),
        e("empty User-Agent", "", .bot("empty")),
    ]
}
