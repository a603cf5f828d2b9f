import HTTPMessages
import Model
import Templates

/// `GET /console/tags`: the workspace's tags, each with its links, a form to rename or
/// recolour it and one to delete it; then a form for a new one. A colour is shown as a
/// swatch beside its name, never alone. After a refusal the page comes back (422)
/// with what was typed and the API's message under the field it concerns: `name`,
/// `color` for a new tag, `name-<id>`, `color-<id>` for a tag's row.
enum TagsPage {
    struct Model {
        var tags: [Tag]
        /// A new tag's typed name and colour.
        var name = ""
        var color = TagColor.gray.rawValue
        /// A row's typed name and colour after a refused change, by tag id.
        var typed: [String: (name: String, color: String)] = [:]
        var errors: [String: String] = [:]
        var otherErrors: [String] = []
    }

    static func render(_ m: Model, status: Int = 200, csrf: String) -> HTTPResponse {
        let problems = m.errors.count + m.otherErrors.count
        let summary: HTML =
            problems == 0
            ? .empty
            : """
            <div class="alert" id="form-errors" role="alert"><p>Not saved: \(Format.count(problems)) \
            problem\(problems == 1 ? "" : "s").</p>\(m.otherErrors.map { "<p class=\"form-error\">\($0)</p>" as HTML })</div>
            """
        let rows: [HTML] = m.tags.map { tag in
            let typed = m.typed[tag.id] ?? (tag.name, tag.color.rawValue)
            let name = "name-" + tag.id
            let color = "color-" + tag.id
            return """
                <tr id="tag-\(tag.id)"><th scope="row">\(TagBadge.badge(tag))</th><td>\(TagBadge.swatch(tag.color))</td>\
                <td><a href="\(ConsolePaths.linkList(q: "", domain: "", tagId: tag.id, after: nil))">Its links</a></td>
                <td><form class="tag-edit" method="post" action="\(ConsolePaths.tag(tag.id))">\
                <input type="hidden" name="csrf" value="\(csrf)">\
                \(LinkFormPage.field(name, "Name", control: nameInput(name, typed.name, m.errors), m.errors))\
                \(LinkFormPage.field(color, "Colour", control: colorSelect(color, typed.color, m.errors), m.errors))\
                <button type="submit" class="secondary" id="save-\(tag.id)">Save \(tag.name)</button></form></td>
                <td><form method="post" action="\(ConsolePaths.deleteTag(tag.id))">\
                <input type="hidden" name="csrf" value="\(csrf)">\
                <button type="submit" class="danger" id="delete-\(tag.id)">Delete \(tag.name)</button></form></td></tr>
                """
        }
        let body =
            rows.isEmpty ? Tables.empty("tags-empty", columns: 5, "There is no tag yet.") : HTML.join(rows)
        let main: HTML = """
            <h1>Tags</h1>
            \(summary)
            <p>Tags label links (at most \(String(LinkOptions.maxTags)) a link): check them on a link's form, and \
            filter the links list by one. A name is unique ignoring case. Deleting a tag takes it off its links; the \
            links stay.</p>
            <table id="tags"><caption>Tags</caption>
            <thead><tr><th scope="col">Tag</th><th scope="col">Colour</th><th scope="col">Links</th>\
            <th scope="col">Rename or recolour</th><th scope="col">Delete</th></tr></thead>
            <tbody>\(body)</tbody></table>
            <h2 id="new-tag">New tag</h2>
            <form id="tag-form" method="post" action="\(ConsolePaths.tags)" novalidate>
            <input type="hidden" name="csrf" value="\(csrf)">
            \(LinkFormPage.field("name", "Name", control: nameInput("name", m.name, m.errors), m.errors, hint: "1 to \(Tag.maxNameLength) characters."))
            \(LinkFormPage.field("color", "Colour", control: colorSelect("color", m.color, m.errors), m.errors))
            <div class="actions"><button type="submit" class="primary" id="create-tag">Create tag</button></div>
            </form>
            """
        return ConsoleLayout.page(status: status, title: "Tags", section: .tags, csrf: csrf, main: main)
    }

    private static func nameInput(_ name: String, _ value: String, _ errors: [String: String]) -> HTML {
        LinkFormPage.input(name, value, type: "text", errors, hint: name == "name")
    }

    private static func colorSelect(_ name: String, _ selected: String, _ errors: [String: String]) -> HTML {
        let options = LinkFormPage.options(
            TagColor.allCases.map { ($0.rawValue, TagBadge.colorNames[$0] ?? $0.rawValue) }, selected: selected,
            empty: nil)
        return
            "<select id=\"\(name)\" name=\"\(name)\"\(LinkFormPage.describedBy(name, errors, hint: false))>\(options)</select>"
    }
}
