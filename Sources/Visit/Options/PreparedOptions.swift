import Model

/// What every visit of one link with options (decision 0032) would otherwise compute the
/// same way: each web destination with its UTM parameters in place, the variants'
/// fingerprint and `Set-Cookie` values, and which facts the rules read. Built once per
/// link (and per event loop: `PreparedOptionsCache`), it took a visit of the guard's link
/// with every option from twice a plain visit's instructions to within a few per cent.
public final class PreparedOptions: Sendable {
    /// The options prepared, kept so that their identity (the cache's key) is not reused.
    public let options: LinkOptions
    /// The link's `url` and `key` it was prepared with: a link read again with other
    /// ones (an edit) is prepared afresh.
    let url: String
    let key: String
    let linkDestination: PreparedDestination
    let ruleDestinations: [PreparedDestination]
    let variantDestinations: [PreparedDestination]
    /// `VariantDraw.fingerprint` of the variants ("" without a test).
    public let fingerprint: String
    /// Whether any rule names countries (the country is then looked up before the plan)
    /// or languages (`Accept-Language` is then read).
    public let namesCountries: Bool
    public let namesLanguages: Bool
    /// `VariantCookie.setCookie` per arm: without `Secure` at `2 * arm`, with it after.
    let cookies: [String]

    public init(link: Link, options: LinkOptions) {
        self.options = options
        self.url = link.url
        self.key = link.key
        self.linkDestination = PreparedDestination(link.url, utm: options.utm)
        self.ruleDestinations = options.rules.map { PreparedDestination($0.url, utm: options.utm) }
        self.variantDestinations = options.variants.map { PreparedDestination($0.url, utm: options.utm) }
        self.namesCountries = RuleMatcher.namesCountries(options.rules)
        self.namesLanguages = RuleMatcher.namesLanguages(options.rules)
        let fingerprint = options.variants.isEmpty ? "" : VariantDraw.fingerprint(options.variants)
        self.fingerprint = fingerprint
        self.cookies = options.variants.indices.flatMap { arm in
            [false, true].map {
                VariantCookie.setCookie(arm: arm, fingerprint: fingerprint, key: link.key[...], secure: $0)
            }
        }
    }

    /// Whether these are `link`'s options as it is now.
    public func fits(_ link: Link) -> Bool {
        link.options === options && link.url == url && link.key == key
    }

    /// The destination the plan chose, UTM in place.
    public func destination(_ choice: WebChoice) -> PreparedDestination {
        switch choice {
        case .link: return linkDestination
        case .rule(let i): return ruleDestinations[i]
        case .variant(let i): return variantDestinations[i]
        }
    }

    /// The `Set-Cookie` value keeping `arm` (`VariantCookie.setCookie`).
    public func setCookie(arm: Int, secure: Bool) -> String {
        cookies[2 * arm + (secure ? 1 : 0)]
    }
}
