import COpenSSL
import CSystem

#if canImport(Glibc)
import Glibc
#endif

/// The certificates loaded from the certificate directory at one moment.
///
/// Immutable once built and shared by every loop; a reload builds a new set and
/// hands it to the loops, and a set is freed when its last user lets go
/// (connections keep the set they were accepted with until they close).
public final class CertificateSet: Sendable {
    /// The context new connections start with; SNI switches away from it.
    let defaultContext: TLSContext?
    private let exact: [String: TLSContext]
    /// `example.com` -> context of `*.example.com`.
    private let wildcard: [String: TLSContext]
    /// Problems met while loading (the set is still usable).
    public let issues: [CertificateIssue]
    /// The problems, one line each.
    public var problems: [String] { issues.map(\.description) }
    /// Files that could not be loaded this time.
    public var failedFiles: [String] { issues.filter(\.unusable).map(\.path) }
    public let directory: String?
    /// The context loaded from each file name: a file that fails at the next load keeps
    /// serving this one.
    let byFile: [String: TLSContext]
    /// The supplied certificates' contexts by hostname, with the version each was built
    /// from: the next load reuses them, and keeps one whose new version fails.
    let supplied: [String: (version: String, context: TLSContext)]
    /// Names served by a supplied certificate.
    private let suppliedNames: Set<String>
    /// The certificates presented to clients that offer `acme-tls/1` (nil: none ever are).
    let alpn: ALPNCertificates?

    init(
        defaultContext: TLSContext?, exact: [String: TLSContext], wildcard: [String: TLSContext],
        issues: [CertificateIssue],
        directory: String?, byFile: [String: TLSContext] = [:],
        supplied: [String: (version: String, context: TLSContext)] = [:], suppliedNames: Set<String> = [],
        alpn: ALPNCertificates? = nil
    ) {
        self.defaultContext = defaultContext
        self.exact = exact
        self.wildcard = wildcard
        self.issues = issues
        self.directory = directory
        self.byFile = byFile
        self.supplied = supplied
        self.suppliedNames = suppliedNames
        self.alpn = alpn
        // The SNI callback finds this set through the default context's argument.
        if let ctx = defaultContext {
            _ = csys_ssl_ctx_set_servername_callback(ctx.pointer, sniCallback)
            _ = csys_ssl_ctx_set_servername_arg(ctx.pointer, Unmanaged.passUnretained(self).toOpaque())
            if alpn != nil { csys_ssl_ctx_watch_acme_alpn(ctx.pointer) }
        }
    }

    /// The context serving `hostname`: exact name, then a one-label wildcard, else the default.
    func context(for hostname: String) -> TLSContext? {
        if let c = exact[hostname] { return c }
        if let dot = hostname.firstIndex(of: ".") {
            let parent = String(hostname[hostname.index(after: dot)...])
            if let c = wildcard[parent] { return c }
        }
        return defaultContext
    }

    /// True when a certificate that is valid now covers `hostname` by name (not by default).
    public func covers(_ hostname: String) -> Bool {
        let host = hostname.lowercased()
        var candidate = exact[host]
        if candidate == nil, let dot = host.firstIndex(of: ".") {
            candidate = wildcard[String(host[host.index(after: dot)...])]
        }
        return candidate?.isValidNow ?? false
    }

    /// Hostnames (and `*.` wildcards) with a certificate, sorted.
    public var hostnames: [String] {
        (Array(exact.keys) + wildcard.keys.map { "*." + $0 }).sorted()
    }

    /// `notAfter` (Unix seconds) of the certificate that would serve `hostname`.
    public func expiry(of hostname: String) -> Int64? {
        context(for: hostname.lowercased())?.notAfter
    }

    public var isEmpty: Bool { defaultContext == nil }

    /// Where the certificate that serves `hostname` by name (not by default) comes from;
    /// nil when none does.
    public func origin(of hostname: String) -> CertificateOrigin? {
        let host = hostname.lowercased()
        if suppliedNames.contains(host) { return .supplied }
        guard let ctx = named(host) else { return nil }
        return ctx.selfIssued ? .selfSigned : .directory
    }

