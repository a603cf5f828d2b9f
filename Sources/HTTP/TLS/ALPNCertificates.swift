import COpenSSL
import CSystem
import Synchronization

/// Certificates presented, by server name, only to clients that offer the ALPN protocol
/// `acme-tls/1`, and with that protocol selected: what a TLS-ALPN-01 validation
/// (RFC 8737) connects for. Another part of the process puts them here and takes them
/// away at run time, from any thread; the HTTP module serves them without knowing why.
///
/// Give one to `HTTPServerConfiguration.alpnCertificates`: every handshake then notes
/// whether the client offered `acme-tls/1` (a client-hello callback), and the SNI
/// callback switches to the certificate here for that name when it did. Without one,
/// handshakes do none of this.
public final class ALPNCertificates: Sendable {
    private let table = Mutex<[String: TLSContext]>([:])
    /// How many are held: the SNI callback looks at the table only when some are.
    private let count = Atomic<Int>(0)

    public init() {}

    /// Presents `pem` (a certificate, then its private key) to clients that offer
    /// `acme-tls/1` for `hostname`, in place of any earlier one for that name.
    public func set(hostname: String, pem: [UInt8]) throws(TLSError) {
        let context = try TLSContext(pem: pem, label: "acme-tls/1 " + hostname, alpn: .acmeOnly)
        let name = hostname.lowercased()
        table.withLock { t in
            t[name] = context
            count.store(t.count, ordering: .releasing)
        }
    }

    public func remove(hostname: String) {
        let name = hostname.lowercased()
        table.withLock { t in
            t[name] = nil
            count.store(t.count, ordering: .releasing)
        }
    }

    /// The names that have one, sorted.
    public var hostnames: [String] { table.withLock { Array($0.keys) }.sorted() }

    var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

    /// The context for `hostname` (lower-case), holding a reference for the caller.
    func context(for hostname: String) -> TLSContext? { table.withLock { $0[hostname] } }
}

/// A certificate the process holds in memory rather than in the certificate directory
/// (one ordered through ACME and kept in the store), served for `hostname` unless a
/// directory certificate covers the name (`CertificateSet.load`).
public struct SuppliedCertificate: Sendable, Equatable {
    public var hostname: String
    /// The certificate chain, then its private key (PEM). A secret: never in a message.
    public var pem: [UInt8]
    /// Changes whenever `pem` does (a digest of it, or the certificate's serial): a set
    /// reuses the context it built for the same name and version.
    public var version: String

    public init(hostname: String, pem: [UInt8], version: String) {
        self.hostname = hostname.lowercased()
        self.pem = pem
        self.version = version
    }
}
