/// One routing rule of a link (`rules[]`): when every condition holds, the visit's web
/// destination is `url` instead of the link's.
public struct LinkRule: Sendable, Equatable {
    public var conditions: RuleConditions
    /// An absolute http(s) URL, as the link's own `url` is.
    public var url: String
    /// Whether a matching mobile visitor of an app link goes to `url` too, instead of the
    /// store or the Deep View (a country where the app is not published). Off: the rule
    /// only chooses the web destination, which app visitors reach only as a fallback.
    public var skipApp: Bool

    public init(conditions: RuleConditions, url: String, skipApp: Bool = false) {
        self.conditions = conditions
        self.url = url
        self.skipApp = skipApp
    }
}

/// A rule's conditions (`if`): each list, when present, holds when any of its values
/// matches; an absent list holds always; a rule with none matches every visitor.
public struct RuleConditions: Sendable, Equatable {
    /// ISO 3166-1 alpha-2 codes, upper case. A visitor with no country matches none.
    public var countries: [String]?
    public var platforms: [RulePlatform]?
    /// BCP 47 tags, as written (compared ignoring case): `pt` matches `pt-BR`.
    public var languages: [String]?
    public var devices: [DeviceClass]?

    public static let maxCountries = 250
    public static let maxLanguages = 50

    public init(
        countries: [String]? = nil, platforms: [RulePlatform]? = nil, languages: [String]? = nil,
        devices: [DeviceClass]? = nil
    ) {
        self.countries = countries
        self.platforms = platforms
        self.languages = languages
        self.devices = devices
    }
}

/// The platforms a rule can name (`platforms`).
public enum RulePlatform: String, Sendable, Equatable, CaseIterable {
    case ios, android, desktop
}

/// The kinds of device a rule can name (`devices`): from the user agent, an iPad or an
/// Android device without `Mobile` is a tablet.
public enum DeviceClass: String, Sendable, Equatable, CaseIterable {
    case phone, tablet, desktop
}
