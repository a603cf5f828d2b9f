import HTTPMessages

/// The page link-preview bots (iMessage, Slack, WhatsApp, ...) get: Open Graph and Twitter tags,
/// and a readable card for anyone who ends up seeing it. No script, no click, no token.
enum LinkPreviewPage {
    static func render(_ model: LinkPreviewModel, strings: LocalizedStrings) -> HTTPResponse {
        let title = PageShell.clamp(model.displayTitle, to: PageShell.maxTitleLength)
        let description = model.description.map { PageShell.clamp($0, to: PageShell.maxDescriptionLength) }
        var tags: [HTML] = [
            "<meta property=\"og:type\" content=\"website\">\n",
            "<meta property=\"og:url\" content=\"\(model.shortURL)\">\n",
            "<meta property=\"og:title\" content=\"\(title)\">\n",
            "<meta name=\"twitter:card\" content=\"\(model.imageURL == nil ? "summary" : "summary_large_image")\">\n",
            "<meta name=\"twitter:title\" content=\"\(title)\">\n",
        ]
        if let siteName = model.siteName.nonEmpty {
            tags.append(
                "<meta property=\"og:site_name\" content=\"\(PageShell.clamp(siteName, to: PageShell.maxNameLength))\">\n"
            )
        }
        if let description {
            tags.append("<meta name=\"description\" content=\"\(description)\">\n")
            tags.append("<meta property=\"og:description\" content=\"\(description)\">\n")
            tags.append("<meta name=\"twitter:description\" content=\"\(description)\">\n")
        }
        if let image = model.imageURL {
            tags.append("<meta property=\"og:image\" content=\"\(image)\">\n")
            tags.append("<meta name=\"twitter:image\" content=\"\(image)\">\n")
        }
        let image: HTML = model.imageURL.map { "<img class=\"hero hero-top\" src=\"\($0)\" alt=\"\">\n" } ?? .empty
        let lead: HTML = description.map { "\n<p class=\"lead\" dir=\"auto\">\($0)</p>" } ?? .empty
        let button: HTML =
            model.webURL.map { "\n<a class=\"button\" href=\"\($0)\">\(strings[.previewOpen])</a>" } ?? .empty
        let body: HTML = """
            <main class="card">
            \(image)<h1 dir="auto">\(title)</h1>\(lead)\(button)
            <p class="footer">\(model.shortURL.host)</p>
            </main>
            """
        return PageShell.render(
            status: 200, strings: strings, title: title, head: HTML.join(tags), body: body, indexable: true)
    }
}
