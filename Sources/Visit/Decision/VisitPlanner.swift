import Model

/// The visit decision (README, "What happens to a click"; `spec/edge-behaviour.md`;
/// seeds 001 and 002), pure so that each branch is unit-tested without sockets. In two
/// steps: `appToLoad` says which app the plan needs, so that the busiest visits skip the
/// app's lookup, then `plan` decides.
public enum VisitPlanner {
    /// The id of the app to look up before `plan`, or nil when the plan needs none:
    /// desktop visitors and HEAD never do, nor do visits of a link without a mobile payload.
    public static func appToLoad(link: Link, visitor: Visitor) -> String? {
        switch visitor.kind {
        case .desktop, .head:
            return nil
        case .bot, .android, .ios:
            return link.mobile?.appId
        }
    }

    /// The plan of a visit of the enabled `link` on `domain`.
    ///
    /// - Parameter app: the app `appToLoad` named, as looked up, disabled or not; nil when
    ///   it is gone or was not looked up.
    /// - Parameter inAppEscapes: the escapes from an in-app browser the operator allows
    ///   this visit (`InAppEscapeSwitches`); nil: all of them.
    public static func plan(
        link: Link, app: MobileApp?, domain: Domain, visitor: Visitor, inAppEscapes: Set<InAppEscape>? = nil
    ) -> VisitPlan {
        var plan = answer(link: link, app: app, domain: domain, visitor: visitor, inAppEscapes: inAppEscapes)
        // Conversion tracking: a click sent to the web destination takes its id along.
        if plan.click != nil, case .redirect(.web) = plan.answer, link.tracksConversions(on: domain) {
            plan.carriesClickId = true
        }
        return plan
    }

    /// The plan of a visit of the enabled `link`, with its options (decision 0032), in
    /// their order: expiry, then the first rule that holds (with `skipApp`, for a mobile
    /// visitor of an app link, the answer too), then the variant of a web visit no rule
    /// took (kept from the cookie, else drawn from `random`), else the link's `url`. A
    /// link without options plans as `plan(link:app:domain:visitor:)`, reading nothing more.
    public static func plan<R: RandomNumberGenerator>(
        link: Link, app: MobileApp?, domain: Domain, visitor: Visitor, facts: VisitFacts, random: inout R
    ) -> VisitPlan {
        plan(link: link, app: app, domain: domain, visitor: visitor, facts: facts, roll: { random.next() })
    }

    /// The same, `roll` giving a value uniform over all `UInt64` when a variant is drawn.
    /// Not generic: the visit path calls it from another module, where a generic planner
    /// ran unspecialized and copied its facts through their value witnesses.
    public static func plan(
        link: Link, app: MobileApp?, domain: Domain, visitor: Visitor, facts: VisitFacts, roll: () -> UInt64
    ) -> VisitPlan {
        guard let options = link.options else {
            return plan(link: link, app: app, domain: domain, visitor: visitor, inAppEscapes: facts.inAppEscapes)
        }
        if LinkExpiry.isExpired(options, now: facts.now) { return VisitPlan(answer: .expired) }
        if !options.rules.isEmpty {
            let namesLanguages = facts.prepared?.namesLanguages ?? RuleMatcher.namesLanguages(options.rules)
            let language = namesLanguages ? LanguagePreference.preferred(facts.acceptLanguage) : nil
            let ruleFacts = RuleMatcher.Facts(
                platform: visitor.rulePlatform, device: visitor.device, language: language, country: facts.country)
            if let index = RuleMatcher.firstMatch(options.rules, ruleFacts) {
                if options.rules[index].skipApp, let skipped = skipApp(link, app, domain, visitor, rule: index) {
                    return skipped
                }
                var plan = plan(
                    link: link, app: app, domain: domain, visitor: visitor, inAppEscapes: facts.inAppEscapes)
                plan.web = .rule(index)
                return plan
            }
        }
        var plan = plan(link: link, app: app, domain: domain, visitor: visitor, inAppEscapes: facts.inAppEscapes)
        // Variants split the web visits of people (not HEAD, not bots' previews).
        if options.variants.count >= 2, plan.click != nil, case .redirect(.web) = plan.answer {
            let fingerprint = facts.prepared?.fingerprint ?? VariantDraw.fingerprint(options.variants)
            if let kept = VariantCookie.arm(
                cookieHeader: facts.cookie, fingerprint: fingerprint, count: options.variants.count)
            {
                plan.web = .variant(kept)
            } else {
                plan.web = .variant(VariantDraw.arm(options.variants, roll: roll()))
                plan.drewVariant = true
            }
        }
        return plan
    }

