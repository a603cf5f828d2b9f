import Dispatch
import HTTPMessages
import Model
import Store
import Synchronization

@testable import Management

/// The API tests' harness: the workspace API in process over a real SQLite store.
enum InProcessAPI {
    /// A store in `directory` holding one secret key of every power; returns it and the key.
    static func store(in directory: ScratchDirectory) throws -> (SQLiteStore, String) {
        let store = try SQLiteStore.open(path: directory.databasePath, readers: 1)
        let key = KeyMaterial.newSecretKey()
        let record = SecretKeyRecord(
            id: "sk_1", name: "t", keyHash: KeyMaterial.hash(key), hint: KeyMaterial.hint(key), createdAt: 0)
        try store.writeAndWait { tx in try tx.putSecretKey(record) }
        return (store, key)
    }

    /// One request, answered as the edge answers it: a write waits for the store's writer
    /// (at most 10 s; nil when it did not answer by then).
    /// The path goes to its operation as the edge's router sends it (that router and its
    /// 404 and 405 are the edge's: `EdgeRouteTableTests`); here, a plain match of the
    /// operations' patterns.
    /// `performingWrites` false: nil for a write that passed the loop's checks.
    static func answer(
        _ api: ManagementAPI, _ store: SQLiteStore, _ request: HTTPRequest, performingWrites: Bool = true
    ) -> HTTPResponse? {
        let reader = store.reader(loop: 0)
        var requestId = ManagementAPI.requestId(request.headers)
        let method: HTTPMethod = request.method == .head ? .get : request.method
        let matching = api.operations.compactMap { operation in
            parameters(operation.pattern, request.path).map { (operation, $0) }
        }
        guard let (operation, parameters) = matching.first(where: { $0.0.method == method }) else {
            if matching.isEmpty { return api.notFound(request, requestId: requestId) }
            var allowed = matching.map(\.0.method)
            if allowed.contains(.get) { allowed.append(.head) }
            return api.methodNotAllowed(allowed, requestId: requestId)
        }
        let key: ManagementKey
        switch api.authorize(operation, request, reader: reader, requestId: &requestId) {
        case .refused(let response): return response
        case .key(let authorized): key = authorized
        }
        let prepared = api.prepare(
            operation, request, parameters: parameters, key: key, requestId: requestId, reader: reader)
        switch prepared {
        case .answer(let response):
            return response
        case .write(let write):
            guard performingWrites else { return nil }
            let done = DispatchSemaphore(value: 0)
            let box = Mutex<HTTPResponse?>(nil)
            api.perform(write) { response in
                box.withLock { $0 = response }
                done.signal()
            }
            guard done.wait(timeout: .now() + 10) == .success else { return nil }
            return box.withLock { $0 }
        }
    }

    /// The percent-decoded parameters of `path` when it matches `pattern` (`{name}` segments).
    private static func parameters(_ pattern: String, _ path: Substring) -> [(String, String)]? {
        let want = pattern.split(separator: "/", omittingEmptySubsequences: false)
        let have = path.split(separator: "/", omittingEmptySubsequences: false)
        guard want.count == have.count else { return nil }
        var out: [(String, String)] = []
        for (w, h) in zip(want, have) {
            if w.hasPrefix("{") {
                guard !h.isEmpty, let value = QueryParameters.decodePath(h) else { return nil }
                out.append((String(w.dropFirst().dropLast()), value))
            } else if w != h {
                return nil
            }
        }
        return out
    }
}
