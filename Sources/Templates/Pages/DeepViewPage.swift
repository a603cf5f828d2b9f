import HTTPMessages

/// The Deep View: what an iPhone visitor without the app sees.
///
/// One button, `<a id="biqli-continue" href="STORE" data-handoff="HANDOFF">`: with JavaScript,
/// `deepview.js` copies the `data-handoff` URL (the only copy of it in the page) and then opens
/// `href`; without JavaScript it is a plain link to the store (the visitor gets the app, the
/// exact deferred deep link is lost: acceptable, and the only way without script).
enum DeepViewPage {
    static func render(_ model: DeepViewModel, strings: LocalizedStrings, nonce: CSPNonce? = nil) -> HTTPResponse {
        let appStore = model.store.kind == .appStore
        let heading = model.title ?? model.appName
        let banner: HTML =
            model.store.appStoreID.map { "<meta name=\"apple-itunes-app\" content=\"app-id=\($0)\">\n" } ?? .empty
        let image: HTML = model.imageURL.map { "\n<img class=\"hero\" src=\"\($0)\" alt=\"\">" } ?? .empty
        let description: HTML =
            model.description.map {
                "\n<p class=\"lead\" dir=\"auto\">\(PageShell.clamp($0, to: PageShell.maxDescriptionLength))</p>"
            } ?? .empty
        let subtitle = strings[appStore ? .deepViewSubtitleAppStore : .deepViewSubtitleTestFlight]
        let header = PageShell.appHeader(
            name: model.appName, icon: model.iconURL, subtitle: subtitle, nameIsHeading: model.title == nil)
        let headline: HTML =
            model.title.map { "\n<h1 dir=\"auto\">\(PageShell.clamp($0, to: PageShell.maxTitleLength))</h1>" } ?? .empty
        let copied = strings[appStore ? .deepViewCopiedAppStore : .deepViewCopiedTestFlight]
        var head = banner
        var inApp = HTML.empty
        if let part = model.inApp {
            head = "\(banner)<link rel=\"stylesheet\" href=\"\(AssetCatalog.assetURL("inapp.css"))\">\n"
            inApp = inAppSection(
                part, appName: PageShell.clamp(model.appName, to: PageShell.maxNameLength), strings: strings)
        }
        let body: HTML = """
            <main class="card">
            \(header)\(image)\(headline)\(description)
            <a id="biqli-continue" class="button" href="\(model.store.url)" data-handoff="\(model.handoffURL)" \
            aria-describedby="biqli-explain">\(strings[.deepViewContinue])</a>
            <p id="biqli-explain" class="note">\(strings.text(.deepViewExplain, app: model.appName))</p>
            <p id="biqli-status" class="status" role="status" aria-live="polite" data-copied="\(copied)"></p>\(inApp)
            </main>
            """
        return PageShell.render(
            status: 200, strings: strings, title: heading, head: head, body: body, script: true, nonce: nonce)
    }

    /// The in-app part (decision 0033 §4), after Continue: where the visitor is, then Safari
    /// (a link, else the menu steps) and the app through the alternate domain. Its own
    /// stylesheet, so that every other page stays byte for byte what it was.
    static func inAppSection(_ inApp: DeepViewInApp, appName: String, strings: LocalizedStrings) -> HTML {
        let title =
            inApp.browserName.map { strings.text(.inAppTitle, browser: $0) } ?? strings[.inAppTitleGeneric]
        var ways: [HTML] = []
        if let safari = inApp.safariURL {
            ways.append(
                "\n<a id=\"biqli-safari\" class=\"button secondary\" href=\"x-safari-\(safari)\">\(strings[.inAppSafari])</a>"
            )
        } else if let steps = inApp.steps {
            let text = strings[steps == .ellipsisMenu ? .inAppStepsMenu : .inAppStepsGeneric]
            ways.append("\n<p id=\"biqli-steps\" class=\"note\">\(text)</p>")
        }
        if let app = inApp.appURL {
            ways.append(
                "\n<a id=\"biqli-app\" class=\"button secondary\" href=\"\(app)\">\(strings.text(.inAppOpenApp, app: appName))</a>"
            )
        }
        return """

            <section class="in-app" aria-labelledby="biqli-in-app">
            <h2 id="biqli-in-app" class="in-app-title" dir="auto">\(title)</h2>
            <p class="note">\(strings[.inAppExplain])</p>\(ways)
            </section>
            """
    }
}
