import HTTPMessages
import Model

@testable import Templates

/// Shared sample data: a well-formed app and link, and the hostile strings every page must render
/// inert.
enum Fixtures {
    static let token = "bqmh_" + String(repeating: "A", count: 20) + "b-_9" + String(repeating: "z", count: 19)
    static let handoffURL = "https://go.example.com/m/handoff?biqli_token=" + token
    static let appStoreURL = "https://apps.apple.com/app/id1234567890"

    static let hostile = [
        "<script>alert(1)</script>",
        "\" onmouseover=\"alert(1)",
        "' onmouseover='alert(1)",
        "javascript:alert(1)",
        "https://x\" onerror=\"alert(1)",
        "</title><script>alert(1)</script>",
        "</textarea><img src=x onerror=alert(1)>",
        "<!-- --><svg onload=alert(1)>",
        "&lt;already escaped&gt; & AT&T",
        "\u{202E}evil\u{202C} 🎉 日本語 Ünïcödé \u{0}nul",
    ]

    static func app(
        name: String = "Acme Recipes", icon: String? = "https://cdn.example.com/icon.png",
        appStoreId: String? = "1234567890", testFlight: String? = nil
    ) -> MobileApp {
        MobileApp(
            id: "biq_mapp_01HZX5V3Q8E6M9K2R7T4W1Y0AB", name: name, iconUrl: icon,
            ios: IOSPlatform(
                teamId: "ABCDE12345", bundleId: "com.acme.recipes", appStoreId: appStoreId,
                testFlightUrl: testFlight))
    }

    static func link(
        title: String? = "Lemon tart", description: String? = "A bright, crisp tart for summer evenings.",
        image: String? = "https://cdn.example.com/tart.jpg", url: String = "https://acme.example.com/recipes/42"
    ) -> Link {
        Link(
            id: "biq_lnk_01HZX5V3Q8E6M9K2R7T4W1Y0AB", domain: "go.example.com", key: "tart", url: url,
            mobile: MobilePayload(appId: "biq_mapp_01HZX5V3Q8E6M9K2R7T4W1Y0AB", route: "/recipes/42"),
            preview: LinkPreview(title: title, description: description, imageUrl: image))
    }

    static func deepView(app: MobileApp = app(), link: Link = link()) -> DeepViewModel {
        DeepViewModel(app: app, link: link, handoffToken: token)!
    }

    /// One of each page, for checks that hold on all of them.
    static func everyPage(_ pages: Pages = Pages(), acceptLanguage: String? = nil) -> [(String, HTTPResponse)] {
        [
            ("deepView", pages.deepView(deepView(), acceptLanguage: acceptLanguage)),
            (
                "linkPreview",
                pages.linkPreview(LinkPreviewModel(link: link(), app: app())!, acceptLanguage: acceptLanguage)
            ),
            ("handoff", pages.handoffLanding(HandoffLandingModel(app: app()), acceptLanguage: acceptLanguage)),
            ("handoffUnknownApp", pages.handoffLanding(acceptLanguage: acceptLanguage)),
            ("notFound", pages.notFound(acceptLanguage: acceptLanguage)),
            ("disabled", pages.linkDisabled(acceptLanguage: acceptLanguage)),
            ("error", pages.serverError(acceptLanguage: acceptLanguage)),
            ("root", pages.domainRoot(acceptLanguage: acceptLanguage)),
        ]
    }
}
