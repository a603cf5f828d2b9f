import HTTP
import HTTPMessages
import Templates

/// `/_biqli/assets/<name>.<hash>.<ext>`: the pages' CSS, script and icons, embedded in
/// the binary. Only exact content-hashed names exist, so traversal has nothing to find;
/// answers are immutable for a year and gzip-compressed when the client accepts it.
/// Beside them, `/_biqli/analytics-v1.js`, `analytics-v2.js` and `analytics-v3.js`, the conversion-tracking
/// scripts for customers' own sites (their names are versioned instead of hashed: their
/// pages pin them).
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
        for name in AssetCatalog.analyticsScriptNames {
            router.add([.get], AssetCatalog.analyticsScriptPath(name), name: "analytics script") { request, _, _ in
                .response(AssetCatalog.analyticsScript(name, acceptEncoding: request.headers["accept-encoding"]))
            }
        }
    }
}
