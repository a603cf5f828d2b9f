import HTTPMessages
import Model
import Templates

/// `GET /console/links?q=&domain=&tagId=&after=`: a page of links in id order (creation
/// order, ids being ULIDs), searched by the start of their key, filtered by domain, or the
/// links of one tag; each row shows the link's tags.
enum LinksPage {
    struct Model {
        var links: [Link]
        /// App names by id.
        var appNames: [String: String]
        var domains: [String]
        /// The workspace's tags, in id order.
        var tags: [Tag] = []
        var q: String
        var domain: String
        var tagId = ""
        /// The page started after this id (nil: the first page).
        var after: String?
        /// The id to start the next page after; nil on the last page.
        var next: String?
        /// Why `q` cannot match any key, when it cannot.
        var queryProblem: String?
    }

    static func render(_ m: Model, csrf: String) -> HTTPResponse {
        let options: [HTML] =
            ["<option value=\"\">All domains</option>"]
            + m.domains.map { d in
                d == m.domain ? "<option value=\"\(d)\" selected>\(d)</option>" : "<option value=\"\(d)\">\(d)</option>"
            }
        let tagsById = Dictionary(m.tags.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let tagOptions = LinkFormPage.options(
            m.tags.map { ($0.id, $0.name) }, selected: m.tagId, empty: "All tags")
        let rows: [HTML] = m.links.map { link in
            let app: HTML =
                link.mobile.map { "\(m.appNames[$0.appId] ?? $0.appId)" } ?? "<span class=\"note\">none</span>"
            let status: HTML =
                link.enabled
                ? "<span class=\"status-enabled\">Enabled</span>" : "<span class=\"status-disabled\">Disabled</span>"
            let linkTags: [HTML] = (link.options?.tagIds ?? []).compactMap { id in
                tagsById[id].map { TagBadge.badge($0) }
            }
            return """
                <tr data-link-id="\(link.id)"><th scope="row"><a href="\(ConsolePaths.link(link.id))">\(link.shortUrl)</a></th>\
                <td class="url">\(link.url)</td><td>\(app)</td><td>\(linkTags)</td><td>\(status)</td></tr>
                """
        }
        let searching = !m.q.isEmpty || !m.domain.isEmpty || !m.tagId.isEmpty
        let problem: HTML = m.queryProblem.map { "<p class=\"form-error\" id=\"q-error\">\($0)</p>" } ?? .empty
        let qInput: HTML =
            m.queryProblem == nil
            ? "<input id=\"q\" name=\"q\" type=\"search\" value=\"\(m.q)\" spellcheck=\"false\">"
            : """
            <input id="q" name="q" type="search" value="\(m.q)" spellcheck="false" aria-invalid="true" \
            aria-describedby="q-error">
            """
        let body =
            rows.isEmpty
            ? Tables.empty("links-empty", columns: 5, searching ? "No link matches." : "There is no link yet.")
            : HTML.join(rows)
        let table: HTML = """
            <table id="links"><caption>Links\(searching ? " found" : "")\(m.after == nil ? "" : ", continued")</caption>
            <thead><tr><th scope="col">Short URL</th><th scope="col">Destination</th><th scope="col">Mobile app</th>\
            <th scope="col">Tags</th><th scope="col">Status</th></tr></thead>
            <tbody>\(body)</tbody></table>
            """
        var pages: [HTML] = []
        if m.after != nil {
            pages.append(
                "<a id=\"first-page\" href=\"\(ConsolePaths.linkList(q: m.q, domain: m.domain, tagId: m.tagId, after: nil))\">First page</a>"
            )
        }
        if let next = m.next {
            pages.append(
                "<a id=\"next-page\" href=\"\(ConsolePaths.linkList(q: m.q, domain: m.domain, tagId: m.tagId, after: next))\">Next page</a>"
            )
        }
        let pagination: HTML = pages.isEmpty ? .empty : "<nav class=\"actions\" aria-label=\"Pages\">\(pages)</nav>"
        let main: HTML = """
            <h1>Links</h1>
            <div class="actions"><a class="button" id="new-link" href="\(ConsolePaths.newLink)">New link</a></div>
            <form class="search" method="get" action="\(ConsolePaths.links)" role="search" aria-label="Links">
            <div><label for="q">Key starts with</label>\(qInput)\(problem)</div>
            <div><label for="domain">Domain</label><select id="domain" name="domain">\(options)</select></div>
            <div><label for="tagId">Tag</label><select id="tagId" name="tagId">\(tagOptions)</select></div>
            <div><button type="submit" class="secondary" id="search">Search</button></div>
            </form>
            \(table)
            \(pagination)
            """
        return ConsoleLayout.page(title: "Links", section: .links, csrf: csrf, main: main)
    }
}
