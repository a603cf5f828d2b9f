import Model
import Templates

/// The link form's fieldsets for decision 0032's fields: routing rules (typed rows plus
/// blank ones, "Add a rule"), the A/B test's variants ("Add a variant"), UTM, the
/// visitor's query, expiry (UTC), tags (checkboxes) and the external id. Field names are
/// `LinkOptionsForm`'s; an error is shown under the field or group the API named.
enum LinkOptionsFields {
    static let platformNames: [(String, String)] = [("ios", "iOS"), ("android", "Android"), ("desktop", "Desktop")]
    static let deviceNames: [(String, String)] = [("phone", "Phone"), ("tablet", "Tablet"), ("desktop", "Desktop")]
    /// Arm i's letter: A is the control.
    static func armName(_ i: Int) -> String { String(UnicodeScalar(UInt8(65 + i))) }

    static func render(_ o: LinkOptionsForm, tags: [Tag], _ errors: [String: String]) -> HTML {
        """
        \(rules(o, errors))
        \(variants(o, errors))
        \(utm(o, errors))
        <fieldset class="options" id="query-options"><legend>Visitor's query and expiry</legend>
        \(LinkFormPage.field("passQuery", "Visitor's query parameters", control: passQuery(o.passQuery, errors), errors))
        \(LinkFormPage.field("expiresAt", "Expires at (UTC)", control: LinkFormPage.input("expiresAt", o.expiresAt, type: "datetime-local", errors, hint: true, step: true), errors, hint: "A date and time in UTC (not your time zone), such as 2027-01-31 23:59. Empty: never."))
        \(LinkFormPage.field("expiredUrl", "After it expires, send visitors to", control: LinkFormPage.input("expiredUrl", o.expiredUrl, type: "url", errors, hint: true), errors, hint: "Empty: visitors get a page saying the link has expired (410)."))
        </fieldset>
        <fieldset class="options" id="label-options"><legend>Tags and external ID</legend>
        \(tagChoices(o.tagIds, tags: tags, errors))
        \(LinkFormPage.field("externalId", "External ID", control: LinkFormPage.input("externalId", o.externalId, type: "text", errors, hint: true), errors, hint: "Optional: your own ID of the link, unique in the workspace (the API addresses it as ext_<ID>)."))
        </fieldset>
        """
    }

    private static func error(_ name: String, _ errors: [String: String]) -> HTML {
        errors[name].map { "<p class=\"field-error\" id=\"\(name)-error\">\($0)</p>" } ?? .empty
    }

    private static func groupDescribedBy(_ name: String, _ errors: [String: String], hint: String? = nil) -> HTML {
        if errors[name] != nil { return " aria-describedby=\"\(name)-error\"" }
        return hint.map { " aria-describedby=\"\($0)\"" } ?? .empty
    }

    private static func rules(_ o: LinkOptionsForm, _ errors: [String: String]) -> HTML {
        let rows = o.rules + Array(repeating: RuleRow(), count: o.blankRules)
        let add: HTML =
            rows.count < LinkOptions.maxRules
            ? "<button type=\"submit\" name=\"add\" value=\"rule\" class=\"secondary\" id=\"add-rule\">Add a rule</button>"
            : "<p class=\"note\">\(LinkOptions.maxRules) rules at most.</p>"
        return """
            <fieldset class="options" id="rules"\(groupDescribedBy("rules", errors, hint: "rules-hint"))><legend>Routing rules</legend>
            <p class="hint" id="rules-hint">The first rule whose filled conditions all hold sends the visitor to its URL \
            instead of the destination URL. Type codes separated by commas or spaces (countries: DE, AT; languages: pt, \
            pt-BR); a condition left empty holds for everyone. A blank rule is not saved.</p>
            \(error("rules", errors))
            <input type="hidden" name="ruleRows" value="\(String(rows.count))">
            \(rows.enumerated().map { rule($1, index: $0, errors) })
            <div class="actions">\(add)</div>
            </fieldset>
            """
    }

    private static func rule(_ r: RuleRow, index i: Int, _ errors: [String: String]) -> HTML {
        let p = "rule-\(i)"
        return """
            <fieldset class="row" id="\(p)"\(groupDescribedBy(p, errors))><legend>Rule \(String(i + 1))</legend>
            \(error(p, errors))
            <div class="row-fields">
            \(LinkFormPage.field(p + "-countries", "Countries", control: LinkFormPage.input(p + "-countries", r.countries, type: "text", errors), errors))
            \(LinkFormPage.field(p + "-languages", "Languages", control: LinkFormPage.input(p + "-languages", r.languages, type: "text", errors), errors))
            \(checkboxes(p + "-platforms", "Platforms", platformNames, checked: r.platforms, errors))
            \(checkboxes(p + "-devices", "Devices", deviceNames, checked: r.devices, errors))
            </div>
            \(LinkFormPage.field(p + "-url", "Then send to URL", control: LinkFormPage.input(p + "-url", r.url, type: "url", errors), errors))
            <div class="check"><input id="\(p)-skipApp" type="checkbox" name="\(p)-skipApp" value="on"\(r.skipApp ? " checked" : "" as HTML)\
            \(errors[p + "-skipApp"] != nil ? " aria-describedby=\"\(p)-skipApp-error\"" : "" as HTML)>\
            <label for="\(p)-skipApp">Also app visitors on a phone or tablet (instead of the store or the Deep View)</label></div>
            \(error(p + "-skipApp", errors))
            </fieldset>
            """
    }

