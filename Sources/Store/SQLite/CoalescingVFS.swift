import CSQLite
import Model

#if canImport(Glibc)
import Glibc
#endif

/// A SQLite VFS over the default one whose WAL files write each commit's frames
/// with a few large `pwrite`s (`WALWriteBuffer`) instead of two per page. Used
/// by the writer's connection only (decision 0007: about a third less writer
/// CPU per durable write). Every other operation goes to the default VFS
/// unchanged, so files opened through it and through the default VFS share
/// locks and the WAL index as usual.
///
/// Each file SQLite opens through this VFS is laid out as: our `sqlite3_file`
/// (its `pMethods`), a pointer to the file's `WALWriteBuffer` (nil except for
/// WAL files), then the default VFS's file object.
enum CoalescingVFS {
    static let name = "biqli-coalesce"

    /// Registers the VFS once; false when SQLite has no default VFS to wrap.
    static let isRegistered: Bool = register()

    private static let headerBytes = 16
    nonisolated(unsafe) private static var base: UnsafeMutablePointer<sqlite3_vfs>!
    nonisolated(unsafe) private static var methods: UnsafeMutablePointer<sqlite3_io_methods>!

    private static func register() -> Bool {
        _ = SQLiteLibrary.configured
        guard let defaultVFS = sqlite3_vfs_find(nil) else { return false }
        base = defaultVFS
        methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        methods.initialize(to: makeMethods())
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: sqlite3_vfs())
        vfs.pointee.iVersion = 2
        vfs.pointee.szOsFile = Int32(headerBytes) + defaultVFS.pointee.szOsFile
        vfs.pointee.mxPathname = defaultVFS.pointee.mxPathname
        vfs.pointee.zName = UnsafePointer(strdup(name))
        vfs.pointee.xOpen = { _, name, file, flags, outFlags in
            guard let file else { return SQLITE_MISUSE }
            let raw = UnsafeMutableRawPointer(file)
            raw.storeBytes(of: nil, toByteOffset: 8, as: UnsafeMutableRawPointer?.self)
            let real = CoalescingVFS.real(file)
            let rc = CoalescingVFS.base.pointee.xOpen(CoalescingVFS.base, name, real, flags, outFlags)
            guard rc == SQLITE_OK, real.pointee.pMethods != nil else {
                file.pointee.pMethods = nil
                return rc
            }
            if flags & SQLITE_OPEN_WAL != 0 {
                let buffer = Unmanaged.passRetained(WALWriteBuffer(real: real)).toOpaque()
                raw.storeBytes(of: buffer, toByteOffset: 8, as: UnsafeMutableRawPointer?.self)
            }
            file.pointee.pMethods = UnsafePointer(CoalescingVFS.methods)
            return SQLITE_OK
        }
        vfs.pointee.xDelete = { _, name, sync in CoalescingVFS.base.pointee.xDelete(CoalescingVFS.base, name, sync) }
        vfs.pointee.xAccess = { _, name, flags, out in
            CoalescingVFS.base.pointee.xAccess(CoalescingVFS.base, name, flags, out)
        }
        vfs.pointee.xFullPathname = { _, name, n, out in
            CoalescingVFS.base.pointee.xFullPathname(CoalescingVFS.base, name, n, out)
        }
        vfs.pointee.xRandomness = { _, n, out in CoalescingVFS.base.pointee.xRandomness(CoalescingVFS.base, n, out) }
        vfs.pointee.xSleep = { _, us in CoalescingVFS.base.pointee.xSleep(CoalescingVFS.base, us) }
        vfs.pointee.xCurrentTime = { _, t in CoalescingVFS.base.pointee.xCurrentTime(CoalescingVFS.base, t) }
        vfs.pointee.xGetLastError = { _, n, out in
            CoalescingVFS.base.pointee.xGetLastError(CoalescingVFS.base, n, out)
        }
        vfs.pointee.xCurrentTimeInt64 = { _, t in
            CoalescingVFS.base.pointee.xCurrentTimeInt64(CoalescingVFS.base, t)
        }
        return sqlite3_vfs_register(vfs, 0) == SQLITE_OK
    }

    @inline(__always)
    private static func real(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<sqlite3_file> {
        (UnsafeMutableRawPointer(file) + headerBytes).assumingMemoryBound(to: sqlite3_file.self)
    }

    @inline(__always)
    private static func buffer(_ file: UnsafeMutablePointer<sqlite3_file>) -> WALWriteBuffer? {
        UnsafeMutableRawPointer(file).load(fromByteOffset: 8, as: UnsafeMutableRawPointer?.self).map {
            Unmanaged<WALWriteBuffer>.fromOpaque($0).takeUnretainedValue()
        }
    }

    /// The default file's methods.
    @inline(__always)
    private static func io(_ file: UnsafeMutablePointer<sqlite3_file>) -> sqlite3_io_methods {
        real(file).pointee.pMethods.pointee
    }

    /// Writes a WAL file's pending bytes before an operation that must see them.
    @inline(__always)
    private static func flush(_ file: UnsafeMutablePointer<sqlite3_file>) -> Int32 {
        buffer(file)?.flush() ?? SQLITE_OK
    }

    private static func makeMethods() -> sqlite3_io_methods {
        var m = sqlite3_io_methods()
        m.iVersion = 3
        m.xClose = { file in
            let file = file!
            let rc = CoalescingVFS.flush(file)
            let real = CoalescingVFS.real(file)
            let closed = real.pointee.pMethods.pointee.xClose(real)
            if let raw = UnsafeMutableRawPointer(file).load(fromByteOffset: 8, as: UnsafeMutableRawPointer?.self) {
                Unmanaged<WALWriteBuffer>.fromOpaque(raw).release()
                UnsafeMutableRawPointer(file).storeBytes(of: nil, toByteOffset: 8, as: UnsafeMutableRawPointer?.self)
            }
            return rc != SQLITE_OK ? rc : closed
        }
        m.xRead = { file, data, amount, offset in
            let file = file!
            let rc = CoalescingVFS.flush(file)
            if rc != SQLITE_OK { return rc }
            return CoalescingVFS.io(file).xRead(CoalescingVFS.real(file), data, amount, offset)
        }
        m.xWrite = { file, data, amount, offset in
            let file = file!
            if let buffer = CoalescingVFS.buffer(file) { return buffer.write(data!, amount, at: offset) }
            return CoalescingVFS.io(file).xWrite(CoalescingVFS.real(file), data, amount, offset)
        }
        m.xTruncate = { file, size in
            let file = file!
            let rc = CoalescingVFS.flush(file)
            if rc != SQLITE_OK { return rc }
            return CoalescingVFS.io(file).xTruncate(CoalescingVFS.real(file), size)
        }
        m.xSync = { file, flags in
            let file = file!
            let rc = CoalescingVFS.flush(file)
            if rc != SQLITE_OK { return rc }
            return CoalescingVFS.io(file).xSync(CoalescingVFS.real(file), flags)
        }
        m.xFileSize = { file, size in
            let file = file!
            let rc = CoalescingVFS.flush(file)
            if rc != SQLITE_OK { return rc }
            return CoalescingVFS.io(file).xFileSize(CoalescingVFS.real(file), size)
        }
        m.xLock = { file, lock in CoalescingVFS.io(file!).xLock(CoalescingVFS.real(file!), lock) }
        m.xUnlock = { file, lock in CoalescingVFS.io(file!).xUnlock(CoalescingVFS.real(file!), lock) }
        m.xCheckReservedLock = { file, out in CoalescingVFS.io(file!).xCheckReservedLock(CoalescingVFS.real(file!), out)
        }
        m.xFileControl = { file, op, arg in
            let file = file!
            let rc = CoalescingVFS.flush(file)
            if rc != SQLITE_OK { return rc }
            return CoalescingVFS.io(file).xFileControl(CoalescingVFS.real(file), op, arg)
        }
        m.xSectorSize = { file in CoalescingVFS.io(file!).xSectorSize(CoalescingVFS.real(file!)) }
        m.xDeviceCharacteristics = { file in CoalescingVFS.io(file!).xDeviceCharacteristics(CoalescingVFS.real(file!)) }
        m.xShmMap = { file, region, size, extend, out in
            guard let map = CoalescingVFS.io(file!).xShmMap else { return SQLITE_IOERR }
            return map(CoalescingVFS.real(file!), region, size, extend, out)
        }
        m.xShmLock = { file, offset, n, flags in
            guard let lock = CoalescingVFS.io(file!).xShmLock else { return SQLITE_IOERR }
            return lock(CoalescingVFS.real(file!), offset, n, flags)
        }
        m.xShmBarrier = { file in
            WALWriteBuffer.flushPending()
            CoalescingVFS.io(file!).xShmBarrier?(CoalescingVFS.real(file!))
        }
        m.xShmUnmap = { file, delete in
            guard let unmap = CoalescingVFS.io(file!).xShmUnmap else { return SQLITE_OK }
            return unmap(CoalescingVFS.real(file!), delete)
        }
        m.xFetch = { file, offset, amount, out in
            guard let fetch = CoalescingVFS.io(file!).xFetch else {
                out?.pointee = nil
                return SQLITE_OK
            }
            return fetch(CoalescingVFS.real(file!), offset, amount, out)
        }
        m.xUnfetch = { file, offset, page in
            guard let unfetch = CoalescingVFS.io(file!).xUnfetch else { return SQLITE_OK }
            return unfetch(CoalescingVFS.real(file!), offset, page)
        }
        return m
    }
}
