import HTTPMessages
import Model
import Templates

/// `GET /console/settings`: the workspace's client-side click tracking (decision 0027):
/// its switch and the hostnames whose pages may call `track/click`, one per line. After a
/// refusal it comes back with what was typed and the API's rules.
enum SettingsPage {
    struct Model {
        var enabled: Bool
        /// One hostname per line, as shown in the text area.
        var hostnames: String
        var errors: [String] = []
        var saved = false
        /// Browser keys that are not revoked, by name (the page says whether one exists).
        var browserKeys: [BrowserKeyRecord] = []
    }

    static func render(_ m: Model, status: Int = 200, csrf: String) -> HTTPResponse {
        let alert: HTML =
            m.errors.isEmpty
            ? (m.saved ? "<p class=\"notice\" id=\"settings-saved\" role=\"status\">Saved.</p>" : .empty)
            : """
            <div class="alert" id="form-errors" role="alert"><p>The settings were not saved.</p>\
            \(m.errors.map { "<p class=\"form-error\">\($0)</p>" as HTML })</div>
            """
        let keys: HTML =
            m.browserKeys.isEmpty
            ? "<p id=\"browser-keys\">No browser key yet: <code>biqli-edge keys create --browser --name NAME</code>.</p>"
            : "<p id=\"browser-keys\">Browser keys: \(m.browserKeys.map { "\($0.name) (…\($0.hint))" }.joined(separator: ", ")).</p>"
        let described: HTML =
            m.errors.isEmpty
            ? " aria-describedby=\"hostnames-hint\"" : " aria-invalid=\"true\" aria-describedby=\"hostnames-hint\""
        let main: HTML = """
            <h1>Settings</h1>
            <h2>Client-side click tracking</h2>
            <p>Pages of these hostnames may ask the edge for a click with a browser key \
            (<code>analytics-v3.js</code> on a URL such as <code>/?via=KEY</code>).</p>
            \(alert)
            <form id="settings-form" method="post" action="\(ConsolePaths.settings)" novalidate>
            <input type="hidden" name="csrf" value="\(csrf)">
            <div class="field"><label for="enabled"><input id="enabled" name="enabled" type="checkbox" value="on"\
            \(m.enabled ? " checked" as HTML : .empty)> Track clicks from allowed pages</label></div>
            <div class="field"><label for="hostnames">Allowed hostnames</label>\
            <textarea id="hostnames" name="hostnames" rows="6" spellcheck="false"\(described)>\(m.hostnames)</textarea>\
            <p class="hint" id="hostnames-hint">One per line: shop.example.com, or *.example.com for every name under \
            example.com; at most \(String(AllowedHostnames.maxCount)).</p></div>
            <div class="actions"><button type="submit" id="save-settings" class="primary">Save settings</button></div>
            </form>
            \(keys)
            """
        return ConsoleLayout.page(status: status, title: "Settings", section: .settings, csrf: csrf, main: main)
    }
}
