/// A link's UTM parameters (`utm`): each, when set, is added to the web destination as
/// `utm_<name>`, replacing the destination's own of that name.
public struct UTMParameters: Sendable, Equatable {
    public var source: String?
    public var medium: String?
    public var campaign: String?
    public var term: String?
    public var content: String?

    /// Characters of one value at most.
    public static let maxLength = 256

    public init(
        source: String? = nil, medium: String? = nil, campaign: String? = nil, term: String? = nil,
        content: String? = nil
    ) {
        self.source = source
        self.medium = medium
        self.campaign = campaign
        self.term = term
        self.content = content
    }

    /// The query parameters, in this fixed order, of the values that are set.
    public var parameters: [(String, String)] {
        var out: [(String, String)] = []
        if let source { out.append(("utm_source", source)) }
        if let medium { out.append(("utm_medium", medium)) }
        if let campaign { out.append(("utm_campaign", campaign)) }
        if let term { out.append(("utm_term", term)) }
        if let content { out.append(("utm_content", content)) }
        return out
    }

    /// Nil when no value is set.
    public var normalized: UTMParameters? {
        source == nil && medium == nil && campaign == nil && term == nil && content == nil ? nil : self
    }
}
