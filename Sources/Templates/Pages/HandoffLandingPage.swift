import HTTPMessages

/// `/m/handoff` in a browser: the copied URL was opened instead of pasted into the app. Explains
/// the three steps; never shows the token (the model does not even carry it).
enum HandoffLandingPage {
    static func render(_ model: HandoffLandingModel, strings: LocalizedStrings) -> HTTPResponse {
        let name = model.appName.nonEmpty.map { PageShell.clamp($0, to: PageShell.maxNameLength) }
        let top: HTML =
            if let name {
                PageShell.appHeader(name: name, icon: model.iconURL, subtitle: nil)
            } else {
                MessagePage.symbol(.clipboard)
            }
        let button: HTML =
            model.store.map { store in
                let label = strings[store.kind == .appStore ? .handoffButtonAppStore : .handoffButtonTestFlight]
                return "\n<a class=\"button\" href=\"\(store.url)\">\(label)</a>"
            } ?? .empty
        let body: HTML = """
            <main class="card\(name == nil ? " message" : "")">
            \(top)
            <h1>\(strings[.handoffTitle])</h1>
            <p class="lead">\(strings.text(.handoffIntro, app: name))</p>
            <ol class="steps">
            <li>\(strings.text(.handoffStepInstall, app: name))</li>
            <li>\(strings.text(.handoffStepOpen, app: name))</li>
            <li>\(strings.text(.handoffStepPaste, app: name))</li>
            </ol>\(button)
            </main>
            """
        return PageShell.render(status: 200, strings: strings, title: strings[.handoffTitle], body: body)
    }
}
