import HTTP
import HTTPTypes
import Templates

/// `/_biqli/assets/<name>.<hash>.<ext>`: the pages' CSS, script and icons, embedded in
/// the binary. Only exact content-hashed names exist, so traversal has nothing to find;
/// answers are immutable for a year and gzip-compressed when the client accepts it.
/// Beside them, `/_biqli/analytics-v1.js`, the conversion-tracking script for customers'
/// own sites (its name is versioned instead of hashed: their pages pin it).
enum AssetRoutes {
    static func install(on router: RouterBuilder) {
        router.add([.get], "/_biqli/assets/*path", name: "asset") { request, _, params in
            guard let path = params["path"],
                let page = AssetCatalog.response(
                    path: path, acceptEncoding: request.headers["accept-encoding"])
            else {
                return .response(.text(404, "not found\n"))
            }
            return .response(page)
        }
        router.add([.get], AssetCatalog.analyticsScriptPath, name: "analytics script") { request, _, _ in
            .response(AssetCatalog.analyticsScript(acceptEncoding: request.headers["accept-encoding"]))
        }
    }
}
