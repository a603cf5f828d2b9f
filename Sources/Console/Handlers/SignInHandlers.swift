import Core
import HTTPMessages
import Management
import Model
import Store

/// Signing in (a workspace key, or a one-time link) and out.
extension Console {
    /// How long the sign-in form's cookie lives: long enough to type a key.
    static let formCookieSeconds: Int64 = 86_400

    /// `GET /console/sign-in`: the form, with its CSRF token derived from a cookie of its
    /// own (set here when missing); a signed-in operator goes to the overview.
    func signInForm(_ request: ConsoleRequest, _ reader: any ConsoleReading) throws -> ConsoleAnswer {
        if try signedIn(request, reader) != nil { return .response(Self.redirect(ConsolePaths.overview.path)) }
        let (token, setCookie) = formToken(request)
        return .response(SignInPage.render(csrf: token.csrf, extraHeaders: setCookie))
    }

    /// `POST /console/sign-in`: checks the form's token (a request without it spends
    /// nothing: another site's page cannot send it), then the key. A right key gets a new
    /// session (303 to the overview with its cookie) whatever the address's allowance, so
    /// that wrong keys sent by others from the same address (every SSH tunnel arrives as
    /// 127.0.0.1) never lock the operator out; a wrong one is counted, and once the
    /// address has spent its allowance it is answered 429 with `Retry-After`.
    func signIn(_ request: ConsoleRequest, _ reader: any KeyReading) throws -> ConsoleAnswer {
        guard let text = ConsoleCookies.value(ConsoleCookies.form, in: request.headers),
            let form = SessionToken(text), form.accepts(csrf: request.form?["csrf"])
        else {
            return .response(
                MessagePage.render(
                    status: 403, title: "Form refused",
                    message: "The sign-in form was sent without its security token, or with an old one.",
                    csrf: nil, back: (ConsolePaths.signIn, "Open the sign-in form again")))
        }
        let now = environment.now()
        let address = request.client.address
        let key = request.form?.text("key") ?? ""
        guard let record = try WorkspaceOperations.authenticate(key: key, reader: reader) else {
            if let wait = limiter.retryAfter(address, now: now) {
                return .response(tooManyAttempts(form, wait: wait))
            }
            limiter.recordFailure(address, now: now)
            environment.log.warn("console sign-in refused", [("reason", .string("unknown or revoked key"))])
            return .response(
                SignInPage.render(
                    status: 401, csrf: form.csrf,
                    error: "This is not a usable workspace secret key (it is unknown, revoked or mistyped)."))
        }
        return startSession(request, keyId: record.id, replacing: nil)
    }

    /// `GET /console/sign-in/once?token=...`: a one-time link, exchanged for a session
    /// (the link's row deleted in the same transaction, so that it works once). It spends
    /// no allowance, used or not: a GET needs no form token, so any page the operator
    /// opens could send it (an `<img>`), and a link is 256 random bits: nobody guesses one.
    func signInOnce(_ request: ConsoleRequest) -> ConsoleAnswer {
        let (form, setCookie) = formToken(request)
        guard let link = request.query["token"].flatMap(SessionToken.init) else {
            return .response(unusableLink(form, setCookie))
        }
        return startSession(request, keyId: nil, replacing: link, formCookie: setCookie)
    }

