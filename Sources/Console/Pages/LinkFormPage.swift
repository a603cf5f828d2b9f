import HTTPMessages
import Model
import Templates

/// `GET /console/links/new` and `/console/links/{id}/edit`: one form for both, posted to
/// `/console/links` (create) or `/console/links/{id}` (update). After a refusal it comes
/// back with what was typed and the API's message under each field it concerns
/// (`<p class="field-error" id="<field>-error">`, the field `aria-invalid`). The link's
/// options (rules, A/B test, UTM, query, expiry, tags, external id) follow
/// (`LinkOptionsFields`); "Add a rule" and "Add a variant" post the form and get it back
/// with one more row, without saving (no script needed).
enum LinkFormPage {
    struct Model {
        var form: LinkForm
        /// Nil for a new link.
        var editing: Link?
        var domains: [String]
        /// (id, name) of every Mobile App.
        var apps: [(id: String, name: String)]
        /// The workspace's tags, to check on the link.
        var tags: [Tag] = []
        var errors: [String: String] = [:]
        /// Messages about no field of the form.
        var otherErrors: [String] = []
    }

    static func render(_ m: Model, status: Int = 200, csrf: String) -> HTTPResponse {
        let title = m.editing.map { "Edit " + $0.shortUrl } ?? "New link"
        let action = m.editing.map { ConsolePaths.link($0.id) } ?? ConsolePaths.links
        let domainOptions = options(m.domains.map { ($0, $0) }, selected: m.form.domain, empty: nil)
        let appOptions = options(m.apps.map { ($0.id, $0.name) }, selected: m.form.app, empty: "No app (web only)")
        let summary: HTML =
            m.errors.isEmpty && m.otherErrors.isEmpty
            ? .empty
            : """
            <div class="alert" id="form-errors" role="alert"><p>The link was not saved: \
            \(Format.count(m.errors.count + m.otherErrors.count)) problem\(m.errors.count + m.otherErrors.count == 1 ? "" : "s").</p>\
            \(m.otherErrors.map { "<p class=\"form-error\">\($0)</p>" as HTML })</div>
            """
        let cancel = m.editing.map { ConsolePaths.link($0.id) } ?? ConsolePaths.links
        // The form's first submit button is a hidden "Save link": Enter in a field submits
        // with it, not with "Add a rule" (decision 0032, as built: the console).
        let main: HTML = """
            <h1>\(title)</h1>
            \(summary)
            <form id="link-form" method="post" action="\(action)" novalidate>
            <input type="hidden" name="csrf" value="\(csrf)">
            <button type="submit" class="default-action" tabindex="-1" aria-hidden="true">Save link</button>
            \(field("domain", "Domain", control: select("domain", domainOptions, m.errors), m.errors))
            \(field("key", "Key", control: input("key", m.form.key, type: "text", m.errors, hint: true), m.errors, hint: m.editing == nil ? "The path after the domain: letters, digits, - and _. Leave it empty for a random one." : "The path after the domain: letters, digits, - and _."))
            \(field("url", "Destination URL", control: input("url", m.form.url, type: "url", m.errors), m.errors))
            \(field("app", "Mobile app", control: select("app", appOptions, m.errors), m.errors))
            \(field("route", "In-app route", control: input("route", m.form.route, type: "text", m.errors, hint: true), m.errors, hint: "Where the app opens, such as /invite/accepted; needed with an app."))
            \(field("title", "Preview title", control: input("title", m.form.title, type: "text", m.errors, hint: true), m.errors, hint: "Optional: the title link previews show."))
            \(LinkOptionsFields.render(m.form.options, tags: m.tags, m.errors))
            <div class="actions"><button type="submit" id="save-link" class="primary">Save link</button>\
            <a href="\(cancel)">Cancel</a></div>
            </form>
            """
        return ConsoleLayout.page(status: status, title: title, section: .links, csrf: csrf, main: main)
    }

    static func field(
        _ name: String, _ label: String, control: HTML, _ errors: [String: String], hint: String? = nil
    )
        -> HTML
    {
        let hintHTML: HTML = hint.map { "<p class=\"hint\" id=\"\(name)-hint\">\($0)</p>" } ?? .empty
        let error: HTML = errors[name].map { "<p class=\"field-error\" id=\"\(name)-error\">\($0)</p>" } ?? .empty
        return "<div class=\"field\"><label for=\"\(name)\">\(label)</label>\(control)\(hintHTML)\(error)</div>"
    }

    /// The error's id when the field has one, else the hint's (when it has one).
    static func describedBy(_ name: String, _ errors: [String: String], hint: Bool) -> HTML {
        if errors[name] != nil { return " aria-invalid=\"true\" aria-describedby=\"\(name)-error\"" }
        return hint ? " aria-describedby=\"\(name)-hint\"" : .empty
    }

    static func input(
        _ name: String, _ value: String, type: String, _ errors: [String: String], hint: Bool = false,
        step: Bool = false
    )
        -> HTML
    {
        // `autocomplete="off"` only on text fields: axe-core reads it as unsuitable for a
        // `url` input (rule autocomplete-valid), where the browser's own history helps anyway.
        let autocomplete: HTML = type == "text" ? " autocomplete=\"off\"" : .empty
        return """
            <input id="\(name)" name="\(name)" type="\(type)" value="\(value)"\(autocomplete) \
            spellcheck="false"\(step ? " step=\"1\"" : "" as HTML)\(describedBy(name, errors, hint: hint))>
            """
    }

    private static func select(_ name: String, _ options: HTML, _ errors: [String: String]) -> HTML {
        "<select id=\"\(name)\" name=\"\(name)\"\(describedBy(name, errors, hint: false))>\(options)</select>"
    }

    /// The options, `selected` marked; a value not among them (typed before it was
    /// deleted) is kept as an option so that the form says what was sent.
    static func options(_ items: [(String, String)], selected: String, empty: String?) -> HTML {
        var list: [HTML] = []
        if let empty {
            list.append(
                selected.isEmpty
                    ? "<option value=\"\" selected>\(empty)</option>" : "<option value=\"\">\(empty)</option>")
        }
        var seen = selected.isEmpty
        for (value, label) in items {
            if value == selected {
                seen = true
                list.append("<option value=\"\(value)\" selected>\(label)</option>")
            } else {
                list.append("<option value=\"\(value)\">\(label)</option>")
            }
        }
        if !seen { list.append("<option value=\"\(selected)\" selected>\(selected)</option>") }
        return HTML.join(list)
    }
}
