#if canImport(Glibc)
import Glibc
#endif

/// The whole file as UTF-8 text, or nil.
func readTextFile(_ path: String) -> String? {
    readFile(path).map { String(decoding: $0, as: UTF8.self) }
}

func readFile(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n > 0 { out.append(contentsOf: chunk[0..<n]) }
        if n < chunk.count { break }
    }
    return ferror(f) == 0 ? out : nil
}

/// Writes `bytes` to `path` atomically (temporary file, fsync, rename) with `mode`.
func writeFileAtomically(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o600) -> Bool {
    let temp = path + ".tmp-\(getpid())"
    let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard fd >= 0 else { return false }
    fchmod(fd, mode)  // exactly `mode`, whatever the umask
    var ok = bytes.withUnsafeBytes { raw -> Bool in
        var offset = 0
        while offset < raw.count {
            let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
    ok = ok && fsync(fd) == 0
    close(fd)
    if ok { ok = rename(temp, path) == 0 }
    if !ok { unlink(temp) }
    return ok
}

func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

/// `mkdir -p` with `mode` for the created directories.
func makeDirectories(_ path: String, mode: mode_t = 0o700) -> Bool {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        current += "/" + part
        if mkdir(current, mode) != 0 && errno != EEXIST { return false }
    }
    return true
}
