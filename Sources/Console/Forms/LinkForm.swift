import Core
import Management
import Model

/// The link form's six fields (`domain`, `key`, `url`, `app`, `route`, `title`), its
/// options (`LinkOptionsForm`: rules, variants, UTM, expiry, tags...), and how they become
/// the body of the API's create or merge patch, so that the API's rules
/// (`WorkspaceOperations`) judge them; and how the API's field paths come back to them.
struct LinkForm: Sendable, Equatable {
    static let fields = ["domain", "key", "url", "app", "route", "title"]

    var domain = ""
    /// Empty on a create: the API generates one.
    var key = ""
    var url = ""
    /// A Mobile App id; empty: a web-only link.
    var app = ""
    var route = ""
    /// The link preview's title; empty: none.
    var title = ""
    var options = LinkOptionsForm()

    init() {}

    init(_ form: FormBody) {
        domain = form.text("domain")
        key = form.text("key")
        url = form.text("url")
        app = form.text("app")
        route = form.text("route")
        title = form.text("title")
        options = LinkOptionsForm(form)
    }

    /// The form of an existing link.
    init(_ link: Link) {
        domain = link.domain
        key = link.key
        url = link.url
        app = link.mobile?.appId ?? ""
        route = link.mobile?.route ?? ""
        title = link.preview?.title ?? ""
        options = LinkOptionsForm(link.options)
    }

    /// The body of `POST /api/v1/links`. An empty key is left out (the API makes one);
    /// a route without an app is sent so that the API says the app is missing.
    var createFields: [(String, JSONValue)] {
        var out: [(String, JSONValue)] = [("domain", .string(domain))]
        if !key.isEmpty { out.append(("key", .string(key))) }
        out.append(("url", .string(url)))
        if !app.isEmpty || !route.isEmpty {
            var mobile: [(String, JSONValue)] = []
            if !app.isEmpty { mobile.append(("appId", .string(app))) }
            if !route.isEmpty { mobile.append(("route", .string(route))) }
            out.append(("mobile", .object(mobile)))
        }
        if !title.isEmpty { out.append(("preview", .object([("title", .string(title))]))) }
        return out + options.createFields
    }

    /// The merge patch of `PATCH /api/v1/links/{id}` that makes `current` say what the
    /// form says, keeping what the form does not show (metadata, dynamic keys, referral
    /// code, the preview's description and image, the enabled switch); an option is sent
    /// only when the form changes it.
    func patch(of current: Link) -> [(String, JSONValue)] {
        var out: [(String, JSONValue)] = [
            ("domain", .string(domain)), ("key", .string(key)), ("url", .string(url)),
        ]
        if app.isEmpty && route.isEmpty {
            if current.mobile != nil { out.append(("mobile", .null)) }
        } else {
            // null removes a member: an emptied field is then reported as required.
            out.append(
                (
                    "mobile",
                    .object([
                        ("appId", app.isEmpty ? .null : .string(app)),
                        ("route", route.isEmpty ? .null : .string(route)),
                    ])
                ))
        }
        if !title.isEmpty {
            out.append(("preview", .object([("title", .string(title))])))
        } else if let preview = current.preview, preview.title != nil {
            let keepsMore = preview.description != nil || preview.imageUrl != nil
            out.append(("preview", keepsMore ? .object([("title", .null)]) : .null))
        }
        return out + options.patch(of: current.options)
    }

    /// The form field an API field path belongs to (`mobile.route` -> `route`); nil for
    /// one the form does not show (the message then goes above the form).
    static func field(of apiField: String) -> String? {
        switch apiField {
        case "domain", "key", "url": return apiField
        case "mobile", "mobile.appId": return "app"
        case "mobile.route": return "route"
        case "preview", "preview.title": return "title"
        default: return LinkOptionsForm.field(of: apiField)
        }
    }

    /// The API's problems by form field (the first one of each), and those of no field.
    static func errors(_ problems: [FieldProblem]) -> (byField: [String: String], other: [String]) {
        var byField: [String: String] = [:]
        var other: [String] = []
        for problem in problems {
            let sentence = problem.field + " " + problem.rule
            if let field = field(of: problem.field) {
                if byField[field] == nil { byField[field] = sentence }
            } else {
                other.append(sentence)
            }
        }
        return (byField, other)
    }
}
