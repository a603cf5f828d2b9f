#if canImport(Glibc)
import Glibc
#endif

/// Text form of a peer address; IPv4-mapped IPv6 is shown as plain IPv4.
func addressText(_ storage: inout sockaddr_storage) -> String {
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    switch Int32(storage.ss_family) {
    case AF_INET:
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                var addr = sin.pointee.sin_addr
                inet_ntop(AF_INET, &addr, &buffer, socklen_t(buffer.count))
                return cString(buffer)
            }
        }
    case AF_INET6:
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                var addr = sin6.pointee.sin6_addr
                inet_ntop(AF_INET6, &addr, &buffer, socklen_t(buffer.count))
                let text = cString(buffer)
                if text.hasPrefix("::ffff:") && text.contains(".") { return String(text.dropFirst(7)) }
                return text
            }
        }
    default:
        return "unknown"
    }
}

/// The text of a NUL-terminated C character buffer.
func cString(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