    /// The issuer (RFC 2253 text) of the certificate that serves `hostname` by name.
    public func issuer(of hostname: String) -> String? { named(hostname.lowercased())?.issuer }

    /// `notAfter` (Unix seconds) of the certificate that serves `hostname` by name.
    public func namedExpiry(of hostname: String) -> Int64? { named(hostname.lowercased())?.notAfter }

    /// True when an operator's certificate from the directory covers `hostname` (exact or
    /// wildcard), is valid now and is not self-signed: such a certificate wins over a
    /// supplied one, and nothing needs ordering for the name.
    public func directoryCovers(_ hostname: String) -> Bool {
        let host = hostname.lowercased()
        if !suppliedNames.contains(host), let c = exact[host], Self.authoritative(c) { return true }
        if let dot = host.firstIndex(of: "."), let c = wildcard[String(host[host.index(after: dot)...])] {
            return Self.authoritative(c)
        }
        return false
    }

    private static func authoritative(_ ctx: TLSContext) -> Bool { ctx.isValidNow && !ctx.selfIssued }

    private func named(_ host: String) -> TLSContext? {
        if let c = exact[host] { return c }
        if let dot = host.firstIndex(of: ".") { return wildcard[String(host[host.index(after: dot)...])] }
        return nil
    }

    /// Loads every `*.pem` in `directory`. A file that fails to load is reported in
    /// `problems` and `failedFiles`; when `previous` had loaded that file, its last good
    /// certificate keeps serving (a half-written or broken replacement must not put the
    /// self-signed default in front of a domain's visitors); else it is skipped. The
    /// others serve as usual. `default.pem`, when present, is the certificate for
    /// unknown names; else the first file in name order.
    ///
    /// `supplied` certificates (held in memory, such as those ordered through ACME) serve
    /// their hostname unless a directory certificate covers it (`directoryCovers`). One
    /// that fails to load keeps its previous version serving, as a directory file does.
    /// `alpn`: the `acme-tls/1` certificates the SNI callback may present.
    public static func load(
        directory: String?, previous: CertificateSet? = nil, supplied: [SuppliedCertificate] = [],
        alpn: ALPNCertificates? = nil
    ) -> CertificateSet {
        var set = loadDirectory(directory, previous: previous)
        if !supplied.isEmpty || alpn != nil {
            set = set.adding(supplied, previous: previous, alpn: alpn)
        }
        return set
    }

    /// A set with the directory's certificates and `supplied` where the directory does not
    /// cover their names.
    private func adding(_ list: [SuppliedCertificate], previous: CertificateSet?, alpn: ALPNCertificates?)
        -> CertificateSet
    {
        var exact = self.exact
        var issues = self.issues
        var contexts: [String: (version: String, context: TLSContext)] = [:]
        var names: Set<String> = []
        for cert in list.sorted(by: { $0.hostname < $1.hostname }) where !directoryCovers(cert.hostname) {
            let host = cert.hostname
            let label = "supplied certificate for " + host
            if let last = previous?.supplied[host], last.version == cert.version {
                contexts[host] = last
            } else {
                do throws(TLSError) {
                    contexts[host] = (cert.version, try TLSContext(pem: cert.pem, label: label))
                } catch {
                    var issue = CertificateIssue(path: label, reason: error.reason, unusable: true)
                    if let last = previous?.supplied[host] {
                        issue.servingLastGood = true
                        contexts[host] = last
                    }
                    issues.append(issue)
                }
            }
            if let ctx = contexts[host]?.context {
                exact[host] = ctx
                names.insert(host)
            }
        }
        var defaultContext = self.defaultContext
        if defaultContext == nil, let first = list.first(where: { names.contains($0.hostname) }) {
            // A context of its own: the default one carries this set's SNI callback.
            defaultContext = try? TLSContext(pem: first.pem, label: "supplied certificate for " + first.hostname)
        }
        return CertificateSet(
            defaultContext: defaultContext, exact: exact, wildcard: wildcard, issues: issues, directory: directory,
            byFile: byFile, supplied: contexts, suppliedNames: names, alpn: alpn)
    }

