#if canImport(Glibc)
import Glibc
#endif

/// One `serve` per data directory, enforced: an exclusive `flock` on `<data>/serve.lock`
/// for the process's lifetime. Two edges on one database would each hold only their own
/// probabilistic candidates (decision 0009) and fight over the write lock; a second one
/// started by mistake (or an overlapping deploy) stops at once and says why. The kernel
/// drops the lock when the process ends however it ends, SIGKILL included. The CLI's
/// commands (`apply`, `keys`, `check`) do not take it: they write beside a running edge.
/// `migrate-store` does, for as long as it copies: no `serve` may write to the store
/// it reads, nor start meanwhile.
final class ServeLock {
    static let fileName = "serve.lock"
    private let fd: Int32

    /// Who takes the lock: what a busy lock is then told as.
    enum Holder {
        case serve
        /// A command that needs the edge stopped (`migrate-store`).
        case command(String)
    }

    /// Takes the lock, writing this process's id into the file for operators.
    init(directory: String, for holder: Holder = .serve) throws(EdgeStartError) {
        let path = directory + "/" + Self.fileName
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io("cannot open \(path) (errno \(errno))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            close(fd)
            if busy, case .command(let name) = holder {
                throw .io(
                    "a biqli-edge serve is running on the data directory \(directory) (it holds \(path)); "
                        + "stop it before \(name)")
            }
            if busy {
                throw .io(
                    "another biqli-edge serve uses the data directory \(directory) (it holds \(path)); "
                        + "run one edge per data directory")
            }
            throw .io("cannot lock \(path) (errno \(errno))")
        }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 { _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
        self.fd = fd
    }

    deinit { close(fd) }
}
