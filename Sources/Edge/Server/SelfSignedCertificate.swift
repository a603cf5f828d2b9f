import CSystem

/// Makes sure the certificate directory can serve HTTPS out of the box: when it
/// holds no `.pem` at all, a self-signed ECDSA P-256 certificate is generated for
/// the given names (valid 90 days; replace it with a real one in production).
///
/// A directory the edge may not write (the Debian package's `/etc/biqli-edge/certs`,
/// read-only to the service; a shared read-only mount) is the operator's to fill: the
/// edge then starts without a default certificate and says so, and HTTPS serves the
/// names that get one (a file put there later, or an ACME order).
enum SelfSignedCertificate {
    static func ensure(directory: String, hostnames: [String], log: Log) throws(EdgeStartError) {
        if directoryHasPEM(directory) { return }
        if access(directory, W_OK) != 0 {
            log.warn(
                "the certificate directory holds no certificate and is read-only to the edge; "
                    + "HTTPS serves only names that get one (put <hostname>.pem there, or BIQLI_EDGE_ACME=on)",
                [("path", .string(directory))])
            return
        }
        let path = directory + "/default.pem"
        guard csys_write_self_signed_pem(path, hostnames.joined(separator: "\n"), 90) == 1 else {
            throw .io("cannot write a self-signed certificate to \(path)")
        }
        log.warn(
            "generated a self-signed certificate; browsers will warn until a real one is installed",
            [("path", .string(path)), ("names", .array(hostnames.map { .string($0) }))])
    }

    private static func directoryHasPEM(_ directory: String) -> Bool {
        guard let dir = opendir(directory) else { return false }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".pem") { return true }
        }
        return false
    }
}

#if canImport(Glibc)
import Glibc
#endif
