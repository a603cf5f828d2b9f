#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp for one test's database, removed by `remove()`.
struct ScratchDirectory {
    let path: String

    init(prefix: String) {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    var databasePath: String { path + "/edge.sqlite3" }

    /// Removes the database (with its WAL and shared-memory files) and the directory.
    func remove() {
        for suffix in ["", "-wal", "-shm"] { unlink(databasePath + suffix) }
        rmdir(path)
    }
}