    /// Stores a new session for `keyId` (or for the key of the one-time link `replacing`,
    /// which it uses up), then 303 to the overview with the session's cookie.
    private func startSession(
        _ request: ConsoleRequest, keyId: String?, replacing link: SessionToken?, formCookie: [(String, String)] = []
    ) -> ConsoleAnswer {
        let token = SessionToken.random()
        let now = environment.now()
        let lifetime = configuration.sessionLifetimeSeconds
        let secure = request.client.secure
        let log = environment.log
        return write(
            request,
            { tx throws -> String in
                var key = keyId ?? ""
                if let link {
                    guard let found = try tx.consoleSession(tokenHash: link.hash), found.kind == .signInLink else {
                        throw ConsoleRefusal.signInLinkUnusable
                    }
                    _ = try tx.deleteConsoleSession(tokenHash: link.hash)
                    // An expired link is deleted all the same; the refusal rolls that back,
                    // and retention removes it.
                    guard found.isLive(at: now) else { throw ConsoleRefusal.signInLinkUnusable }
                    key = found.secretKeyId
                }
                try tx.putConsoleSession(
                    ConsoleSession(
                        tokenHash: token.hash, kind: .session, secretKeyId: key, createdAt: now,
                        expiresAt: now + lifetime * 1_000))
                return key
            },
            answer: { [self] result, _ in
                switch result {
                case .success(let key):
                    log.info(
                        "console sign-in",
                        [("key", .string(key)), ("by", .string(link == nil ? "key" : "one-time link"))])
                    return Self.redirect(
                        ConsolePaths.overview.path,
                        extra: [
                            (
                                "Set-Cookie",
                                ConsoleCookies.set(ConsoleCookies.session, token.text, maxAge: lifetime, secure: secure)
                            ),
                            ("Set-Cookie", ConsoleCookies.clear(ConsoleCookies.form, secure: secure)),
                        ])
                case .failure(.refused(.signInLinkUnusable)):
                    log.warn("console sign-in refused", [("reason", .string("unusable sign-in link"))])
                    let (form, setCookie) = formToken(request)
                    return unusableLink(form, setCookie.isEmpty ? formCookie : setCookie)
                case .failure(let error):
                    return failure(error, csrf: "")
                }
            })
    }

    /// `POST /console/sign-out`: the session deleted, its cookie cleared.
    func signOut(_ request: ConsoleRequest, _ session: SignedIn) -> ConsoleAnswer {
        let hash = session.token.hash
        let secure = request.client.secure
        return write(request, { tx in _ = try tx.deleteConsoleSession(tokenHash: hash) }) { [self] result, _ in
            if case .failure(let error) = result { return failure(error, csrf: session.token.csrf) }
            return Self.redirect(
                ConsolePaths.signIn.path,
                extra: [("Set-Cookie", ConsoleCookies.clear(ConsoleCookies.session, secure: secure))])
        }
    }

    /// A one-time sign-in link for the workspace key `secretKeyId` (its path and query,
    /// to put after the console's address), usable once within the configured lifetime:
    /// what `serve --demo` prints. Blocks until it is stored.
    public func makeSignInLink(secretKeyId: String) throws(StoreError) -> String {
        let token = SessionToken.random()
        let now = environment.now()
        let session = ConsoleSession(
            tokenHash: token.hash, kind: .signInLink, secretKeyId: secretKeyId, createdAt: now,
            expiresAt: now + configuration.signInLinkLifetimeSeconds * 1_000)
        try store.writeAndWait { tx in try tx.putConsoleSession(session) }
        return "/console/sign-in/once?token=" + token.text
    }

    // MARK: helpers

    /// The sign-in form's token: the one in its cookie, or a new one with the `Set-Cookie`
    /// that gives it to the browser.
    private func formToken(_ request: ConsoleRequest) -> (SessionToken, [(String, String)]) {
        if let text = ConsoleCookies.value(ConsoleCookies.form, in: request.headers), let token = SessionToken(text) {
            return (token, [])
        }
        let token = SessionToken.random()
        let cookie = ConsoleCookies.set(
            ConsoleCookies.form, token.text, maxAge: Self.formCookieSeconds, secure: request.client.secure)
        return (token, [("Set-Cookie", cookie)])
    }

    private func tooManyAttempts(_ form: SessionToken, wait: Int64) -> HTTPResponse {
        SignInPage.render(
            status: 429, csrf: form.csrf,
            error: "Too many wrong keys from your address: try again in \(Format.duration(seconds: Int(wait))).",
            extraHeaders: [("Retry-After", String(wait))])
    }

    private func unusableLink(_ form: SessionToken, _ setCookie: [(String, String)]) -> HTTPResponse {
        SignInPage.render(
            status: 401, csrf: form.csrf,
            error:
                "This sign-in link cannot be used: it was used already, has expired (a link lasts \(Format.duration(seconds: Int(configuration.signInLinkLifetimeSeconds)))), or was never made. Sign in with a workspace key.",
            extraHeaders: setCookie)
    }
}
