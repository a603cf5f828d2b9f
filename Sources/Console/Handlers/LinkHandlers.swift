import Core
import HTTPMessages
import Management
import Model
import Store

/// The links: list, form, create, page, edit, enable and disable, delete, QR code.
extension Console {
    /// `GET /console/links?q=&domain=&tagId=&after=`.
    /// `tagId`: the links of one tag (not with a key search or a domain).
    func linksPage(_ request: ConsoleRequest, csrf: String, _ reader: any CatalogReading & LinkReading & ConsoleReading)
        throws -> HTTPResponse
    {
        let q = request.query.text("q")
        let domain = request.query.text("domain")
        let tagId = request.query.text("tagId")
        let after = request.query["after"].flatMap { $0.isEmpty ? nil : $0 }
        let limit = configuration.pageSize
        var problem: String?
        var rows: [Link] = []
        let tags = try reader.tags()
        if !tagId.isEmpty && (!q.isEmpty || !domain.isEmpty) {
            problem = LinkKeySearch.tagRule
        } else if !tagId.isEmpty {
            rows = try reader.links(tagId: tagId, after: after, limit: limit + 1)
        } else if q.isEmpty {
            rows = try reader.links(domain: domain.isEmpty ? nil : domain, after: after, limit: limit + 1)
        } else if LinkKeySearch.isSearchable(q) {
            // Results come in key order: the page goes on after the key of the link named
            // by `after` (gone since: from the start again).
            let cursor = try after.flatMap { try reader.link(id: $0) }.map { (key: $0.key, id: $0.id) }
            rows = try reader.searchLinks(
                keyPrefix: q, domain: domain.isEmpty ? nil : domain, after: cursor, limit: limit + 1)
        } else {
            problem = LinkKeySearch.rule
        }
        let page = Array(rows.prefix(limit))
        let model = LinksPage.Model(
            links: page,
            appNames: Dictionary(try reader.apps().map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a }),
            domains: try reader.domains().map(\.hostname), tags: tags, q: q, domain: domain, tagId: tagId,
            after: after,
            next: rows.count > limit ? page.last?.id : nil, queryProblem: problem)
        return LinksPage.render(model, csrf: csrf)
    }

    /// `GET /console/links/new`.
    func newLinkPage(csrf: String, _ reader: any CatalogReading & LinkReading) throws -> HTTPResponse {
        LinkFormPage.render(try formModel(LinkForm(), editing: nil, reader), csrf: csrf)
    }

    /// `POST /console/links`: the API's create; a refusal shows the form again (422)
    /// with the API's messages, a success goes to the link's page.
    func createLink(_ request: ConsoleRequest, csrf: String, _ reader: any CatalogReading & LinkReading) throws
        -> ConsoleAnswer
    {
        let form = LinkForm(request.form ?? FormBody(pairs: []))
        if Self.addsRow(request) {
            return .response(LinkFormPage.render(try formModel(form, editing: nil, reader), csrf: csrf))
        }
        let fields = form.createFields
        let now = environment.now()
        return write(request, { tx in try WorkspaceOperations.createLink(fields, now: now, tx) }) {
            [self] result, reader in
            saved(result, form: form, editing: nil, csrf: csrf, reader)
        }
    }

    /// `GET /console/links/{id}?days=N`.
    func linkPage(
        _ id: String, _ request: ConsoleRequest, csrf: String,
        _ reader: any CatalogReading & LinkReading & AnalyticsReading & ConsoleReading
    ) throws
        -> HTTPResponse
    {
        guard let link = try reader.link(id: id) else { return MessagePage.notFound(csrf: csrf) }
        let days = request.query["days"].flatMap { WholeNumber.parse($0, in: WorkspaceOperations.analyticsDays) } ?? 30
        let now = environment.now()
        let model = LinkPage.Model(
            link: link, appName: try link.mobile.flatMap { try reader.app($0.appId)?.name },
            report: try WorkspaceOperations.linkAnalytics(link: link.id, days: days, now: now, reader),
            clicks: try reader.recentClicks(link: link.id, limit: configuration.recentRows),
            opens: try reader.recentOpenEvents(link: link.id, limit: configuration.recentRows),
            tags: link.options?.tagIds.isEmpty == false ? try reader.tags() : [])
        return LinkPage.render(model, csrf: csrf)
    }

    /// `GET /console/links/{id}/edit`.
    func editLinkPage(_ id: String, csrf: String, _ reader: any CatalogReading & LinkReading) throws -> HTTPResponse {
        guard let link = try reader.link(id: id) else { return MessagePage.notFound(csrf: csrf) }
        return LinkFormPage.render(try formModel(LinkForm(link), editing: link, reader), csrf: csrf)
    }

    /// `POST /console/links/{id}`: the API's merge patch of what the form shows.
    func updateLink(_ id: String, _ request: ConsoleRequest, csrf: String, _ reader: any CatalogReading & LinkReading)
        throws -> ConsoleAnswer
    {
        let form = LinkForm(request.form ?? FormBody(pairs: []))
        if Self.addsRow(request) {
            guard let link = try reader.link(id: id) else { return .response(MessagePage.notFound(csrf: csrf)) }
            return .response(LinkFormPage.render(try formModel(form, editing: link, reader), csrf: csrf))
        }
        let now = environment.now()
        return write(
            request,
            { tx throws -> Link in
                guard let current = try tx.link(id: id) else {
                    return try WorkspaceOperations.updateLink(id, patch: [], now: now, tx)  // the API's 404
                }
                return try WorkspaceOperations.updateLink(id, patch: form.patch(of: current), now: now, tx)
            },
            answer: { [self] result, reader in
                let editing = (try? reader.link(id: id)) ?? nil
                return saved(result, form: form, editing: editing, csrf: csrf, reader)
            })
    }

    /// `POST /console/links/{id}/disable` and `/enable`.
    func setEnabled(_ id: String, _ enabled: Bool, _ request: ConsoleRequest, csrf: String) -> ConsoleAnswer {
        let now = environment.now()
        return write(
            request,
            { tx in try WorkspaceOperations.updateLink(id, patch: [("enabled", .bool(enabled))], now: now, tx) }
        ) { [self] result, _ in
            switch result {
            case .success(let link): return Self.redirect(ConsolePaths.link(link.id).path)
            case .failure(let error): return failure(error, csrf: csrf)
            }
        }
    }

    /// `GET /console/links/{id}/delete`: the confirmation.
    func confirmDeletePage(_ id: String, csrf: String, _ reader: any LinkReading) throws -> HTTPResponse {
        guard let link = try reader.link(id: id) else { return MessagePage.notFound(csrf: csrf) }
        return LinkDeletePage.render(link, csrf: csrf)
    }

    /// `POST /console/links/{id}/delete`: the API's delete, then the list.
    func deleteLink(_ id: String, _ request: ConsoleRequest, csrf: String) -> ConsoleAnswer {
        write(request, { tx in try WorkspaceOperations.deleteLink(id, tx) }) { [self] result, _ in
            if case .failure(let error) = result { return failure(error, csrf: csrf) }
            return Self.redirect(ConsolePaths.links.path)
        }
    }

    /// `GET /console/links/{id}/qr.svg`: the API's QR code (default size, margin and
    /// level), for the page's `<img>`: a session's image, so no-store as the pages.
    func qrCode(_ id: String, csrf: String, _ reader: any LinkReading) throws -> HTTPResponse {
        guard let link = try reader.link(id: id) else { return MessagePage.notFound(csrf: csrf) }
        var headers = ConsoleHeaders.common()
        headers.add("Content-Type", "image/svg+xml")
        headers.add("Cache-Control", "private, no-store")
        return HTTPResponse(status: 200, headers: headers, body: try WorkspaceOperations.qrCodeSVG(link))
    }

    // MARK: helpers

    /// "Add a rule" or "Add a variant": the form again with one more row, nothing saved.
    static func addsRow(_ request: ConsoleRequest) -> Bool {
        !(request.form?.text("add").isEmpty ?? true)
    }

    private func formModel(_ form: LinkForm, editing: Link?, _ reader: any CatalogReading & LinkReading) throws
        -> LinkFormPage.Model
    {
        LinkFormPage.Model(
            form: form, editing: editing, domains: try reader.domains().map(\.hostname),
            apps: try reader.apps().map { (id: $0.id, name: $0.name) }, tags: try reader.tags())
    }

    /// After a create or an update: the link's page, or the form again with the API's
    /// messages by field (422).
    private func saved(
        _ result: Result<Link, WriteError<ConsoleRefusal>>, form: LinkForm, editing: Link?, csrf: String,
        _ reader: any CatalogReading & LinkReading
    ) -> HTTPResponse {
        switch result {
        case .success(let link):
            return Self.redirect(ConsolePaths.link(link.id).path)
        case .failure(.refused(.operation(let refusal))) where refusal.status != 404 && !refusal.problems.isEmpty:
            let (byField, other) = LinkForm.errors(refusal.problems)
            do {
                var model = try formModel(form, editing: editing, reader)
                model.errors = byField
                model.otherErrors = other
                return LinkFormPage.render(model, status: 422, csrf: csrf)
            } catch {
                environment.log.error("console request failed", [("detail", .string("\(error)"))])
                return MessagePage.failure(csrf: csrf)
            }
        case .failure(let error):
            return failure(error, csrf: csrf)
        }
    }
}

/// The links list's search: the start of a key, results in key order (the list without a
/// search is in id order, which is creation order). Keys are `[A-Za-z0-9_-]`, so a search
/// of other characters can match nothing and is said so instead of asked of the store.
enum LinkKeySearch {
    static let rule = "Search by the start of a key: letters, digits, - and _ (at most 64)."
    static let tagRule = "Filter by a tag, or search by key and domain: not both at once."

    static func isSearchable(_ q: String) -> Bool {
        q.utf8.count <= 64
            && q.utf8.allSatisfy {
                ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                    || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: "_")
            }
    }
}
