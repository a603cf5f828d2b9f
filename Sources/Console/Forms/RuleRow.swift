import Core
import Model

/// One routing rule as the link form shows it (`rule-<i>-<field>`): the lists typed as
/// codes separated by commas or spaces, platforms and devices as checkboxes, the URL as
/// typed. It becomes the API's `rules[i]` unchanged but for the split, so that the API's
/// rules judge it.
struct RuleRow: Sendable, Equatable {
    var countries = ""
    /// Checked `RulePlatform` values, in `allCases` order.
    var platforms: [String] = []
    var languages = ""
    /// Checked `DeviceClass` values, in `allCases` order.
    var devices: [String] = []
    var skipApp = false
    var url = ""

    init() {}

    /// Row `index` of a posted form.
    init(_ form: FormBody, index: Int) {
        let prefix = "rule-\(index)-"
        countries = form.text(prefix + "countries")
        let platformValues = form.values(prefix + "platforms")
        platforms = RulePlatform.allCases.map(\.rawValue).filter(platformValues.contains)
        languages = form.text(prefix + "languages")
        let deviceValues = form.values(prefix + "devices")
        devices = DeviceClass.allCases.map(\.rawValue).filter(deviceValues.contains)
        skipApp = form[prefix + "skipApp"] != nil
        url = form.text(prefix + "url")
    }

    /// A stored rule.
    init(_ rule: LinkRule) {
        countries = (rule.conditions.countries ?? []).joined(separator: ", ")
        let platformValues = (rule.conditions.platforms ?? []).map(\.rawValue)
        platforms = RulePlatform.allCases.map(\.rawValue).filter(platformValues.contains)
        languages = (rule.conditions.languages ?? []).joined(separator: ", ")
        let deviceValues = (rule.conditions.devices ?? []).map(\.rawValue)
        devices = DeviceClass.allCases.map(\.rawValue).filter(deviceValues.contains)
        skipApp = rule.skipApp
        url = rule.url
    }

    /// Nothing typed or checked: the form's spare row, not sent.
    var isBlank: Bool {
        countries.isEmpty && platforms.isEmpty && languages.isEmpty && devices.isEmpty && !skipApp && url.isEmpty
    }

    /// The API's rule: an empty list is left out (it holds for every visitor); countries
    /// are sent upper case, as the API keeps them.
    var json: JSONValue {
        var conditions: [(String, JSONValue)] = []
        func add(_ name: String, _ values: [String]) {
            if !values.isEmpty { conditions.append((name, .array(values.map { .string($0) }))) }
        }
        add("countries", Self.split(countries).map { $0.uppercased() })
        add("platforms", platforms)
        add("languages", Self.split(languages))
        add("devices", devices)
        var out: [(String, JSONValue)] = [("if", .object(conditions)), ("url", .string(url))]
        if skipApp { out.append(("skipApp", .bool(true))) }
        return .object(out)
    }

    /// A typed list: the values between commas, spaces and tabs.
    static func split(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == ";" }).map(String.init)
    }
}
