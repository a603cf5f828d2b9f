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
    /// Problems met while loading, one line each (the set is still usable).
    public let problems: [String]
    public let directory: String?

    init(
        defaultContext: TLSContext?, exact: [String: TLSContext], wildcard: [String: TLSContext], problems: [String],
        directory: String?
    ) {
        self.defaultContext = defaultContext
        self.exact = exact
        self.wildcard = wildcard
        self.problems = problems
        self.directory = directory
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
    /// `problems` and skipped; the others still serve. `default.pem`, when present,
    /// is the certificate for unknown names; else the first file in name order.
    public static func load(directory: String?) -> CertificateSet {
        guard let directory else {
            return CertificateSet(defaultContext: nil, exact: [:], wildcard: [:], problems: [], directory: nil)
        }
        var problems: [String] = []
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
            problems.append("\(directory): cannot open the certificate directory")
        }
        files.sort()
        var exact: [String: TLSContext] = [:]
        var wildcard: [String: TLSContext] = [:]
        var defaultContext: TLSContext?
        var byFile: [(String, TLSContext)] = []
        for file in files {
            do {
                let ctx = try TLSContext(pemPath: directory + "/" + file)
                if !ctx.isValidNow { problems.append("\(directory)/\(file): certificate is expired or not yet valid") }
                byFile.append((String(file.dropLast(4)).lowercased(), ctx))
            } catch {
                problems.append(error.description)
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
            defaultContext: defaultContext, exact: exact, wildcard: wildcard, problems: problems, directory: directory)
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
