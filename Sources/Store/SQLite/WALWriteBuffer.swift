import CSQLite
import Model

#if canImport(Glibc)
import Glibc
#endif

/// The pending bytes of one WAL file opened through `CoalescingVFS`: the frames
/// of the current commit, appended in file order, written with one `pwrite`
/// per 124 KiB instead of two per page.
///
/// SQLite writes each WAL frame as a 24-byte header then the page, each at an
/// offset that is not page-aligned, so a commit of n pages costs 2n system
/// calls that each touch one or two kernel pages. Here contiguous writes
/// accumulate and go out together when:
/// - the page after a commit frame's header arrives (a header whose
///   "database size" field is non-zero ends a transaction): the write of that
///   page returns the outcome of the whole flush, so a failure fails the commit
///   exactly as a failed `pwrite` would, before SQLite publishes the commit in
///   the WAL index;
/// - anything else touches the file (read, sync, size, truncate, file control,
///   close) or a write is not contiguous;
/// - the WAL index is about to publish a new header (`flushPending`, from the
///   database file's `xShmBarrier`): never needed with the SQLite this was
///   measured with, kept so that a SQLite writing its frames differently still
///   never publishes frames that are not in the file.
///
/// Durability is unchanged: under `synchronous=NORMAL` a WAL commit is a
/// `write()` without `fsync`, and it still is, only one instead of many.
final class WALWriteBuffer {
    /// unix-vfs `seekAndWrite` writes at most 128 KiB - 1 per call (it masks the
    /// length and reports a short write as SQLITE_FULL): flush in chunks below.
    static let chunkBytes = 126_976
    static let initialCapacity = 256 << 10
    static let maximumCapacity = 8 << 20
    /// The WAL frame header size, and the offset of its "database size" field.
    static let frameHeaderBytes: Int32 = 24

    let real: UnsafeMutablePointer<sqlite3_file>
    private var bytes: UnsafeMutableRawPointer
    private var capacity: Int
    private var start: Int64 = 0
    private var count = 0
    /// The last write was a commit frame's header: flush after its page.
    private var commitFrameOpen = false

    init(real: UnsafeMutablePointer<sqlite3_file>) {
        self.real = real
        capacity = Self.initialCapacity
        bytes = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit { bytes.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// `xWrite` of the WAL file.
    func write(_ data: UnsafeRawPointer, _ amount: Int32, at offset: Int64) -> Int32 {
        let n = Int(amount)
        if count > 0 && offset != start + Int64(count) {
            let rc = flush()
            if rc != SQLITE_OK { return rc }
        }
        if count + n > capacity && !grow(to: count + n) {
            let rc = flush()
            if rc != SQLITE_OK { return rc }
            if n > capacity { return real.pointee.pMethods.pointee.xWrite(real, data, amount, offset) }
        }
        if count == 0 {
            start = offset
            WALWriteBuffer.pending = Unmanaged.passUnretained(self).toOpaque()
        }
        (bytes + count).copyMemory(from: data, byteCount: n)
        count += n
        if commitFrameOpen {
            commitFrameOpen = false
            return flush()
        }
        if amount == Self.frameHeaderBytes {
            let header = data.assumingMemoryBound(to: UInt8.self)
            commitFrameOpen = header[4] | header[5] | header[6] | header[7] != 0
        }
        return SQLITE_OK
    }

    /// Writes what is pending; on failure the bytes are dropped (the write that
    /// reports the failure fails its transaction, and nothing past the last
    /// commit in the WAL index is ever read).
    func flush() -> Int32 {
        guard count > 0 else { return SQLITE_OK }
        var rc = SQLITE_OK
        var done = 0
        while done < count && rc == SQLITE_OK {
            let n = min(Self.chunkBytes, count - done)
            rc = real.pointee.pMethods.pointee.xWrite(real, bytes + done, Int32(n), start + Int64(done))
            done += n
        }
        count = 0
        commitFrameOpen = false
        if WALWriteBuffer.pending == Unmanaged.passUnretained(self).toOpaque() { WALWriteBuffer.pending = nil }
        return rc
    }

    private func grow(to needed: Int) -> Bool {
        guard needed <= Self.maximumCapacity else { return false }
        var next = capacity
        while next < needed { next *= 2 }
        let larger = UnsafeMutableRawPointer.allocate(byteCount: next, alignment: 16)
        larger.copyMemory(from: bytes, byteCount: count)
        bytes.deallocate()
        bytes = larger
        capacity = next
        return true
    }

    // MARK: the calling thread's pending buffer

    /// The buffer with bytes pending on this thread, if any. SQLite uses a
    /// connection from one thread at a time, and a WAL write and the WAL-index
    /// update that follows it happen in one call on that thread.
    static var pending: UnsafeMutableRawPointer? {
        get { pthread_getspecific(pendingKey) }
        set { pthread_setspecific(pendingKey, newValue) }
    }

    private static let pendingKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// `xShmBarrier` of a database file: the WAL index is about to publish a
    /// header, so no frame may stay pending. A failure here cannot be reported
    /// to SQLite (the barrier returns nothing) and would publish frames that are
    /// not in the file: stop the process instead (nothing of that transaction
    /// was acknowledged; recovery at the next start discards it).
    static func flushPending() {
        guard let raw = pending else { return }
        let buffer = Unmanaged<WALWriteBuffer>.fromOpaque(raw).takeUnretainedValue()
        if buffer.flush() != SQLITE_OK {
            fatalError("store: a WAL write failed before the WAL index was updated")
        }
    }
}
