import Model

#if canImport(Glibc)
import Glibc
#endif

extension SQLiteStore {
    /// What the database takes on disk, and what is left there: for `/metrics`, so that
    /// an operator hears of a filling disk before writes fail (decision 0011). A few
    /// `stat` calls: cheap enough per scrape, not for the hot path.
    public struct DiskUsage: Sendable, Equatable {
        /// The database file, bytes.
        public var databaseBytes: Int64
        /// Its write-ahead log, bytes (0 when there is none).
        public var walBytes: Int64
        /// Space left for an unprivileged writer on the file system that holds the
        /// database, bytes; nil when it cannot be read.
        public var freeBytes: Int64?
        /// The size of that file system, bytes (free / size: how full it is); nil when
        /// it cannot be read.
        public var sizeBytes: Int64?
    }

    public var diskUsage: DiskUsage {
        func size(_ file: String) -> Int64 {
            var info = stat()
            return stat(file, &info) == 0 ? Int64(info.st_size) : 0
        }
        var fs = statvfs()
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let read = statvfs(directory.isEmpty ? "/" : directory, &fs) == 0
        return DiskUsage(
            databaseBytes: size(path), walBytes: size(path + "-wal"),
            freeBytes: read ? Int64(fs.f_bavail) * Int64(fs.f_frsize) : nil,
            sizeBytes: read ? Int64(fs.f_blocks) * Int64(fs.f_frsize) : nil)
    }
}
