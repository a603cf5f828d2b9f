import Core
import HTTPMessages
import Management
import Model
import Store

/// Tags: create, rename or recolour, delete, through the API's rules; a refusal shows
/// the tags page again with the message beside the field.
extension Console {
    /// `POST /console/tags`.
    func createTag(_ request: ConsoleRequest, csrf: String) -> ConsoleAnswer {
        let form = request.form ?? FormBody(pairs: [])
        let name = form.text("name")
        let color = form.text("color")
        let now = environment.now()
        return write(request, { tx in try WorkspaceOperations.createTag(Self.tagFields(name, color), now: now, tx) }) {
            [self] result, reader in
            tagSaved(result.map { _ in () }, csrf: csrf, reader) { model, byField in
                model.name = name
                model.color = color
                model.errors = byField
            }
        }
    }

    /// `POST /console/tags/{id}`: a new name and colour.
    func updateTag(_ id: String, _ request: ConsoleRequest, csrf: String) -> ConsoleAnswer {
        let form = request.form ?? FormBody(pairs: [])
        let name = form.text("name-" + id)
        let color = form.text("color-" + id)
        let now = environment.now()
        return write(
            request, { tx in try WorkspaceOperations.updateTag(id, patch: Self.tagFields(name, color), now: now, tx) }
        ) { [self] result, reader in
            tagSaved(result.map { _ in () }, csrf: csrf, reader) { model, byField in
                model.typed[id] = (name, color)
                model.errors = Dictionary(
                    byField.map { ($0.key + "-" + id, $0.value) }, uniquingKeysWith: { a, _ in a })
            }
        }
    }

    /// `POST /console/tags/{id}/delete`.
    func deleteTag(_ id: String, _ request: ConsoleRequest, csrf: String) -> ConsoleAnswer {
        write(request, { tx in try WorkspaceOperations.deleteTag(id, tx) }) { [self] result, _ in
            if case .failure(let error) = result { return failure(error, csrf: csrf) }
            return Self.redirect(ConsolePaths.tags.path)
        }
    }

    /// A colour the palette does not have is sent as typed, for the API to name.
    static func tagFields(_ name: String, _ color: String) -> [(String, JSONValue)] {
        [("name", .string(name)), ("color", color.isEmpty ? .null : .string(color))]
    }

    /// After a tag's write: the tags page (303), or the page again with the API's
    /// messages (`fill` puts them and what was typed in the model).
    private func tagSaved(
        _ result: Result<Void, WriteError<ConsoleRefusal>>, csrf: String, _ reader: any LinkReading,
        fill: (inout TagsPage.Model, [String: String]) -> Void
    ) -> HTTPResponse {
        switch result {
        case .success: return Self.redirect(ConsolePaths.tags.path)
        case .failure(.refused(.operation(let refusal))) where refusal.status != 404 && !refusal.problems.isEmpty:
            do {
                var model = TagsPage.Model(tags: try reader.tags())
                var byField: [String: String] = [:]
                for problem in refusal.problems where byField[problem.field] == nil {
                    byField[problem.field] = problem.field + " " + problem.rule
                }
                fill(&model, byField)
                return TagsPage.render(model, status: 422, csrf: csrf)
            } catch {
                environment.log.error("console request failed", [("detail", .string("\(error)"))])
                return MessagePage.failure(csrf: csrf)
            }
        case .failure(let error):
            return failure(error, csrf: csrf)
        }
    }
}
