import Model

/// What a visit of an enabled link does, as `VisitPlanner` decides it from the link, its
/// app, its domain and the visitor alone: what to answer (and where the visitor goes when
/// that answer cannot be given), what to record. The edge carries it out (store calls,
/// rendering, the response) and decides nothing itself.
///
/// Only enums and flags, no strings and no copy of the link or the app: every visit makes
/// one, and an Equatable value lets each branch be tested as a whole.
public struct VisitPlan: Sendable, Equatable {
    public var answer: VisitAnswer
    /// The click recorded, or nil (HEAD and bots never make one).
    public var click: PlannedClick?
    /// The platform of the handoff made with the click, or nil for none. An answer with a
    /// handoff carries its token, so it waits until the click and the handoff are
    /// durable; every other answer is given at once (decision 0003).
    public var handoff: Platform?
    /// The redirect to the web destination carries the click's id (`bq_id`, conversion
    /// tracking): like a handoff token, an id the store does not know would break the
    /// attribution later, so this answer too waits until its click is durable.
    public var carriesClickId: Bool
    /// Which web destination `.web` means: the link's `url`, a rule's or a variant's
    /// (a link's options, decision 0032).
    public var web: WebChoice
    /// The variant was drawn on this visit (not read from the visitor's cookie): the
    /// answer sets the `bq_v` cookie that keeps it.
    public var drewVariant: Bool

    public init(
        answer: VisitAnswer, click: PlannedClick? = nil, handoff: Platform? = nil, carriesClickId: Bool = false,
        web: WebChoice = .link, drewVariant: Bool = false
    ) {
        self.answer = answer
        self.click = click
        self.handoff = handoff
        self.carriesClickId = carriesClickId
        self.web = web
        self.drewVariant = drewVariant
    }

    /// The arm of the link's A/B test this visit got, recorded on its click.
    public var variant: Int? {
        if case .variant(let arm) = web { return arm }
        return nil
    }
}

/// The web destination a plan chose, named by its place in the link.
public enum WebChoice: Sendable, Equatable {
    /// The link's `url`.
    case link
    /// `options.rules[i].url`: the first rule that held.
    case rule(Int)
    /// `options.variants[i].url`: the arm of the A/B test.
    case variant(Int)

    /// The URL chosen in `link` (before UTM and the visitor's query).
    public func url(in link: Link) -> String {
        switch self {
        case .link: return link.url
        case .rule(let i): return link.options?.rules[i].url ?? link.url
        case .variant(let i): return link.options?.variants[i].url ?? link.url
        }
    }
}

/// The response a visit gets, and where the visitor goes instead when it cannot be given.
public enum VisitAnswer: Sendable, Equatable {
    /// A 302 to the target (for HEAD, the headers of one).
    case redirect(VisitTarget)
    /// The preview page with Open Graph tags, counted as a preview (never a click); a 302
    /// to `pageFallback` when the page cannot be built (a short link that is no `https:` URL).
    case preview(pageFallback: VisitTarget)
    /// A 302 to Google Play with the handoff token nested in `referrer`; a 302 to
    /// `writeFallback`, without a token, when the click and the handoff cannot be written
    /// (decision 0011).
    case playStore(writeFallback: VisitTarget)
    /// For an Android visitor in an in-app web view (which opens the Play *web page* for a
    /// Play URL, losing the referrer): a 302 to an `intent:` URI that the Play Store app
    /// opens with the same referrer (`PlayStoreIntent`, decision 0033); `writeFallback` as
    /// for `playStore`.
    case playIntent(writeFallback: VisitTarget)
    /// For an Android visitor in an in-app web view, where App Links do not fire, of an
    /// app whose App Links are set up (it has signing fingerprints): a 302 to the app's
    /// own intent carrying the short link, falling back to the Play Store intent
    /// (`AppIntent`, decision 0033); `writeFallback` as for `playStore`.
    case appIntent(writeFallback: VisitTarget)
    /// The Deep View page: Continue copies the handoff URL, then opens the store. A 302 to
    /// `pageFallback`, recording nothing, when the page cannot be built (a store URL that
    /// is no `https:` URL); to `writeFallback`, without a token, when the click and the
    /// handoff cannot be written. `inApp`: for an iOS visitor inside an app's own browser,
    /// the page also says so and offers the ways out that work there (`InAppDeepView`,
    /// decision 0033 §4); nil for every other visitor, whose page is unchanged.
    case deepView(pageFallback: VisitTarget, writeFallback: VisitTarget, inApp: InAppDeepView? = nil)
    /// The link's `expiresAt` has passed: a 302 to its `expiredUrl`, else the localized
    /// 410 page. No click, whoever the visitor.
    case expired
}

/// The click a visit records.
public struct PlannedClick: Sendable, Equatable {
    public var kind: ClickKind
    /// The visitor's platform, whatever the answer (an Android visitor of a web-only link
    /// makes a `desktop` click on `android`).
    public var platform: VisitorPlatform
    /// Whether the click keeps the keyed hash of the source address: only iOS visitors of
    /// apps that allow probabilistic matching (data minimisation; it also keeps the
    /// store's candidate index to the clicks that can be matched).
    public var sourceHash: Bool

    public init(kind: ClickKind, platform: VisitorPlatform, sourceHash: Bool = false) {
        self.kind = kind
        self.platform = platform
        self.sourceHash = sourceHash
    }
}