    /// A `skipApp` rule's answer for a mobile visitor of an app link: a 302 to the rule's
    /// URL, a `desktop` click on its platform, no handoff. Nil for anyone else, whom the
    /// rule only gives a web destination.
    private static func skipApp(_ link: Link, _ app: MobileApp?, _ domain: Domain, _ visitor: Visitor, rule: Int)
        -> VisitPlan?
    {
        guard case .some = link.mobile else { return nil }
        let platform: VisitorPlatform
        switch visitor.kind {
        case .android: platform = .android
        case .ios: platform = .ios
        case .head, .bot, .desktop: return nil
        }
        let sourceHash = platform == .ios && app?.ios?.probabilisticFallback == true
        return VisitPlan(
            answer: .redirect(.web), click: PlannedClick(kind: .desktop, platform: platform, sourceHash: sourceHash),
            carriesClickId: link.tracksConversions(on: domain), web: .rule(rule))
    }

    private static func answer(
        link: Link, app: MobileApp?, domain: Domain, visitor: Visitor, inAppEscapes: Set<InAppEscape>?
    ) -> VisitPlan {
        switch visitor.kind {
        case .head:
            return VisitPlan(answer: .redirect(.web))
        case .bot:
            return VisitPlan(answer: .preview(pageFallback: .web))
        case .desktop:
            return VisitPlan(answer: .redirect(.web), click: PlannedClick(kind: .desktop, platform: .desktop))
        case .android:
            guard let app, sendsToStore(link, app), let android = app.android else {
                return VisitPlan(answer: .redirect(.web), click: PlannedClick(kind: .desktop, platform: .android))
            }
            if visitor.inAppBrowser != nil, let inApp = inAppAndroid(android, allowed: inAppEscapes) {
                return inApp
            }
            return VisitPlan(
                answer: .playStore(writeFallback: .playStore),
                click: PlannedClick(kind: .androidRedirect, platform: .android), handoff: .android)
        case .ios:
            // The app's own switch decides, a disabled app's too (as before the plan existed).
            let sourceHash = app?.ios?.probabilisticFallback == true
            guard let app, sendsToStore(link, app), let ios = app.ios else {
                return VisitPlan(
                    answer: .redirect(.web), click: PlannedClick(kind: .desktop, platform: .ios, sourceHash: sourceHash)
                )
            }
            let hasFallback = ios.fallbackUrl != nil
            if domain.deepViewEnabled && link.mobile?.deepView == true && ios.hasStoreUrl {
                // Inside an app's own browser universal links do not fire: the page says so
                // and offers Safari and the alternate domain as allowed (decision 0033 §4).
                let inApp =
                    visitor.inAppBrowser == nil
                    ? nil : InAppDeepView.offer(visitor: visitor, domain: domain, allowed: inAppEscapes)
                return VisitPlan(
                    answer: .deepView(
                        pageFallback: hasFallback ? .iosFallback : .web,
                        writeFallback: hasFallback ? .iosFallback : .iosStore, inApp: inApp),
                    click: PlannedClick(
                        kind: inApp == nil ? .deepView : .inAppPage, platform: .ios, sourceHash: sourceHash),
                    handoff: .ios)
            }
            // Either switch off (or no store to send to): the iOS fallback, else the
            // store, else the web URL, and no handoff (seed 002).
            let target: VisitTarget = hasFallback ? .iosFallback : ios.hasStoreUrl ? .iosStore : .web
            return VisitPlan(
                answer: .redirect(target),
                click: PlannedClick(kind: .iosFallback, platform: .ios, sourceHash: sourceHash))
        }
    }

    /// An Android visitor inside an in-app web view (decision 0033): App Links do not fire
    /// there and a Play URL opens Play's web page, so the app's own intent first when its
    /// App Links are set up (it has signing fingerprints), else the Play Store app's
    /// intent, each as the operator allows; nil: today's Play redirect.
    private static func inAppAndroid(_ android: AndroidPlatform, allowed: Set<InAppEscape>?) -> VisitPlan? {
        let answer: VisitAnswer
        let kind: ClickKind
        if !android.sha256CertFingerprints.isEmpty, allowed?.contains(.appIntent) ?? true {
            (answer, kind) = (.appIntent(writeFallback: .playStore), .appIntent)
        } else if allowed?.contains(.playIntent) ?? true {
            (answer, kind) = (.playIntent(writeFallback: .playStore), .playIntent)
        } else {
            return nil
        }
        return VisitPlan(answer: answer, click: PlannedClick(kind: kind, platform: .android), handoff: .android)
    }

    /// A mobile visitor goes to the store only from a mobile-enabled link whose app is
    /// enabled: a link whose app is disabled or gone behaves as a plain web link.
    /// `case .some` rather than `!= nil`, which copied the link's whole mobile payload.
    private static func sendsToStore(_ link: Link, _ app: MobileApp) -> Bool {
        guard case .some = link.mobile else { return false }
        return app.enabled
    }
}
