/// The names the iOS Deep View gives the in-app browser tags ("You're in Instagram's
/// browser", decision 0033 §4): each app's name as the app writes it, not translated.
public enum InAppBrowserName {
    /// By tag (`Visitor.inAppBrowser`). `webview`, an app the edge cannot name, has none.
    static let names: [String: String] = [
        "instagram": "Instagram", "threads": "Threads", "messenger": "Messenger", "facebook": "Facebook",
        "tiktok": "TikTok", "linkedin": "LinkedIn", "snapchat": "Snapchat", "line": "LINE", "wechat": "WeChat",
        "twitter": "X", "pinterest": "Pinterest", "kakaotalk": "KakaoTalk", "naver": "NAVER", "google": "Google",
        "telegram": "Telegram",
    ]

    /// The tags whose way to Safari the table in `docs/in-app-browsers.md` names: the `⋯`
    /// menu at the top. Every other app gets the generic steps ("the app's menu").
    static let ellipsisMenu: Set<String> = ["instagram"]

    /// The app's name for `tag`, or nil (`webview`, or a tag this table does not know).
    public static func displayName(tag: String) -> String? { names[tag] }

    /// Whether the app of `tag` leaves for the browser through its `⋯` menu.
    public static func hasEllipsisMenu(tag: String) -> Bool { ellipsisMenu.contains(tag) }
}
