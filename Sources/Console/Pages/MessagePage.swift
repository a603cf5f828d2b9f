import HTTPMessages
import Templates

/// A page that only says something: not found, a refused form, a failure.
enum MessagePage {
    /// Inside a session when `csrf` is given (the header's navigation), else outside.
    static func render(
        status: Int, title: String, message: String, csrf: String?, back: (LocalURL, String)? = nil,
        extraHeaders: [(String, String)] = []
    ) -> HTTPResponse {
        let link: HTML = back.map { "<p><a href=\"\($0.0)\">\($0.1)</a></p>" } ?? .empty
        let main: HTML = "<h1>\(title)</h1>\n<p>\(message)</p>\n\(link)"
        guard let csrf else {
            return ConsoleLayout.publicPage(status: status, title: title, main: main, extraHeaders: extraHeaders)
        }
        return ConsoleLayout.page(
            status: status, title: title, section: nil, csrf: csrf, main: main, extraHeaders: extraHeaders)
    }

    static func notFound(csrf: String?) -> HTTPResponse {
        render(
            status: 404, title: "Not found", message: "There is no such page in the console.", csrf: csrf,
            back: (ConsolePaths.overview, "Go to the overview"))
    }

    /// A POST without its form's token (or with another's): nothing was changed.
    static func forbidden(csrf: String?) -> HTTPResponse {
        render(
            status: 403, title: "Form refused",
            message:
                "The form was sent without its security token, or with an old one, so nothing was changed. Open the page again and send the form from there.",
            csrf: csrf, back: (ConsolePaths.overview, "Go to the overview"))
    }

    static func badRequest(csrf: String?) -> HTTPResponse {
        render(
            status: 400, title: "Request not understood",
            message: "The request's address or form could not be read.", csrf: csrf)
    }

    static func failure(csrf: String?) -> HTTPResponse {
        render(
            status: 500, title: "Something failed",
            message: "The edge could not complete this; it has logged why. Try again in a moment.", csrf: csrf,
            extraHeaders: [("Retry-After", "2")])
    }
}
