import Core
import HTTPMessages
import Management
import Model
import Store

/// Mobile apps: their page and the rotation of their publishable keys.
extension Console {
    /// `GET /console/apps/{id}`.
    func appPage(_ id: String, csrf: String, _ reader: any CatalogReading & KeyReading) throws -> HTTPResponse {
        guard let app = try reader.app(id) else { return MessagePage.notFound(csrf: csrf) }
        let model = AppPage.Model(
            app: app, keys: try reader.publishableKeys(app: id), now: environment.now(), rotated: nil)
        return AppPage.render(model, csrf: csrf)
    }

    /// `POST /console/apps/{id}/keys/rotate`: the API's rotation; the answer is the app's
    /// page with the new key, shown this once (it is stored hashed: a redirect would lose it).
    func rotateKeys(_ id: String, _ request: ConsoleRequest, csrf: String) -> ConsoleAnswer {
        let now = environment.now()
        let log = environment.log
        return write(request, { tx in try WorkspaceOperations.rotatePublishableKey(app: id, now: now, tx) }) {
            [self] result, reader in
            switch result {
            case .success(let rotated):
                log.info(
                    "console rotated a publishable key", [("app", .string(id)), ("key", .string(rotated.record.id))])
                do {
                    guard let app = try reader.app(id) else { return MessagePage.notFound(csrf: csrf) }
                    let model = AppPage.Model(
                        app: app, keys: try reader.publishableKeys(app: id), now: now, rotated: rotated)
                    return AppPage.render(model, csrf: csrf)
                } catch {
                    environment.log.error("console request failed", [("detail", .string("\(error)"))])
                    return MessagePage.failure(csrf: csrf)
                }
            case .failure(let error):
                return failure(error, csrf: csrf)
            }
        }
    }
}
