import Model

/// What the classifier decided about one request, in the documented order
/// (`spec/edge-behaviour.md`, "Classifying a visitor").
public enum VisitorClass: Sendable, Equatable {
    /// A `HEAD` request: headers only, never a click or a token.
    case head
    /// A link-preview fetcher, crawler or HTTP library; the name of the rule that matched
    /// (`iMessage`, `Slackbot`, `curl`, `generic`, `empty`...). Preview HTML, no click, no token.
    case bot(String)
    case android
    /// iPhone, iPod or iPad (not iPadOS in desktop mode, which reports a Mac UA).
    /// `osVersion` as the SDKs report it (`17.4`, `17.4.1`), when the UA carries it.
    case ios(osVersion: String?)
    /// Everything else, including Macs and iPads in desktop mode (a page that checks
    /// `navigator.maxTouchPoints > 1` may upgrade those to the Deep View client-side).
    case desktop
}

/// A classified visitor: its class plus the in-app browser it came through.
public struct Visitor: Sendable, Equatable {
    public var kind: VisitorClass
    /// `facebook`, `instagram`, `tiktok`, `linkedin`, `snapchat`, `line`, `wechat`,
    /// `twitter`, `threads`, `pinterest`, `messenger`, `google`, `kakaotalk`, `naver`, `telegram`,
    /// `webview` (an unnamed Android or iOS WebView), or nil for a regular browser.
    /// Always nil for `.head` and `.bot`.
    public var inAppBrowser: String?
    /// Phone, tablet or desktop, from the user agent (a link's `devices` rules): an iPad or
    /// an Android UA without `Mobile` is a tablet. Decided with the class, so a cached
    /// visitor costs nothing more per visit.
    public var device: DeviceClass

    /// - Parameter device: nil takes the class's usual one (a phone for Android and iOS,
    ///   a desktop otherwise); the classifier names tablets.
    public init(kind: VisitorClass, inAppBrowser: String? = nil, device: DeviceClass? = nil) {
        self.kind = kind
        self.inAppBrowser = inAppBrowser
        switch kind {
        case .android, .ios: self.device = device ?? .phone
        case .head, .bot, .desktop: self.device = device ?? .desktop
        }
    }

    /// The platform recorded on a click; nil for `HEAD`, which is never recorded.
    public var platform: VisitorPlatform? {
        switch kind {
        case .head: return nil
        case .bot: return .bot
        case .android: return .android
        case .ios: return .ios
        case .desktop: return .desktop
        }
    }

    /// The platform a link's `platforms` rules name; nil for HEAD and bots, which match
    /// no platform rule.
    public var rulePlatform: RulePlatform? {
        switch kind {
        case .head, .bot: return nil
        case .android: return .android
        case .ios: return .ios
        case .desktop: return .desktop
        }
    }

    /// Whether this visit makes a click (people only: never `HEAD`, never bots).
    public var recordsClick: Bool {
        switch kind {
        case .head, .bot: return false
        case .android, .ios, .desktop: return true
        }
    }

    /// The iOS version parsed from the UA (iOS visitors only).
    public var osVersion: String? {
        if case .ios(let v) = kind { return v }
        return nil
    }
}
