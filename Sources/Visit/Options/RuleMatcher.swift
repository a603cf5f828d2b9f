import Model

/// Which of a link's rules a visit takes (decision 0032): the first whose every condition
/// holds. A condition's list holds when any of its values matches; an absent list holds
/// always, so `{}` matches every visitor.
public enum RuleMatcher {
    /// What the rules look at of one visitor.
    public struct Facts: Sendable, Equatable {
        /// Nil for HEAD and bots: no platform rule matches.
        public var platform: RulePlatform?
        public var device: DeviceClass
        /// The preferred tag of `Accept-Language`; nil matches no language rule.
        public var language: Substring?
        /// ISO 3166-1 alpha-2, upper case; nil (no GeoIP database, an address not in it)
        /// matches no country rule.
        public var country: String?

        public init(platform: RulePlatform?, device: DeviceClass, language: Substring? = nil, country: String? = nil) {
            self.platform = platform
            self.device = device
            self.language = language
            self.country = country
        }
    }

    /// The index of the first rule that holds for `facts`, or nil.
    public static func firstMatch(_ rules: [LinkRule], _ facts: Facts) -> Int? {
        rules.firstIndex { holds($0.conditions, facts) }
    }

    public static func holds(_ c: RuleConditions, _ facts: Facts) -> Bool {
        if let countries = c.countries {
            guard let country = facts.country, countries.contains(country) else { return false }
        }
        if let platforms = c.platforms {
            guard let platform = facts.platform, platforms.contains(platform) else { return false }
        }
        if let devices = c.devices, !devices.contains(facts.device) { return false }
        if let languages = c.languages {
            guard let language = facts.language,
                languages.contains(where: { LanguagePreference.matches(range: $0, tag: language) })
            else { return false }
        }
        return true
    }

    /// Whether any rule names countries: only then is the visitor's country looked up
    /// before the plan.
    public static func namesCountries(_ rules: [LinkRule]) -> Bool {
        rules.contains { $0.conditions.countries != nil }
    }

    /// Whether any rule names languages: only then is `Accept-Language` read.
    public static func namesLanguages(_ rules: [LinkRule]) -> Bool {
        rules.contains { $0.conditions.languages != nil }
    }
}
