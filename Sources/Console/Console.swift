import Core
import HTTPMessages
import Management
import Model
import Store

/// The operator console: the pages under `/console/` on the console's own listener
/// (`BIQLI_EDGE_CONSOLE_ADDR`), rendered here from the store and the workspace API's
/// operations. The edge routes every request of that listener to `handle` and nothing
/// else there.
///
/// Reads and rendering run on the request's event loop, with its store reader (each a
/// few index look-ups: a page costs the same on a workspace of any size); writes go
/// through the store's writer and answer back on the loop (`ConsoleEnvironment.resumeOnLoop`);
/// what scans more than a page's rows (the overview's counts, the domains' checks) runs
/// on the console's background thread (`ConsoleWorker`).
public final class Console: Sendable {
    let store: any Store
    let configuration: ConsoleConfiguration
    let environment: ConsoleEnvironment
    let limiter: SignInLimiter
    let worker: ConsoleWorker
    let overview: OverviewCache

    /// `backgroundReaderLoop`: the index of a store reader that no event loop uses, which
    /// the background thread takes for itself.
    public init(
        store: any Store, backgroundReaderLoop: Int, configuration: ConsoleConfiguration = .init(),
        environment: ConsoleEnvironment
    ) {
        self.store = store
        self.configuration = configuration
        self.environment = environment
        limiter = SignInLimiter(
            policy: .init(burst: configuration.signInBurst, intervalSeconds: configuration.signInIntervalSeconds))
        worker = ConsoleWorker(store: store, readerLoop: backgroundReaderLoop)
        overview = OverviewCache(
            worker: worker, configuration: configuration, now: environment.now, log: environment.log,
            counted: { environment.counted("overview", $0) })
    }

    /// Starts the background thread, and the overview's first count on it.
    public func start() {
        worker.start()
        overview.warm()
    }

    /// Ends the background thread after its queued work.
    public func stop() { worker.stop() }

    /// The path of the console's root (`/console/`); `/console` is sent there (308).
    public static let prefix = "/console"

