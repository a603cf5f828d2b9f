import Model

/// Where the Deep View's Continue button (and the handoff page's button) sends an iOS visitor.
/// Only the two checked constructors make one, so `url` is always an Apple store URL.
public struct StoreTarget: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `https://apps.apple.com/app/id<ID>`; also enables the Smart App Banner.
        case appStore
        /// A `https://testflight.apple.com/join/<CODE>` invitation.
        case testFlight
    }

    public let kind: Kind
    /// The URL the button points at.
    public let url: SafeURL
    /// The App Store ID, for `<meta name="apple-itunes-app">`; nil for TestFlight.
    public let appStoreID: String?

    private init(kind: Kind, url: SafeURL, appStoreID: String?) {
        self.kind = kind
        self.url = url
        self.appStoreID = appStoreID
    }

    /// An App Store target; nil unless `id` is 1...20 ASCII digits.
    public static func appStore(id: String) -> StoreTarget? {
        guard (1...20).contains(id.utf8.count), id.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let url = SafeURL("https://apps.apple.com/app/id" + id)
        else { return nil }
        return StoreTarget(kind: .appStore, url: url, appStoreID: id)
    }

    /// A TestFlight target; nil unless `url` is `https://testflight.apple.com/join/<CODE>`
    /// (`CODE`: 1...32 ASCII letters and digits).
    public static func testFlight(url: String) -> StoreTarget? {
        let prefix = "https://testflight.apple.com/join/"
        guard let safe = SafeURL(url), safe.absoluteString.hasPrefix(prefix) else { return nil }
        let code = safe.absoluteString.utf8.dropFirst(prefix.utf8.count)
        let isCodeByte: (UInt8) -> Bool = { ($0 | 0x20 >= 97 && $0 | 0x20 <= 122) || ($0 >= 48 && $0 <= 57) }
        guard (1...32).contains(code.count), code.allSatisfy(isCodeByte) else { return nil }
        return StoreTarget(kind: .testFlight, url: safe, appStoreID: nil)
    }

    /// The App Store when the iOS platform has a valid App Store ID, else its valid TestFlight URL.
    public init?(_ ios: IOSPlatform) {
        if let id = ios.appStoreId, let target = StoreTarget.appStore(id: id) {
            self = target
        } else if let url = ios.testFlightUrl, let target = StoreTarget.testFlight(url: url) {
            self = target
        } else {
            return nil
        }
    }
}
