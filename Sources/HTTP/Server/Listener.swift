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

    static func open(
        _ address: HTTPServerConfiguration.Address, kind: ListenerKind, backlog: Int32
    ) throws(HTTPServerError) -> ListeningSocket {
        var storage = sockaddr_storage()
        var length: socklen_t = 0
        var v4 = in_addr()
        var v6 = in6_addr()
        let family: Int32
        if inet_pton(AF_INET, address.host, &v4) == 1 {
            family = AF_INET
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
        return ListeningSocket(fd: fd, kind: kind, address: .init(host: address.host, port: Int(port)))
    }
}

/// Why the server could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    case invalidAddress(String)
    case bind(String, Int32)
    case system(String, Int32)

    public var description: String {
        switch self {
        case .invalidAddress(let a): return "invalid listen address \(a)"
        case .bind(let a, let e): return "cannot listen on \(a): \(String(cString: strerror(e)))"
        case .system(let call, let e): return "\(call) failed: \(String(cString: strerror(e)))"
        }
    }
}
