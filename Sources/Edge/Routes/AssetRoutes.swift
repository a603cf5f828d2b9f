import HTTP
import HTTPTypes
import Templates

/// `/_biqli/assets/<name>.<hash>.<ext>`: the pages' CSS, script and icons, embedded in
/// the binary. Only exact content-hashed names exist, so traversal has nothing to find;
/// answers are immutable for a year and gzip-compressed when the client accepts it.
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
    }
}
