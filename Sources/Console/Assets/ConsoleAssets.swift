import Core
import HTTPMessages
import Templates

/// The console's stylesheet, script and icon, in the binary, served under
/// `/console/assets/`: at `console.<hash>.css` (and so on: what pages link to: immutable, a year)
/// and at `console.css` (for whoever types it: `ETag`, revalidated each time).
enum ConsoleAssets {
    struct File: Sendable {
        let name: String
        let hashedName: String
        let contentType: String
        let bytes: [UInt8]
        let etag: String

        init(name: String, contentType: String, text: String) {
            self.name = name
            self.contentType = contentType
            bytes = Array(text.utf8)
            let hash = String(SHA256.hex(SHA256.hash(bytes)).prefix(12))
            let dot = name.lastIndex(of: ".")!
            hashedName = String(name[..<dot]) + "." + hash + String(name[dot...])
            etag = "\"" + hash + "\""
        }

        var url: LocalURL { LocalURL("/console/assets/" + hashedName)! }
    }

    static let stylesheet = File(
        name: "console.css", contentType: "text/css; charset=utf-8", text: ConsoleStylesheet.text)
    static let script = File(
        name: "console.js", contentType: "text/javascript; charset=utf-8", text: ConsoleScript.text)
    /// Linked from every page: without it a browser asks for `/favicon.ico`, which the
    /// console listener does not serve (404 in the browser's console on every page).
    static let icon = File(
        name: "icon.svg", contentType: "image/svg+xml",
        text: """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">\
            <rect width="16" height="16" rx="3" fill="#1f4fd1"/>\
            <path d="M5 3h4a3 3 0 0 1 0 6H7v4H5z" fill="#fff"/></svg>
            """)
    static let all = [stylesheet, script, icon]

    /// The answer for `/console/assets/<name>`; nil for a name that is neither form of a file.
    static func response(name: String, ifNoneMatch: String?) -> HTTPResponse? {
        guard let file = all.first(where: { $0.hashedName == name || $0.name == name }) else { return nil }
        var headers = ConsoleHeaders.common()
        headers.add("Content-Type", file.contentType)
        headers.add("ETag", file.etag)
        if name == file.hashedName {
            headers.add("Cache-Control", "public, max-age=31536000, immutable")
        } else {
            headers.add("Cache-Control", "no-cache")
        }
        if let tags = ifNoneMatch, tags.split(separator: ",").contains(where: { $0.trimmed == file.etag }) {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(status: 200, headers: headers, body: file.bytes)
    }
}
