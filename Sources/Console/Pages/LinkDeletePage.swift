import HTTPMessages
import Model
import Templates

/// `GET /console/links/{id}/delete`: the confirmation step (without script): deleting is
/// a POST of this page's form.
enum LinkDeletePage {
    static func render(_ link: Link, csrf: String) -> HTTPResponse {
        let main: HTML = """
            <h1>Delete \(link.shortUrl)?</h1>
            <p>Visits of this short URL will get the domain's not-found answer, and app opens will no longer \
            match it. Its clicks stay counted until retention removes them. This cannot be undone: to stop the \
            link for a while, disable it instead.</p>
            <form method="post" action="\(ConsolePaths.deleteLink(link.id))" class="actions">
            <input type="hidden" name="csrf" value="\(csrf)">
            <button type="submit" class="danger" id="confirm-delete">Delete the link</button>
            <a href="\(ConsolePaths.link(link.id))" id="cancel-delete">Keep it</a>
            </form>
            """
        return ConsoleLayout.page(title: "Delete " + link.shortUrl, section: .links, csrf: csrf, main: main)
    }
}
