import Core

#if canImport(Glibc)
import Glibc
#endif

/// A growable byte buffer with a read and a write index, owned by one connection
/// on one loop thread. Raw memory rather than `[UInt8]` so that `recv`, the
/// parser and `send` work on stable pointers without copy-on-write checks.
final class ByteBuffer {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    /// Bytes before `readIndex` are consumed.
    private(set) var readIndex = 0
    /// Bytes between `readIndex` and `writeIndex` are readable.
    private(set) var writeIndex = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    var readableCount: Int { writeIndex - readIndex }
    var isEmpty: Bool { readIndex == writeIndex }
    var writableCount: Int { capacity - writeIndex }

    var readable: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + readIndex, count: writeIndex - readIndex)
    }

    var writableStart: UnsafeMutableRawPointer { base + writeIndex }

    func consume(_ n: Int) {
        precondition(n <= readableCount)
        readIndex += n
        if readIndex == writeIndex {
            readIndex = 0
            writeIndex = 0
        }
    }

    func didWrite(_ n: Int) {
        precondition(n <= writableCount)
        writeIndex += n
    }

    /// Makes room for at least `n` more bytes, compacting first and growing when that is not enough.
    func reserve(_ n: Int) {
        if writableCount >= n { return }
        if readIndex > 0 {
            let count = readableCount
            if count > 0 { memmove(base, base + readIndex, count) }
            readIndex = 0
            writeIndex = count
            if writableCount >= n { return }
        }
        var newCapacity = capacity
        while newCapacity - writeIndex < n { newCapacity *= 2 }
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        if writeIndex > 0 { newBase.copyMemory(from: base, byteCount: writeIndex) }
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Shrinks an oversized, empty buffer back to `target` so idle connections stay small.
    func shrinkIfEmpty(to target: Int) {
        guard isEmpty, capacity > target * 4 else { return }
        base.deallocate()
        capacity = target
        base = UnsafeMutableRawPointer.allocate(byteCount: target, alignment: 16)
        readIndex = 0
        writeIndex = 0
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + writeIndex).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        writeIndex += bytes.count
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    func append(_ string: StaticString) {
        append(UnsafeRawBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
    }

    func append(_ string: String) {
        var s = string
        s.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    func append(byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: writeIndex, as: UInt8.self)
        writeIndex += 1
    }

    /// Appends the decimal form of a non-negative integer.
    func append(decimal value: Int) {
        DecimalDigits.with(UInt64(max(value, 0))) { append($0) }
    }
}
