/// Every user-agent pattern the edge knows, in one place, in the order they are tried.
///
/// Tokens are lower-case and matched as substrings of the lower-cased UA (ASCII
/// case folding only). Order matters: the first matching row wins.
enum UserAgentPatterns {
    /// Named link-preview fetchers, crawlers and HTTP libraries. Checked before any
    /// platform token, because several of them pose as a phone or a Mac (iMessage sends
    /// a Mac Safari UA with `facebookexternalhit` and `Twitterbot` appended; Googlebot
    /// smartphone sends an Android Chrome UA).
    ///
    /// Deliberately absent: tokens of in-app browsers used by people (`Instagram`,
    /// `LinkedInApp`, `Snapchat`, `[Pinterest/`, `Twitter for iPhone`, `Telegram`...):
    /// only the fetchers' own names are here (`LinkedInBot`, `Pinterestbot`, `TelegramBot`).
    static let namedBots: [(token: String, name: String)] = [
        ("facebookexternalhit/1.1 facebot twitterbot/1.0", "iMessage"),
        ("facebookexternalhit", "facebookexternalhit"),
        ("facebot", "Facebot"),
        ("facebookcatalog", "facebookcatalog"),
        ("meta-externalagent", "meta-externalagent"),
        // Before Twitterbot: Telegram's fetcher says "TelegramBot (like TwitterBot)".
        ("telegrambot", "TelegramBot"),
        ("twitterbot", "Twitterbot"),
        ("slackbot", "Slackbot"),
        ("slack-imgproxy", "Slackbot"),
        ("linkedinbot", "LinkedInBot"),
        ("discordbot", "Discordbot"),
        ("whatsapp", "WhatsApp"),
        ("googlebot", "Googlebot"),
        ("google-inspectiontool", "Google-InspectionTool"),
        ("adsbot-google", "AdsBot-Google"),
        ("mediapartners-google", "Mediapartners-Google"),
        ("apis-google", "APIs-Google"),
        ("feedfetcher-google", "FeedFetcher-Google"),
        ("storebot-google", "Storebot-Google"),
        ("google-read-aloud", "Google-Read-Aloud"),
        ("bingbot", "bingbot"),
        ("bingpreview", "BingPreview"),
        ("applebot", "Applebot"),
        ("embedly", "Embedly"),
        ("iframely", "Iframely"),
        ("skypeuripreview", "SkypeUriPreview"),
        ("redditbot", "redditbot"),
        ("pinterestbot", "Pinterestbot"),
        ("pinterest/0.", "Pinterest"),
        ("headlesschrome", "HeadlessChrome"),
        ("vkshare", "vkShare"),
        ("snap url preview", "Snapchat"),
        ("cardyb", "Bluesky"),
        ("mastodon/", "Mastodon"),
        ("aasa-bot", "AASA-Bot"),
        ("curl/", "curl"),
        ("wget/", "Wget"),
        ("python-requests", "python-requests"),
        ("python-urllib", "Python-urllib"),
        ("python-httpx", "python-httpx"),
        ("aiohttp", "aiohttp"),
        ("go-http-client", "Go-http-client"),
        ("okhttp", "okhttp"),
        ("dalvik/", "Dalvik"),
        ("java/", "Java"),
        ("apache-httpclient", "Apache-HttpClient"),
        ("libwww-perl", "libwww-perl"),
        ("node-fetch", "node-fetch"),
        ("undici", "undici"),
        ("axios/", "axios"),
        ("httpie/", "HTTPie"),
        ("postmanruntime", "PostmanRuntime"),
        ("insomnia/", "Insomnia"),
        ("guzzlehttp", "GuzzleHttp"),
        ("scrapy", "Scrapy"),
    ]

