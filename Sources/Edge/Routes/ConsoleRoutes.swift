import Console
import Core
import HTTP
import HTTPMessages
import Management
import Model
import Store

/// The operator console's listener (`BIQLI_EDGE_CONSOLE_ADDR`): the console's pages
/// under `/console/` and 404 elsewhere. Its own route table, so that the public listeners
/// never reach the console and the console's listener reaches nothing else
/// (`ListenerDispatch`).
enum ConsoleRoutes {
    /// The console, wired to the edge: its background thread reads through the store
    /// reader after the loops' (`EdgeApplication` opens one more when the console is on).
    static func makeConsole(services: EdgeServices) -> Console {
        let configuration = services.configuration
        let server = services.server
        let log = services.log
        var settings = ConsoleConfiguration()
        settings.sessionLifetimeSeconds = Int64(configuration.consoleSessionHours) * 3_600
        let environment = ConsoleEnvironment(
            now: { services.nowMilliseconds },
            resumeOnLoop: { loop, work in server.post(toLoop: loop, work) },
            certificate: { host in certificateStatus(services.certificate(host)) },
            domainFindings: { reader in try domainFindings(reader, server.certificates, now: services.nowMilliseconds)
            },
            dns: { dnsTarget(configuration, server) },
            log: log,
            counted: { job, succeeded in services.consoleMetrics.count(job: job, succeeded: succeeded) })
        return Console(
            store: services.store, backgroundReaderLoop: configuration.loops,
            configuration: settings, environment: environment)
    }

    /// The console's table: its pages below `/console` (`ConsoleEndpoint`), in a group that
    /// answers its own 404 and 405 as console pages, `/console` sent to `/console/`, and a
    /// console 404 for every other path. Paths are matched percent-decoded
    /// (`Console.segments`); one the console cannot read is 400. Every answer is named
    /// `console` (the access log's and metrics' label).
    static func router(console: Console, services: EdgeServices) -> Router {
        let routes = RouterBuilder()
        routes.segmenter = Console.segments
        routes.notFoundName = name
        routes.notFound = { _, _, _ in .response(Console.outside()) }
        routes.unsegmentableName = name
        routes.unsegmentable = { _, _, _ in .response(Console.badRequest()) }
        routes.add(nil, Console.prefix, name: name) { _, _, _ in .response(Console.toRoot()) }
        let client: @Sendable (HTTPRequest, RequestContext) -> ConsoleClient = { request, context in
            ConsoleClient(
                address: services.clients.clientAddress(context, request.headers),
                secure: services.clients.isHTTPS(
                    peer: context.peerAddress, listener: context.listener, headers: request.headers),
                loop: context.loopIndex)
        }
        let pages = routes.group(Console.prefix).answering(
            name: name,
            notFound: { request, context, _ in
                .response(console.notFound(request, client: client(request, context), reader: services.reader(context)))
            },
            methodNotAllowed: { request, context, allowed in
                .response(console.methodNotAllowed(request, client: client(request, context), allowed: allowed))
            })
        for endpoint in ConsoleEndpoint.all {
            pages.add([endpoint.method], endpoint.pattern, name: name) { request, context, parameters in
                let answer = console.answer(
                    endpoint, parameter: { parameters[$0] ?? "" }, request, client: client(request, context),
                    reader: services.reader(context))
                switch answer {
                case .response(let response):
                    return .response(response)
                case .deferred(let later):
                    let responder = context.deferResponse()
                    later { responder.respond($0) }
                    return .deferred
                }
            }
        }
        return routes.build()
    }

    static let name = "console"

    /// The domain's certificate as the workspace API shows it (`EdgeServices.certificate`:
    /// the certificate set's, with ACME's state when ACME is on), for the domains page.
    static func certificateStatus(_ c: DomainCertificate) -> CertificateStatus {
        var problem: String?
        if let e = c.lastError {
            problem = e.detail
            if let next = c.nextAttemptAt {
                problem! += " (next attempt \(Timestamp.format(milliseconds: next)))"
            }
        }
        return CertificateStatus(
            status: c.status.rawValue, source: c.source.rawValue, notAfter: c.notAfter, issuer: c.issuer,
            problem: problem)
    }

    /// `biqli-edge check`'s findings about the store (keys, certificates of the domains,
    /// association files), with the certificates the edge serves now.
    static func domainFindings(
        _ reader: any CatalogReading & LinkReading & KeyReading, _ certificates: CertificateSet, now: Int64
    ) throws -> [DomainFinding] {
        let domains = try reader.domains()
        var links: [String: [LinkClaim]] = [:]
        for domain in domains { links[domain.hostname] = try reader.linkClaims(domain: domain.hostname) }
        let findings = EdgeChecker.checkStore(
            domains: domains, apps: try reader.apps(), links: links, keys: try reader.secretKeys(),
            certificates: certificates, now: now)
        return findings.map {
            DomainFinding(
                severity: $0.severity.rawValue, code: $0.code, subject: $0.subject, message: $0.message,
                fix: $0.fix.isEmpty ? nil : $0.fix)
        }
    }

    /// The public URL's host when domains can be a CNAME of it (a DNS name, not
    /// localhost), and the public listeners' ports.
    static func dnsTarget(_ configuration: EdgeConfiguration, _ server: HTTPServer) -> DNSTarget {
        let url = configuration.publicURL
        let afterScheme = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: true).dropFirst().first
        let host = afterScheme.map { String($0.split(separator: ":").first ?? $0).lowercased() } ?? ""
        let isName =
            host.contains(".") && host.contains(where: { $0.isLetter }) && host != "localhost"
            && !host.hasSuffix(".localhost")
        return DNSTarget(
            canonicalName: isName ? host : nil,
            httpsPort: server.configuration.httpsAddress.map { _ in port(.https, server) },
            httpPort: server.configuration.httpAddress.map { _ in port(.http, server) })
    }

    private static func port(_ kind: ListenerKind, _ server: HTTPServer) -> Int {
        server.boundAddresses.first { $0.0 == kind }?.1.port
            ?? (kind == .https ? server.configuration.httpsAddress?.port : server.configuration.httpAddress?.port) ?? 0
    }
}
