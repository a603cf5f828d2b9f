import HTTPMessages

/// The static assets the pages use, served by the edge under `prefix`.
///
/// Only exact, current hashed names match (`deepview.3f2a9c1e0b7d.js`): no directories, no
/// decoding, no case folding, no old hashes, so `../`, `%2e%2e`, `deepview.js` and anything else
/// unknown are all simply `nil`, which the edge answers with a 404.
public enum AssetCatalog {
    /// The reserved path prefix (the AASA excludes it from the claimed paths).
    public static let prefix = "/_biqli/assets/"

    /// Every asset, decoded once at first use.
    public static let all: [Asset] = EmbeddedAssets.files.map(Asset.init(embedded:))

    private static let byHashedName: [String: Asset] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.hashedName, $0) })
    private static let byName: [String: Asset] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The asset served at `prefix + path` (`path` is what follows the prefix, without query).
    public static func lookup(path: String) -> Asset? {
        byHashedName[path]
    }

    /// The asset for a full request path (`/_biqli/assets/deepview.<hash>.js`), or nil.
    public static func lookup(requestPath: String) -> Asset? {
        guard requestPath.hasPrefix(prefix) else { return nil }
        return lookup(path: String(requestPath.dropFirst(prefix.count)))
    }

    /// `/_biqli/assets/deepview.<hash>.js` for `"deepview.js"`; nil for a name not in `public/`.
    public static func url(for name: String) -> String? {
        byName[name]?.path
    }

    /// The whole response for a `GET` of `prefix + path`: 200 with the gzip body when the client
    /// accepts gzip and it exists, else the plain bytes. Nil for an unknown path (edge: 404).
    public static func response(path: String, acceptEncoding: String?) -> HTTPResponse? {
        guard let asset = lookup(path: path) else { return nil }
        if let gzip = asset.gzip, AcceptEncoding.allowsGzip(acceptEncoding) {
            return HTTPResponse(status: 200, headers: HTTPHeaders(asset.headers(gzipped: true)), body: gzip)
        }
        return HTTPResponse(status: 200, headers: HTTPHeaders(asset.headers(gzipped: false)), body: asset.bytes)
    }

    /// The browser scripts customers put on their own sites (conversion tracking), each at
    /// a path of its own that never changes: `/_biqli/analytics-v1.js` (click ids of
    /// tracked redirects), `/_biqli/analytics-v2.js` (also client-side click tracking,
    /// decision 0027) and `/_biqli/analytics-v3.js` (the same, sending only the link and
    /// the query values the page forwards, not the page's address: issue 33 item 9). Their
    /// bytes never change either (the README's snippets pin them with integrity hashes), so
    /// they are cached for a year; a new behaviour is a new version.
    public static let analyticsScriptNames = ["analytics-v1.js", "analytics-v2.js", "analytics-v3.js"]

    /// `/_biqli/<name>`.
    public static func analyticsScriptPath(_ name: String) -> String { "/_biqli/" + name }

    /// An analytics script's response: like any asset, plus what a page of another
    /// origin needs to load it with `integrity` and `crossorigin` (CORS) and under
    /// cross-origin isolation (`Cross-Origin-Resource-Policy`).
    public static func analyticsScript(_ name: String, acceptEncoding: String?) -> HTTPResponse {
        guard let asset = byName[name] else {
            preconditionFailure("no \(name) in public/; run scripts/gen-assets")
        }
        let gzipped = asset.gzip != nil && AcceptEncoding.allowsGzip(acceptEncoding)
        var headers = asset.headers(gzipped: gzipped)
        headers.append(("Access-Control-Allow-Origin", "*"))
        headers.append(("Cross-Origin-Resource-Policy", "cross-origin"))
        return HTTPResponse(
            status: 200, headers: HTTPHeaders(headers), body: gzipped ? asset.gzip! : asset.bytes)
    }

    /// The typed URL templates interpolate (`AssetURL` can only come from here).
    static func assetURL(_ name: String) -> AssetURL {
        guard let asset = byName[name] else {
            preconditionFailure("no asset \(name) in public/; run scripts/gen-assets")
        }
        return AssetURL(path: asset.path)
    }
}

/// A same-origin path to one of the embedded assets; only `AssetCatalog` makes them, so templates
/// may put one in `href`/`src` like a `SafeURL`.
public struct AssetURL: Sendable, Hashable {
    public let path: String
}
