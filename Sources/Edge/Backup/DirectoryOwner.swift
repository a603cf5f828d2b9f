#if canImport(Glibc)
import Glibc
#endif

/// Files that root makes in a service's data directory (a backup's WAL files, a
/// restore's store) must be the service's: the edge, run as its own user, could not open
/// them otherwise. Does nothing unless this process is root.
enum DirectoryOwner {
    /// Gives `paths` the owner and group of `reference`.
    static func give(_ paths: [String], likeFile reference: String) {
        guard geteuid() == 0, !paths.isEmpty else { return }
        var info = stat()
        guard stat(reference, &info) == 0 else { return }
        for path in paths { _ = lchown(path, info.st_uid, info.st_gid) }
    }
}
