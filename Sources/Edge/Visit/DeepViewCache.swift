import Core
import HTTPMessages
import Model
import Store
import Templates

/// Deep View templates per loop, by link and language, kept while the link and its app
/// are unchanged (their `updatedAt`), so that a visit fills in a token and a nonce
/// instead of rendering the whole page.
final class DeepViewCache: Sendable {
    private struct Entry {
        var linkUpdatedAt: Int64
        var appId: String
        var appUpdatedAt: Int64
        var template: DeepViewTemplate
    }

    private let pages: Pages
    private let entries: PerLoop<[String: Entry]>
    /// Entries per loop before that loop's cache starts over.
    let capacity: Int

    init(pages: Pages, loops: Int, capacity: Int = 4_096) {
        self.pages = pages
        self.capacity = capacity
        self.entries = PerLoop(count: loops) { [:] }
    }

    /// The Deep View of `link` for this visit, or nil when the page cannot be built (the
    /// caller then uses the iOS fallback). Call only on loop `loop`'s thread.
    func page(app: MobileApp, link: Link, token: String, nonce: CSPNonce, acceptLanguage: String?, loop: Int)
        -> HTTPResponse?
    {
        let language = pages.language(for: acceptLanguage)
        let key = link.id + "|" + language
        return entries.with(loop) { cache -> HTTPResponse? in
            if let hit = cache[key], hit.linkUpdatedAt == link.updatedAt, hit.appId == app.id,
                hit.appUpdatedAt == app.updatedAt
            {
                return hit.template.render(token: token, nonce: nonce)
            }
            guard let model = DeepViewModel(app: app, link: link, handoffToken: token),
                let template = pages.deepViewTemplate(model, acceptLanguage: acceptLanguage)
            else { return nil }
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[key] = Entry(
                linkUpdatedAt: link.updatedAt, appId: app.id, appUpdatedAt: app.updatedAt, template: template)
            return template.render(token: token, nonce: nonce)
        }
    }
}
