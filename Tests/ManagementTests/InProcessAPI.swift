import Dispatch
import HTTPTypes
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
    static func answer(_ api: ManagementAPI, _ store: SQLiteStore, _ request: HTTPRequest) -> HTTPResponse? {
        var name = ""
        switch api.prepare(request, reader: store.reader(loop: 0), routeName: &name) {
        case .answer(let response):
            return response
        case .write(let write):
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
}
