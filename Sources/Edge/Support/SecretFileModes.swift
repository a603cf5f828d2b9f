#if canImport(Glibc)
import Glibc
#endif

/// The files that hold secrets, and whether anyone but their owner may read them.
///
/// The edge's own (the database and its `-wal`/`-shm`, which hold the receipt-signing
/// keys; `<data>/secrets/*`) are made 0600 when found otherwise, and said so; the
/// certificate directory's `.pem` files hold the private keys of the domains but are
/// the operator's, so they are only reported.
enum SecretFileModes {
    struct Exposed: Equatable {
        var path: String
        /// Permission bits (`0o644`...).
        var mode: UInt32
        /// The edge made it 0600 (else: reported only).
        var madePrivate: Bool
    }

    /// The database files (`SQLiteStore` makes them private as it opens them) and the
    /// files of `<data>/secrets`.
    static func edgeFiles(_ configuration: EdgeConfiguration) -> [String] {
        ["", "-wal", "-shm"].map { configuration.databasePath + $0 }
            + listFiles(configuration.dataDirectory + "/secrets").map { configuration.dataDirectory + "/secrets/" + $0 }
    }

    static func certificateFiles(_ configuration: EdgeConfiguration) -> [String] {
        listFiles(configuration.certificateDirectory).filter { $0.hasSuffix(".pem") }.map {
            configuration.certificateDirectory + "/" + $0
        }
    }

    /// Group or other permission bits of `path`; nil when it does not exist or has none.
    static func looseMode(_ path: String) -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let mode = UInt32(info.st_mode) & 0o777
        return mode & 0o077 != 0 ? mode : nil
    }

    /// At start-up: makes the edge's own secret files in `<data>/secrets` private and
    /// lists every secret file found readable beyond its owner.
    static func enforce(_ configuration: EdgeConfiguration) -> [Exposed] {
        var out: [Exposed] = []
        for path in listFiles(configuration.dataDirectory + "/secrets").map({
            configuration.dataDirectory + "/secrets/" + $0
        }) {
            guard let mode = looseMode(path) else { continue }
            out.append(Exposed(path: path, mode: mode, madePrivate: chmod(path, 0o600) == 0))
        }
        for path in certificateFiles(configuration) {
            guard let mode = looseMode(path) else { continue }
            out.append(Exposed(path: path, mode: mode, madePrivate: false))
        }
        return out
    }

    /// What `check` reports, without changing anything.
    static func exposed(_ configuration: EdgeConfiguration) -> [Exposed] {
        (edgeFiles(configuration) + certificateFiles(configuration)).compactMap { path in
            looseMode(path).map { Exposed(path: path, mode: $0, madePrivate: false) }
        }
    }

    static func octal(_ mode: UInt32) -> String { "0" + String(mode, radix: 8) }

    private static func listFiles(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") && entry.pointee.d_type != UInt8(DT_DIR) { names.append(name) }
        }
        return names.sorted()
    }
}
