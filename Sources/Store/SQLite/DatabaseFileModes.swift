import Model

#if canImport(Glibc)
import Glibc
#endif

/// The database file, its write-ahead log and its shared-memory index hold the
/// receipt-signing secret keys: whoever reads them can forge attribution receipts.
/// They are 0600 whatever the umask and the directory's mode. SQLite creates the
/// `-wal` and `-shm` files with the database file's mode, so creating that file 0600
/// before SQLite opens it covers all three.
enum DatabaseFileModes {
    static let suffixes = ["", "-wal", "-shm"]

    /// Creates the database file with mode 0600 when it does not exist, and sets 0600
    /// on those of the three that exist with any group or other permission. Returns
    /// what it changed (path and previous mode), for the caller to report.
    static func makePrivate(databasePath: String, tightenExisting: Bool = true) throws(StoreError) -> [(
        path: String, mode: UInt32
    )] {
        let fd = open(databasePath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            // The umask can only remove permissions; this sets exactly 0600 anyway.
            fchmod(fd, 0o600)
            close(fd)
        } else if errno != EEXIST {
            throw .backend(code: errno, message: "cannot create the database file")
        }
        var changed: [(path: String, mode: UInt32)] = []
        guard tightenExisting else { return changed }
        for suffix in suffixes {
            let path = databasePath + suffix
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            let mode = UInt32(info.st_mode) & 0o777
            guard mode & 0o077 != 0 else { continue }
            guard chmod(path, 0o600) == 0 else {
                throw .backend(code: errno, message: "cannot make \(path) private (mode \(String(mode, radix: 8)))")
            }
            changed.append((path, mode))
        }
        return changed
    }
}
