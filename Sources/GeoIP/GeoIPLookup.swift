import Core
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Countries of client addresses from `BIQLI_EDGE_GEOIP_DB`, for every event loop, with
/// the file reloaded when it changes.
///
/// A background thread looks at the file (`stat`: device, inode, size, modification
/// time) every `checkIntervalMilliseconds`; when it changed, it opens the new one and,
/// if that worked, makes it current. A file that cannot be opened (half copied, not a
/// database, gone) leaves the last good one in use and is reported once through
/// `onEvent` until it changes again. Replacing the file by a rename is the safe way, as
/// for certificates; an in-place rewrite is seen too, once it settles.
///
/// Each loop keeps its own reference to the database it uses and compares one atomic
/// generation per lookup: no lock on the visit path. An old database is closed when
/// the last loop has let it go.
public final class GeoIPLookup: Sendable {
    public enum Event: Sendable, Equatable {
        /// A database was opened (at start or after a change).
        case loaded(path: String, databaseType: String, buildEpoch: UInt64)
        /// The file changed but cannot be used: the previous database stays.
        case failed(GeoIPError)
    }

    /// What `stat` says of the file; a change in any of these is a new file.
    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
    }

    public let path: String
    public let checkIntervalMilliseconds: Int
    private let current: Mutex<GeoIPDatabase>
    private let generation = Atomic<Int>(0)
    private let seen: Mutex<FileIdentity?>
    private let loops: PerLoop<(generation: Int, database: GeoIPDatabase?)>
    private let onEvent: @Sendable (Event) -> Void
    private let stopping = Atomic<Bool>(false)
    private let thread = Mutex<OSThread?>(nil)

    /// Opens `path` now: a database that cannot be opened at start is an error.
    public init(
        path: String, loops: Int, checkIntervalMilliseconds: Int = 5_000,
        onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) throws(GeoIPError) {
        let identity = Self.identity(path)
        let database = try GeoIPDatabase(path: path)
        self.path = path
        self.checkIntervalMilliseconds = max(checkIntervalMilliseconds, 10)
        self.current = Mutex(database)
        self.seen = Mutex(identity)
        self.loops = PerLoop(count: loops) { (-1, nil) }
        self.onEvent = onEvent
        onEvent(.loaded(path: path, databaseType: database.databaseType, buildEpoch: database.buildEpoch))
    }

    /// The country code of `address` from the current database. Call only on loop
    /// `loop`'s thread.
    public func country(of address: String, loop: Int) -> String? {
        let latest = generation.load(ordering: .acquiring)
        return loops.with(loop) { slot in
            if slot.generation != latest || slot.database == nil {
                slot = (latest, current.withLock { $0 })
            }
            return slot.database?.country(of: address)
        }
    }

    /// The database in use now (for tests and `check`).
    public var database: GeoIPDatabase { current.withLock { $0 } }

    /// Starts the thread that watches the file. Calling it twice does nothing.
    public func start() {
        thread.withLock { t in
            guard t == nil else { return }
            t = OSThread(name: "geoip-watch") { [self] in watch() }
        }
    }

    /// Stops the watcher and waits for it.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        let running = thread.withLock { t -> OSThread? in
            defer { t = nil }
            return t
        }
        running?.join()
    }

    private func watch() {
        let step: UInt32 = 50_000  // microseconds: stop() waits at most this long
        var waited = 0
        while !stopping.load(ordering: .acquiring) {
            usleep(step)
            waited += Int(step / 1_000)
            if waited >= checkIntervalMilliseconds {
                waited = 0
                _ = reloadIfChanged()
            }
        }
    }

    /// Looks at the file once; opens it when it changed. True when a new database is in use.
    @discardableResult
    public func reloadIfChanged() -> Bool {
        let identity = Self.identity(path)
        let changed = seen.withLock { seen -> Bool in
            guard identity != seen else { return false }
            seen = identity
            return true
        }
        guard changed else { return false }
        guard identity != nil else {
            onEvent(.failed(.unreadable(path: path, reason: "the file is gone; the previous database stays in use")))
            return false
        }
        do throws(GeoIPError) {
            let database = try GeoIPDatabase(path: path)
            current.withLock { $0 = database }
            generation.add(1, ordering: .releasing)
            onEvent(.loaded(path: path, databaseType: database.databaseType, buildEpoch: database.buildEpoch))
            return true
        } catch {
            onEvent(.failed(error))
            return false
        }
    }

    static func identity(_ path: String) -> FileIdentity? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileIdentity(
            device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
            modifiedSeconds: Int64(st.st_mtim.tv_sec), modifiedNanoseconds: Int64(st.st_mtim.tv_nsec))
    }
}