    /// Generic crawler words (`YandexBot`, `Baiduspider`, `AhrefsBot`, `SemrushBot`...).
    ///
    /// They are only believed when the UA does not look like a person's phone: real
    /// mobile UAs embed device model names and app build strings (the Instagram and
    /// Facebook Android in-app browsers append `Android (33/13; 420dpi; ...; <device>;
    /// <codename>; ...)`, and some device names contain `bot`), so on a UA with a mobile
    /// platform token a generic word counts only next to a crawler marker
    /// (`compatible;` or a `+http` info URL), and never on a UA with an in-app tag.
    static let genericBots: [String] = ["bot", "crawler", "spider", "crawl", "slurp"]
    static let crawlerMarkers: [String] = ["compatible;", "+http"]
    static let mobilePlatforms: [String] = ["android", "iphone", "ipad", "ipod"]

    /// `Android` token: Android phones and tablets, WebViews, in-app browsers.
    static let android = "android"
    /// An Android UA without it is a tablet's (Chrome and Firefox drop it there).
    static let mobile = "mobile"
    /// The one iOS device that is a tablet.
    static let iPad = "ipad"
    /// iOS devices. iPadOS Safari in desktop mode sends a Mac UA and is not here.
    static let iOS: [String] = ["iphone", "ipod", "ipad"]

    /// In-app browsers. Checked in this order, first match wins: the app-specific tokens
    /// before the generic Android WebView marker, which they usually also carry.
    ///
    /// The tag is what a click records and what the link's analytics count
    /// (`byInAppBrowser`): keep every tag as it is once released. The table of apps,
    /// their tokens, sources and what breaks in each is `docs/in-app-browsers.md`.
    /// Apps that open links in the default browser, a Custom Tab or an
    /// `SFSafariViewController` (Gmail; X, LinkedIn, Snapchat and the Google app on
    /// Android) send that browser's own UA and are rightly not tagged; Telegram's
    /// in-app browser on iOS and Android sends a Safari or Chrome UA (only its Mini Apps
    /// append `Telegram-Android/`).
    static let inAppBrowsers: [(token: String, tag: String)] = [
        ("instagram", "instagram"),
        ("barcelona", "threads"),
        ("fban/messengerforios", "messenger"),
        ("fban/orca-android", "messenger"),
        ("fb_iab/messenger", "messenger"),
        // Facebook for iOS since 2025: `... Safari/604.1 MetaIAB Facebook`, no FBAN.
        ("metaiab", "facebook"),
        ("fban/", "facebook"),
        ("fbav/", "facebook"),
        ("fb_iab", "facebook"),
        ("fbios", "facebook"),
        ("musical_ly", "tiktok"),
        ("bytedancewebview", "tiktok"),
        ("bytelocale", "tiktok"),
        ("tiktok", "tiktok"),
        ("linkedinapp", "linkedin"),
        ("snapchat", "snapchat"),
        (" line/", "line"),
        ("micromessenger", "wechat"),
        ("twitter for iphone", "twitter"),
        ("twitter for ipad", "twitter"),
        ("twitterandroid", "twitter"),
        ("[pinterest/", "pinterest"),
        ("kakaotalk", "kakaotalk"),
        ("naver(inapp", "naver"),
        (" gsa/", "google"),
        // Telegram for Android's Mini Apps (bot web views); never `TelegramBot`, a named bot above.
        ("telegram-android/", "telegram"),
        ("; wv)", "webview"),
    ]

    /// An iOS UA without `Safari/` is a WKWebView inside some app (every iOS browser,
    /// Chrome, Firefox and Edge included, keeps the `Safari/` token).
    static let safari = "safari/"

    /// Where the iOS version sits: `CPU iPhone OS 17_4 like Mac OS X` (iPhone, iPod) and
    /// `CPU OS 17_4 like Mac OS X` (iPad).
    static let iOSVersionMarkers: [String] = ["iphone os ", "cpu os "]
    /// Safari on iOS 26 and later freezes the OS token at `18_6` and reports the real
    /// release in `Version/26.x` instead.
    static let frozenIOSVersion = "18.6"
    static let safariVersion = "version/"
}
