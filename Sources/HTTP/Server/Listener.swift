import CSystem

#if canImport(Glibc)
import Glibc
#endif

/// A listening socket of one loop. Every loop binds its own socket to the same
/// address with `SO_REUSEPORT`, so the kernel spreads new connections across loops.
struct ListeningSocket {
    let fd: Int32
    let kind: ListenerKind
    let address: HTTPServerConfiguration.Address
    /// The bound address in network order (4 or 16 bytes).
    let addressBytes: [UInt8]
    /// The socket's inode, as `/proc/net/tcp` names it.
    let inode: UInt64

    static func open(
        _ address: HTTPServerConfiguration.Address, kind: ListenerKind, backlog: Int32
    ) throws(HTTPServerError) -> ListeningSocket {
        var storage = sockaddr_storage()
        var length: socklen_t = 0
        var v4 = in_addr()
        var v6 = in6_addr()
        let family: Int32
        let addressBytes: [UInt8]
        if inet_pton(AF_INET, address.host, &v4) == 1 {
            family = AF_INET
            addressBytes = withUnsafeBytes(of: v4) { Array($0) }
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                    sin.pointee.sin_family = sa_family_t(AF_INET)
                    sin.pointee.sin_port = in_port_t(UInt16(address.port).bigEndian)
                    sin.pointee.sin_addr = v4
                }
            }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        } else if inet_pton(AF_INET6, address.host, &v6) == 1 {
            family = AF_INET6
            addressBytes = withUnsafeBytes(of: v6) { Array($0) }
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                    sin6.pointee.sin6_family = sa_family_t(AF_INET6)
                    sin6.pointee.sin6_port = in_port_t(UInt16(address.port).bigEndian)
                    sin6.pointee.sin6_addr = v6
                }
            }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        } else {
            throw .invalidAddress(address.description)
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | CSYS_SOCK_NONBLOCK | CSYS_SOCK_CLOEXEC, 0)
        guard fd >= 0 else { throw .system("socket", errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let e = errno
            close(fd)
            throw .bind(address.description, e)
        }
        guard listen(fd, backlog) == 0 else {
            let e = errno
            close(fd)
            throw .system("listen", e)
        }
        // Port 0 asks the kernel for one; report the real port so other loops join it.
        var actual = sockaddr_storage()
        var actualLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
        }
        let port: UInt16 = withUnsafePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
        var info = stat()
        let inode = fstat(fd, &info) == 0 ? UInt64(info.st_ino) : 0
        return ListeningSocket(
            fd: fd, kind: kind, address: .init(host: address.host, port: Int(port)), addressBytes: addressBytes,
            inode: inode)
    }

    /// Throws when a socket of another process listens where one of `sockets` does:
    /// with `SO_REUSEPORT` the kernel would split new connections between the two.
    static func verifyExclusive(_ sockets: [ListeningSocket]) throws(HTTPServerError) {
        let ours = Set(sockets.map(\.inode))
        let table = ListenerTable.current()
        for socket in sockets
        where !table.others(overlapping: socket.addressBytes, port: socket.address.port, ours: ours).isEmpty {
            throw .addressHeldElsewhere(socket.address.description)
        }
    }
}

/// Why the server could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    case invalidAddress(String)
    case bind(String, Int32)
    /// Another process listens on the address too (sharing it through `SO_REUSEPORT`).
    case addressHeldElsewhere(String)
    case system(String, Int32)

    public var description: String {
        switch self {
        case .invalidAddress(let a): return "invalid listen address \(a)"
        case .bind(let a, let e): return "cannot listen on \(a): \(String(cString: strerror(e)))"
        case .addressHeldElsewhere(let a):
            return "cannot listen on \(a): another process is listening on it (stop it, or choose another address)"
        case .system(let call, let e): return "\(call) failed: \(String(cString: strerror(e)))"
        }
    }
}
