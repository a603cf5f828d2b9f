import Core
import Store

#if canImport(Glibc)
import Glibc
#endif

/// `biqli-edge backup` and `restore` on a SQLite data directory (decision 0022).
///
/// A backup is one tar file (0600): `biqli-edge-backup.json` (the manifest), a copy of
/// `edge.sqlite3` taken by SQLite's online backup while the edge serves
/// (`SQLiteBackup`), and every other file of the data directory (`secrets/`, whose
/// source-address key the stored clicks' hashes were made with; `certs/` when the
/// certificate directory is the default one inside it), not `serve.lock`. A restore
/// checks every file's size and SHA-256 against the manifest and the store with
/// `PRAGMA integrity_check` and its schema version before anything is where an edge would
/// find it, and writes only into an empty data directory that no edge serves.
enum DataDirectoryBackup {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static let storeName = SQLiteStore.fileName
    /// Files of the data directory that a backup leaves out: the store's own (copied
    /// through SQLite), and the lock of the edge that serves it.
    static let excluded: Set<String> = [
        SQLiteStore.fileName, SQLiteStore.fileName + "-wal", SQLiteStore.fileName + "-shm",
        SQLiteStore.fileName + "-journal", ServeLock.fileName,
    ]

    /// Makes the backup file `target` of `dataDirectory`.
    static func make(dataDirectory: String, to target: String, node: String) throws(Failure) -> BackupManifest {
        let store = dataDirectory + "/" + storeName
        guard fileExists(store) else {
            throw Failure(
                "no SQLite store at \(store); point BIQLI_EDGE_DATA_DIR (or --config) at the edge's data directory")
        }
        guard !fileExists(target) else { throw Failure("\(target) exists; a backup never overwrites a file") }
        let partial = target + ".partial-\(getpid())"
        let copyPath = partial + ".sqlite3"
        let sidecars = [store + "-wal", store + "-shm"].filter { !fileExists($0) }
        defer {
            unlink(copyPath)
            unlink(copyPath + "-journal")
            unlink(partial)
        }
        let copy: SQLiteBackup.Copy
        do {
            copy = try SQLiteBackup.copy(from: store, to: copyPath)
        } catch {
            throw Failure("cannot copy \(store): \(error.safeMessage)")
        }
        // Run as root on the service's directory, SQLite may have made the WAL's files:
        // they must stay the service's, which could not open them otherwise.
        DirectoryOwner.give(sidecars.filter(fileExists), likeFile: store)

        var sources: [(path: String, file: String)] = [(storeName, copyPath)]
        for relative in regularFiles(under: dataDirectory) where !excluded.contains(relative) {
            sources.append((relative, dataDirectory + "/" + relative))
        }
        var files: [BackupManifest.File] = []
        for source in sources {
            guard let stream = FileStream(reading: source.file) else { throw Failure("cannot read \(source.file)") }
            while true {
                guard let chunk = stream.read(max: 1 << 20) else { throw Failure("cannot read \(source.file)") }
                if chunk.isEmpty { break }
            }
            files.append(.init(path: source.path, bytes: stream.count, sha256: stream.sha256()))
        }
        let manifest = BackupManifest(
            edgeVersion: EdgeVersion.current, schemaVersion: copy.schemaVersion,
            createdAt: Int64(Clock.nowMilliseconds()), node: node, files: files)

        guard let out = FileStream(creating: partial, mode: 0o600) else { throw Failure("cannot create \(partial)") }
        let now = Clock.nowSeconds()
        let manifestBytes = manifest.json
        try append(
            .init(path: BackupManifest.entryName, size: Int64(manifestBytes.count), mode: 0o600, mtime: now),
            bytes: [manifestBytes], to: out)
        for (source, file) in zip(sources, files) {
            guard let input = FileStream(reading: source.file) else { throw Failure("cannot read \(source.file)") }
            let header = TarArchive.Entry(path: file.path, size: file.bytes, mode: 0o600, mtime: now)
            guard let h = TarArchive.header(header) else {
                throw Failure("path too long for the archive: \(file.path)")
            }
            guard out.write(h) else { throw writeFailure(partial) }
            while true {
                guard let chunk = input.read(max: 1 << 20) else { throw Failure("cannot read \(source.file)") }
                if chunk.isEmpty { break }
                guard out.write(chunk) else { throw writeFailure(partial) }
            }
            guard input.count == file.bytes, input.sha256() == file.sha256 else {
                throw Failure("\(source.file) changed while it was backed up; try again")
            }
            guard out.write([UInt8](repeating: 0, count: TarArchive.padding(after: file.bytes))) else {
                throw writeFailure(partial)
            }
        }
        guard out.write([UInt8](repeating: 0, count: 2 * TarArchive.block)), out.sync() else {
            throw writeFailure(partial)
        }
        guard rename(partial, target) == 0 else { throw Failure("cannot rename \(partial) to \(target)") }
        syncDirectory(of: target)
        return manifest
    }

    private static func append(_ entry: TarArchive.Entry, bytes: [[UInt8]], to out: FileStream) throws(Failure) {
        guard let h = TarArchive.header(entry), out.write(h) else { throw writeFailure(out.path) }
        for chunk in bytes where !out.write(chunk) { throw writeFailure(out.path) }
        guard out.write([UInt8](repeating: 0, count: TarArchive.padding(after: entry.size))) else {
            throw writeFailure(out.path)
        }
    }

    private static func writeFailure(_ path: String) -> Failure {
        Failure("cannot write \(path) (errno \(errno): \(String(cString: strerror(errno))))")
    }

    /// Regular files below `root`, relative, sorted; dot-files and other kinds left out.
    static func regularFiles(under root: String, prefix: String = "") -> [String] {
        guard let dir = opendir(root + (prefix.isEmpty ? "" : "/" + prefix)) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            let relative = prefix.isEmpty ? name : prefix + "/" + name
            var info = stat()
            guard lstat(root + "/" + relative, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                out += regularFiles(under: root, prefix: relative)
            } else if info.st_mode & S_IFMT == S_IFREG {
                out.append(relative)
            }
        }
        return out.sorted()
    }

    static func syncDirectory(of path: String) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let fd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }
}
