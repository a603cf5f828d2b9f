#if canImport(Glibc)
import Glibc
#endif

/// The TCP sockets in the listening state on this machine (this network namespace),
/// read from `/proc/self/net/tcp` and `/proc/self/net/tcp6` (what `/proc/net` links to;
/// the systemd unit's `ProcSubset=pid` hides the link but not the process's own view).
///
/// Why: every loop binds its own listener with `SO_REUSEPORT`, and the kernel lets any
/// other process of the same user join that group: a second edge started on the same
/// ports (another data directory) silently took half of the new connections. After
/// binding, the edge compares this table with its own sockets and refuses to start
/// when any other socket listens on an address it serves.
struct ListenerTable: Equatable {
    struct Entry: Equatable {
        /// 4 bytes (IPv4) or 16 bytes (IPv6), network order.
        var address: [UInt8]
        var port: Int
        var inode: UInt64
    }

    var entries: [Entry]

    /// The listening sockets of this network namespace; empty when `/proc` is unreadable.
    static func current() -> ListenerTable {
        var entries: [Entry] = []
        for (path, bytes) in [("/proc/self/net/tcp", 4), ("/proc/self/net/tcp6", 16)] {
            if let text = readProcFile(path) { entries += parse(text, addressBytes: bytes) }
        }
        return ListenerTable(entries: entries)
    }

    /// Parses one `/proc/net/tcp{,6}` table, keeping rows in state `0A` (LISTEN).
    /// Addresses there are hexadecimal 32-bit words in host byte order.
    static func parse(_ text: String, addressBytes: Int) -> [Entry] {
        var out: [Entry] = []
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 9, fields[3] == "0A" else { continue }
            let local = fields[1].split(separator: ":")
            guard local.count == 2, let port = Int(local[1], radix: 16), let inode = UInt64(fields[9]),
                let address = decodeAddress(local[0], bytes: addressBytes)
            else { continue }
            out.append(Entry(address: address, port: port, inode: inode))
        }
        return out
    }

    private static func decodeAddress(_ hex: Substring, bytes: Int) -> [UInt8]? {
        guard hex.utf8.count == bytes * 2 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes)
        var index = hex.startIndex
        for _ in 0..<(bytes / 4) {
            let end = hex.index(index, offsetBy: 8)
            guard let word = UInt32(hex[index..<end], radix: 16) else { return nil }
            // The kernel prints each 32-bit word of the network-order address as this
            // machine reads it: its bytes in memory are the address's bytes.
            withUnsafeBytes(of: word) { out.append(contentsOf: $0) }
            index = end
        }
        return out
    }

    /// Listening sockets not in `ours` (inodes) that would take connections meant for
    /// `address:port`: the same port on the same address, or either side unspecified.
    func others(overlapping address: [UInt8], port: Int, ours: Set<UInt64>) -> [Entry] {
        entries.filter { entry in
            entry.port == port && !ours.contains(entry.inode)
                && (Self.isUnspecified(entry.address) || Self.isUnspecified(address)
                    || Self.normalized(entry.address) == Self.normalized(address))
        }
    }

    private static func isUnspecified(_ address: [UInt8]) -> Bool { address.allSatisfy { $0 == 0 } }

    /// IPv4-mapped IPv6 (`::ffff:a.b.c.d`) as its IPv4 address.
    private static func normalized(_ address: [UInt8]) -> [UInt8] {
        if address.count == 16, address[0..<10].allSatisfy({ $0 == 0 }), address[10] == 0xFF, address[11] == 0xFF {
            return Array(address[12...])
        }
        return address
    }

    private static func readProcFile(_ path: String) -> String? {
        // /proc files report size 0: read until EOF.
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
