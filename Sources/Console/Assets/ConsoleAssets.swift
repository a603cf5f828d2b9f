import Core
import HTTPTypes
import Templates

/// The console's stylesheet and script, in the binary, served under
/// `/console/assets/`: at `console.<hash>.css` (what pages link to: immutable, a year)
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
    static let all = [stylesheet, script]

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
