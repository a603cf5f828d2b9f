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
public final class CertificateSet: @unchecked Sendable {
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

    init(
        defaultContext: TLSContext?, exact: [String: TLSContext], wildcard: [String: TLSContext],
        issues: [CertificateIssue],
        directory: String?, byFile: [String: TLSContext] = [:]
    ) {
        self.defaultContext = defaultContext
        self.exact = exact
        self.wildcard = wildcard
        self.issues = issues
        self.directory = directory
        self.byFile = byFile
        // The SNI callback finds this set through the default context's argument.
        if let ctx = defaultContext {
            _ = csys_ssl_ctx_set_servername_callback(ctx.pointer, sniCallback)
            _ = csys_ssl_ctx_set_servername_arg(ctx.pointer, Unmanaged.passUnretained(self).toOpaque())
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

    /// Loads every `*.pem` in `directory`. A file that fails to load is reported in
    /// `problems` and `failedFiles`; when `previous` had loaded that file, its last good
    /// certificate keeps serving (a half-written or broken replacement must not put the
    /// self-signed default in front of a domain's visitors); else it is skipped. The
    /// others serve as usual. `default.pem`, when present, is the certificate for
    /// unknown names; else the first file in name order.
    public static func load(directory: String?, previous: CertificateSet? = nil) -> CertificateSet {
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
    if let ctx = set.context(for: name), ctx !== set.defaultContext {
        _ = SSL_set_SSL_CTX(ssl, ctx.pointer)
    }
    return SSL_TLSEXT_ERR_OK
}