    private static func loadDirectory(_ directory: String?, previous: CertificateSet?) -> CertificateSet {
        guard let directory else {
            return CertificateSet(defaultContext: nil, exact: [:], wildcard: [:], issues: [], directory: nil)
        }
        var issues: [CertificateIssue] = []
        var files: [String] = []
        if let dir = opendir(directory) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasSuffix(".pem") && !name.hasPrefix(".") { files.append(name) }
            }
            closedir(dir)
        } else {
            issues.append(.init(path: directory, reason: "cannot open the certificate directory", unusable: false))
        }
        files.sort()
        var exact: [String: TLSContext] = [:]
        var wildcard: [String: TLSContext] = [:]
        var defaultContext: TLSContext?
        var byFile: [(String, TLSContext)] = []
        var loaded: [String: TLSContext] = [:]
        for file in files {
            do {
                let ctx = try TLSContext(pemPath: directory + "/" + file)
                if !ctx.isValidNow {
                    issues.append(
                        .init(
                            path: directory + "/" + file, reason: "certificate is expired or not yet valid",
                            unusable: false))
                }
                byFile.append((String(file.dropLast(4)).lowercased(), ctx))
                loaded[file] = ctx
            } catch {
                var issue = CertificateIssue(path: directory + "/" + file, reason: error.reason, unusable: true)
                if let lastGood = previous?.byFile[file], previous?.directory == directory {
                    issue.servingLastGood = true
                    byFile.append((String(file.dropLast(4)).lowercased(), lastGood))
                    loaded[file] = lastGood
                }
                issues.append(issue)
            }
        }
        func add(_ name: String, _ ctx: TLSContext, overwrite: Bool) {
            if name.hasPrefix("*.") {
                let parent = String(name.dropFirst(2))
                if overwrite || wildcard[parent] == nil { wildcard[parent] = ctx }
            } else if overwrite || exact[name] == nil {
                exact[name] = ctx
            }
        }
        // Names inside certificates first, file names last so that they win.
        for (_, ctx) in byFile { for n in ctx.names { add(n, ctx, overwrite: false) } }
        for (name, ctx) in byFile where name != "default" { add(name, ctx, overwrite: true) }
        defaultContext = byFile.first { $0.0 == "default" }?.1 ?? byFile.first?.1
        return CertificateSet(
            defaultContext: defaultContext, exact: exact, wildcard: wildcard, issues: issues,
            directory: directory, byFile: loaded)
    }
}

/// Where the certificate serving a name comes from.
public enum CertificateOrigin: String, Sendable {
    /// A file of the certificate directory, issued by a CA.
    case directory
    /// A self-signed file of the certificate directory (such as the generated `default.pem`).
    case selfSigned = "self-signed"
    /// A supplied certificate (`SuppliedCertificate`).
    case supplied
}

/// A problem with one file (or the directory) of the certificate directory.
public struct CertificateIssue: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    /// The file could not be loaded at all (else: loaded, but expired or not yet valid).
    public var unusable: Bool
    /// The file failed, and the certificate it held before keeps serving.
    public var servingLastGood = false

    public var description: String {
        "\(path): \(reason)" + (servingLastGood ? " (serving its last good certificate)" : "")
    }
}

/// Switches a handshake to the context of the requested server name.
private let sniCallback: csys_servername_cb = { ssl, _, arg in
    guard let ssl, let arg, let raw = csys_ssl_get_servername(ssl) else { return SSL_TLSEXT_ERR_OK }
    let set = Unmanaged<CertificateSet>.fromOpaque(arg).takeUnretainedValue()
    var name = String(cString: raw).lowercased()
    if name.hasSuffix(".") { name.removeLast() }
    if let alpn = set.alpn, !alpn.isEmpty, csys_ssl_offered_acme_alpn(ssl) == 1, let ctx = alpn.context(for: name) {
        // SSL_set_SSL_CTX holds its own reference: the context outlives its removal.
        _ = SSL_set_SSL_CTX(ssl, ctx.pointer)
        return SSL_TLSEXT_ERR_OK
    }
    if let ctx = set.context(for: name), ctx !== set.defaultContext {
        _ = SSL_set_SSL_CTX(ssl, ctx.pointer)
    }
    return SSL_TLSEXT_ERR_OK
}