    /// The segments the console listener's router matches (`nil`: 400): a path below
    /// `/console/` has its segments percent-decoded (a `+` stays a plus) and a trailing `/`
    /// dropped (`/console/` is `console` and one empty segment, as the pattern `/console/`
    /// is); an empty segment inside, or one that is not UTF-8, names nothing. Other paths
    /// are split as sent.
    public static func segments(_ path: Substring) -> [Substring]? {
        guard path.hasPrefix("/console/") else {
            return path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
        }
        var below: [Substring] = []
        for part in path.dropFirst("/console/".count).split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = ConsoleRequest.decodeSegment(part) else { return nil }
            below.append(Substring(decoded))
        }
        if below.last == "" { below.removeLast() }
        guard !below.contains("") else { return nil }
        return ["console"] + (below.isEmpty ? [""] : below)
    }

    /// Answers the page of `endpoint` (the route the router picked; `parameter`: its
    /// values). `reader`: the serving loop's.
    public func answer(
        _ endpoint: ConsoleEndpoint, parameter: (String) -> String, _ http: HTTPRequest, client: ConsoleClient,
        reader: any StoreReader
    ) -> ConsoleAnswer {
        guard let request = ConsoleRequest(http, client: client) else {
            return .response(MessagePage.badRequest(csrf: nil))
        }
        let route = endpoint.route(parameter)
        do {
            if route.isPublic { return try publicRoute(route, request, reader) }
            guard let session = try signedIn(request, reader) else { return .response(Self.toSignIn(request)) }
            if request.method == .post && !session.token.accepts(csrf: request.form?["csrf"]) {
                return .response(MessagePage.forbidden(csrf: session.token.csrf))
            }
            return try sessionRoute(route, request, session, reader)
        } catch {
            return failed(error)
        }
    }

    /// A path below `/console/` that no page has (404, with the session's form token when
    /// signed in).
    public func notFound(_ http: HTTPRequest, client: ConsoleClient, reader: any StoreReader) -> HTTPResponse {
        guard let request = ConsoleRequest(http, client: client) else { return MessagePage.badRequest(csrf: nil) }
        do {
            return MessagePage.notFound(csrf: try signedIn(request, reader)?.token.csrf)
        } catch {
            guard case .response(let response) = failed(error) else { preconditionFailure("a failure answers at once") }
            return response
        }
    }

    /// A method a page does not take (`allowed`: its pages' methods, HEAD after GET).
    public func methodNotAllowed(_ http: HTTPRequest, client: ConsoleClient, allowed: [HTTPMethod]) -> HTTPResponse {
        guard ConsoleRequest(http, client: client) != nil else { return MessagePage.badRequest(csrf: nil) }
        let names = allowed.map(\.name)
        return MessagePage.render(
            status: 405, title: "Method not allowed", message: "This page takes " + names.joined(separator: ", ") + ".",
            csrf: nil, extraHeaders: [("Allow", names.joined(separator: ", "))])
    }

    /// `/console`: to `/console/`.
    public static func toRoot() -> HTTPResponse {
        var headers = ConsoleHeaders.common()
        headers.add("Location", "/console/")
        return HTTPResponse(status: 308, headers: headers)
    }

    /// A path outside `/console/` (404), or one the router's segments refuse (400).
    public static func outside() -> HTTPResponse { MessagePage.notFound(csrf: nil) }
    public static func badRequest() -> HTTPResponse { MessagePage.badRequest(csrf: nil) }

    private func failed(_ error: any Error) -> ConsoleAnswer {
        environment.log.error("console request failed", [("detail", .string("\(error)"))])
        return .response(MessagePage.failure(csrf: nil))
    }

    private func publicRoute(_ route: ConsoleRoute, _ request: ConsoleRequest, _ reader: any StoreReader) throws
        -> ConsoleAnswer
    {
        switch route {
        case .asset(let name):
            let response = ConsoleAssets.response(name: name, ifNoneMatch: request.headers["if-none-match"])
            return .response(response ?? MessagePage.notFound(csrf: nil))
        case .signInForm: return try signInForm(request, reader)
        case .signIn: return try signIn(request, reader)
        case .signInOnce: return signInOnce(request)
        default: return .response(MessagePage.notFound(csrf: nil))
        }
    }

    private func sessionRoute(
        _ route: ConsoleRoute, _ request: ConsoleRequest, _ session: SignedIn, _ reader: any StoreReader
    ) throws -> ConsoleAnswer {
        let csrf = session.token.csrf
        switch route {
        case .signOut: return signOut(request, session)
        case .overview: return overviewPage(csrf: csrf, client: request.client)
        case .links: return .response(try linksPage(request, csrf: csrf, reader))
        case .newLink: return .response(try newLinkPage(csrf: csrf, reader))
        case .createLink: return try createLink(request, csrf: csrf, reader)
        case .link(let id): return .response(try linkPage(id, request, csrf: csrf, reader))
        case .editLink(let id): return .response(try editLinkPage(id, csrf: csrf, reader))
        case .updateLink(let id): return try updateLink(id, request, csrf: csrf, reader)
        case .setEnabled(let id, let enabled): return setEnabled(id, enabled, request, csrf: csrf)
        case .confirmDelete(let id): return .response(try confirmDeletePage(id, csrf: csrf, reader))
        case .delete(let id): return deleteLink(id, request, csrf: csrf)
        case .qrCode(let id): return .response(try qrCode(id, csrf: csrf, reader))
        case .tags: return .response(TagsPage.render(.init(tags: try reader.tags()), csrf: csrf))
        case .createTag: return createTag(request, csrf: csrf)
        case .updateTag(let id): return updateTag(id, request, csrf: csrf)
        case .deleteTag(let id): return deleteTag(id, request, csrf: csrf)
        case .apps: return .response(AppsPage.render(try reader.apps(), csrf: csrf))
        case .app(let id): return .response(try appPage(id, csrf: csrf, reader))
        case .rotateKeys(let id): return rotateKeys(id, request, csrf: csrf)
        case .domains: return domainsPage(csrf: csrf)
        case .customers: return .response(try customersPage(request, csrf: csrf, reader))
        case .customer(let externalId): return .response(try customerPage(externalId, csrf: csrf, reader))
        case .settings: return .response(try settingsPage(csrf: csrf, reader))
        case .updateSettings: return updateSettings(request, csrf: csrf)
        case .webhooks: return .response(WebhooksPage.render(try reader.webhookEndpoints(), csrf: csrf))
        case .webhook(let id): return .response(try webhookPage(id, csrf: csrf, reader))
        case .testWebhook(let id): return testWebhook(id, request, csrf: csrf)
        case .asset, .signInForm, .signIn, .signInOnce: return .response(MessagePage.notFound(csrf: csrf))
        }
    }

    // MARK: shared by the handlers

    /// A request's live session: its cookie's token, known to the store (with its key
    /// not revoked) and not expired.
    struct SignedIn: Sendable {
        let token: SessionToken
        let session: ConsoleSession
    }

    func signedIn(_ request: ConsoleRequest, _ reader: any ConsoleReading) throws(StoreError) -> SignedIn? {
        guard let text = ConsoleCookies.value(ConsoleCookies.session, in: request.headers),
            let token = SessionToken(text),
            let session = try reader.consoleSession(tokenHash: token.hash),
            session.kind == .session, session.isLive(at: environment.now())
        else { return nil }
        return SignedIn(token: token, session: session)
    }

    /// 303 to the sign-in page, forgetting a session cookie that is no longer good.
    static func toSignIn(_ request: ConsoleRequest) -> HTTPResponse {
        var extra: [(String, String)] = []
        if ConsoleCookies.value(ConsoleCookies.session, in: request.headers) != nil {
            extra.append(("Set-Cookie", ConsoleCookies.clear(ConsoleCookies.session, secure: request.client.secure)))
        }
        return redirect(ConsolePaths.signIn.path, extra: extra)
    }

    /// 303 See Other: after a POST, the browser GETs `location`.
    static func redirect(_ location: String, extra: [(String, String)] = []) -> HTTPResponse {
        var headers = ConsoleHeaders.common()
        headers.add("Location", location)
        headers.add("Cache-Control", "no-store")
        for (name, value) in extra { headers.add(name, value) }
        return HTTPResponse(status: 303, headers: headers)
    }

    /// Runs `body` on the store's writer; `answer` renders the outcome back on the
    /// request's loop, with its reader.
    func write<T: Sendable>(
        _ request: ConsoleRequest, _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        answer: @escaping @Sendable (Result<T, WriteError<ConsoleRefusal>>, any StoreReader) -> HTTPResponse
    ) -> ConsoleAnswer {
        let loop = request.client.loop
        let store = self.store
        let environment = self.environment
        return .deferred { respond in
            store.write(refusing: ConsoleRefusal.self, { tx in try ConsoleRefusal.wrapping { try body(tx) } }) {
                result in
                environment.resumeOnLoop(loop) { respond(answer(result, store.reader(loop: loop))) }
            }
        }
    }

    /// The page for a write the store failed (logged) or refused for no field.
    func failure(_ error: WriteError<ConsoleRefusal>, csrf: String) -> HTTPResponse {
        switch error {
        case .refused(.operation(let refusal)) where refusal.status == 404:
            return MessagePage.notFound(csrf: csrf)
        case .refused(let refusal):
            return MessagePage.render(
                status: 409, title: "Not done", message: refusal.message, csrf: csrf,
                back: (ConsolePaths.overview, "Go to the overview"))
        case .store(let error):
            environment.log.error("console write failed", [("detail", .string(error.safeMessage))])
            return MessagePage.failure(csrf: csrf)
        }
    }
}
