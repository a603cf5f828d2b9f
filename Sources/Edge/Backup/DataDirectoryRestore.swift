import Core
import Store

#if canImport(Glibc)
import Glibc
#endif

/// `biqli-edge restore`: a backup file (`DataDirectoryBackup`) into an empty data
/// directory. Holds the directory's `serve.lock` throughout, so no edge starts on it
/// meanwhile. Files are written under temporary names and checked (size and SHA-256
/// against the manifest, then the store's integrity and schema version) before they
/// take their names; on any failure the directory is left empty again.
enum DataDirectoryRestore {
    typealias Failure = DataDirectoryBackup.Failure

    static func run(from source: String, into dataDirectory: String) throws(Failure) -> BackupManifest {
        guard let input = FileStream(reading: source) else { throw Failure("cannot read \(source)") }
        if fileExists(dataDirectory) {
            guard entries(of: dataDirectory).isEmpty else {
                throw Failure(
                    "the data directory \(dataDirectory) is not empty; restore into an empty one (move this one aside)")
            }
        } else if !makeDirectories(dataDirectory) {
            throw Failure("cannot create the data directory \(dataDirectory)")
        }
        let lock: ServeLock
        do {
            lock = try ServeLock(directory: dataDirectory, for: .command("restore"))
        } catch {
            throw Failure("\(error)")
        }
        defer { withExtendedLifetime(lock) {} }
        guard entries(of: dataDirectory) == [ServeLock.fileName] else {
            throw Failure("the data directory \(dataDirectory) is not empty; restore into an empty one")
        }
        var made: [String] = []
        var directories: [String] = []
        do throws(Failure) {
            let manifest = try extract(input, into: dataDirectory, made: &made, directories: &directories)
            let store = dataDirectory + "/" + SQLiteStore.fileName
            let checked: SQLiteBackup.Check
            do {
                checked = try SQLiteBackup.check(path: store + ".restoring")
            } catch {
                throw Failure("the backup's store cannot be read: \(error.safeMessage)")
            }
            guard checked.problems.isEmpty else {
                throw Failure(
                    "the backup's store fails PRAGMA integrity_check: "
                        + checked.problems.prefix(3).joined(separator: "; "))
            }
            guard checked.schemaVersion == manifest.schemaVersion else {
                throw Failure(
                    "the backup's store has schema \(checked.schemaVersion), its manifest says \(manifest.schemaVersion)"
                )
            }
            for path in made {
                let final = String(path.dropLast(".restoring".count))
                guard rename(path, final) == 0 else { throw Failure("cannot rename \(path)") }
            }
            made = made.map { String($0.dropLast(".restoring".count)) }
            DirectoryOwner.give(
                made + directories + [dataDirectory + "/" + ServeLock.fileName], likeFile: dataDirectory)
            DataDirectoryBackup.syncDirectory(of: store)
            return manifest
        } catch {
            for path in made { unlink(path) }
            for dir in directories.reversed() { rmdir(dir) }
            unlink(dataDirectory + "/" + ServeLock.fileName)
            throw error
        }
    }

    private static func extract(
        _ input: FileStream, into dataDirectory: String, made: inout [String], directories: inout [String]
    ) throws(Failure) -> BackupManifest {
        guard let first = try nextEntry(input), first.path == BackupManifest.entryName, first.size < 1 << 20 else {
            throw Failure("it is not a biqli-edge backup (no \(BackupManifest.entryName) first)")
        }
        let manifest: BackupManifest
        do {
            manifest = try BackupManifest(parsing: try readAll(input, first.size))
            _ = try readAll(input, Int64(TarArchive.padding(after: first.size)))
        } catch let error as BackupManifest.Invalid {
            throw Failure("\(error)")
        } catch {
            throw Failure("\(error)")
        }
        guard manifest.schemaVersion <= SQLiteStore.supportedSchemaVersion else {
            throw Failure(
                "its store has schema \(manifest.schemaVersion), made by a newer biqli-edge "
                    + "(\(manifest.edgeVersion)); this one knows up to \(SQLiteStore.supportedSchemaVersion): upgrade it"
            )
        }
        guard manifest.files.contains(where: { $0.path == SQLiteStore.fileName }) else {
            throw Failure("it holds no \(SQLiteStore.fileName)")
        }
        var seen: Set<String> = []
        while let entry = try nextEntry(input) {
            guard let expected = manifest.files.first(where: { $0.path == entry.path }), safe(entry.path),
                !seen.contains(entry.path)
            else { throw Failure("it holds \(entry.path), which its manifest does not list") }
            seen.insert(entry.path)
            var parent = dataDirectory
            for part in entry.path.split(separator: "/").dropLast() {
                parent += "/" + part
                if !fileExists(parent) {
                    guard mkdir(parent, 0o700) == 0 else { throw Failure("cannot create \(parent)") }
                    directories.append(parent)
                }
            }
            let path = dataDirectory + "/" + entry.path + ".restoring"
            guard let out = FileStream(creating: path, mode: 0o600) else { throw Failure("cannot create \(path)") }
            made.append(path)
            var left = entry.size
            while left > 0 {
                guard let chunk = input.read(max: Int(min(left, 1 << 20))), !chunk.isEmpty else {
                    throw Failure("it ends in the middle of \(entry.path) (truncated)")
                }
                guard out.write(chunk) else { throw Failure("cannot write \(path) (errno \(errno))") }
                left -= Int64(chunk.count)
            }
            _ = try readAll(input, Int64(TarArchive.padding(after: entry.size)))
            guard out.count == expected.bytes, out.sha256() == expected.sha256 else {
                throw Failure("\(entry.path) does not match its SHA-256 in the manifest (damaged)")
            }
            guard out.sync() else { throw Failure("cannot write \(path)") }
        }
        if let missing = manifest.files.first(where: { !seen.contains($0.path) }) {
            throw Failure("it lacks \(missing.path), which its manifest lists (truncated)")
        }
        return manifest
    }

    /// A relative path of plain names: nothing that could leave the data directory.
    static func safe(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                !part.isEmpty && part != "." && part != ".."
                    && part.utf8.allSatisfy { b in
                        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E
                            || b == 0x2D || b == 0x5F || b == 0x2A
                    }
            }
    }

    private static func nextEntry(_ input: FileStream) throws(Failure) -> TarArchive.Entry? {
        let header = try readAll(input, Int64(TarArchive.block), endOK: true)
        if header.isEmpty { return nil }
        do {
            return try TarArchive.parse(header)
        } catch {
            throw Failure("\(error)")
        }
    }

    private static func readAll(_ input: FileStream, _ count: Int64, endOK: Bool = false) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        while Int64(out.count) < count {
            guard let chunk = input.read(max: Int(count) - out.count) else { throw Failure("cannot read the backup") }
            if chunk.isEmpty {
                if endOK && out.isEmpty { return [] }
                throw Failure("it ends early (truncated)")
            }
            out += chunk
        }
        return out
    }

    /// Names in `directory`, dot-files included.
    static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