    private static func checkboxes(
        _ name: String, _ legend: String, _ choices: [(String, String)], checked: [String], _ errors: [String: String]
    ) -> HTML {
        let boxes: [HTML] = choices.map { value, label in
            """
            <span class="check"><input id="\(name)-\(value)" type="checkbox" name="\(name)" value="\(value)"\
            \(checked.contains(value) ? " checked" : "" as HTML)><label for="\(name)-\(value)">\(label)</label></span>
            """
        }
        return """
            <fieldset class="choices" id="\(name)"\(groupDescribedBy(name, errors))><legend>\(legend)</legend>\
            \(boxes)\(error(name, errors))</fieldset>
            """
    }

    private static func variants(_ o: LinkOptionsForm, _ errors: [String: String]) -> HTML {
        let rows = o.variants + Array(repeating: VariantRow(), count: o.blankVariants)
        let add: HTML =
            rows.count < LinkOptions.variantCount.upperBound
            ? "<button type=\"submit\" name=\"add\" value=\"variant\" class=\"secondary\" id=\"add-variant\">Add a variant</button>"
            : "<p class=\"note\">\(LinkOptions.variantCount.upperBound) variants at most.</p>"
        let items: [HTML] = rows.enumerated().map { i, v in
            let p = "variant-\(i)"
            return """
                <fieldset class="row variant" id="\(p)"\(groupDescribedBy(p, errors))><legend>Variant \(armName(i))\(i == 0 ? " (control)" : "")</legend>
                \(error(p, errors))
                <div class="row-fields">
                \(LinkFormPage.field(p + "-url", "URL", control: LinkFormPage.input(p + "-url", v.url, type: "url", errors), errors))
                \(LinkFormPage.field(p + "-weight", "Weight (%)", control: LinkFormPage.input(p + "-weight", v.weight, type: "number", errors), errors))
                </div></fieldset>
                """
        }
        return """
            <fieldset class="options" id="variants"\(groupDescribedBy("variants", errors, hint: "variants-hint"))><legend>A/B test</legend>
            <p class="hint" id="variants-hint">2 to 5 URLs whose weights (percent) sum to 100 share the web visits that \
            no rule took; a returning visitor keeps their variant (a cookie). Leave them empty for no test. Variant A is \
            the control the link's page compares the others with.</p>
            \(error("variants", errors))
            <input type="hidden" name="variantRows" value="\(String(rows.count))">
            \(items)
            <div class="actions">\(add)</div>
            </fieldset>
            """
    }

    private static func utm(_ o: LinkOptionsForm, _ errors: [String: String]) -> HTML {
        let inputs: [HTML] = zip(LinkOptionsForm.utmNames, o.utm).map { name, value in
            LinkFormPage.field(
                "utm_" + name, "utm_" + name,
                control: LinkFormPage.input("utm_" + name, value, type: "text", errors), errors)
        }
        return """
            <fieldset class="options" id="utm"\(groupDescribedBy("utm", errors, hint: "utm-hint"))><legend>UTM parameters</legend>
            <p class="hint" id="utm-hint">Added to every web URL the link sends to (the destination, the rules' and the \
            variants'), replacing the URL's own of the same name; never to store or app URLs. At most 256 characters each.</p>
            \(error("utm", errors))
            <div class="row-fields">\(inputs)</div>
            </fieldset>
            """
    }

    private static func passQuery(_ value: String, _ errors: [String: String]) -> HTML {
        let choices: [(String, String)] = [
            ("", "The domain's default"), ("on", "Pass them on to the web URL"), ("off", "Do not pass them"),
        ]
        let options: [HTML] = choices.map { v, label in
            v == value
                ? "<option value=\"\(v)\" selected>\(label)</option>" : "<option value=\"\(v)\">\(label)</option>"
        }
        return """
            <select id="passQuery" name="passQuery"\(LinkFormPage.describedBy("passQuery", errors, hint: false))>\
            \(options)</select>
            """
    }

    private static func tagChoices(_ checked: [String], tags: [Tag], _ errors: [String: String]) -> HTML {
        guard !tags.isEmpty || !checked.isEmpty else {
            return """
                <p class="note" id="tagIds">No tags yet: make them on the <a href="\(ConsolePaths.tags)">Tags</a> page.</p>
                """
        }
        var boxes: [HTML] = tags.map { tag in
            """
            <span class="check"><input id="tag-\(tag.id)" type="checkbox" name="tagIds" value="\(tag.id)"\
            \(checked.contains(tag.id) ? " checked" : "" as HTML)><label for="tag-\(tag.id)">\(TagBadge.badge(tag))</label></span>
            """
        }
        // A checked tag deleted since the form was shown stays, so the form says what was sent.
        for id in checked where !tags.contains(where: { $0.id == id }) {
            boxes.append(
                """
                <span class="check"><input id="tag-\(id)" type="checkbox" name="tagIds" value="\(id)" checked>\
                <label for="tag-\(id)">\(id)</label></span>
                """)
        }
        return """
            <fieldset class="choices" id="tagIds"\(groupDescribedBy("tagIds", errors))><legend>Tags</legend>\
            \(boxes)\(error("tagIds", errors))</fieldset>
            """
    }
}
