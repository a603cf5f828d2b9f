import Core
import Outbound
import Synchronization

/// One CA's ACME endpoint (RFC 8555): its directory, anti-replay nonces, signed requests
/// (a `badNonce` answer is retried with the nonce that came with it, section 6.5) and
/// the account. The certificate manager's ordering thread uses it; the directory and the
/// next nonce are behind a lock, never held across a request.
public final class ACMEClient: Sendable {
    public let directoryURL: String
    private let http: HTTPSClient
    private struct State {
        var directory: ACMEDirectory?
        /// The CA's last `Replay-Nonce`, used once.
        var nonce: String?
    }
    private let state = Mutex<State>(State())
    /// Retries after `badNonce`, for `/metrics`.
    public let badNonceRetries = Atomic<Int>(0)
    /// How many times one request is sent again after `badNonce`.
    static let badNonceAttempts = 10
    private let now: @Sendable () -> Int64

    public init(directoryURL: String, http: HTTPSClient, now: @escaping @Sendable () -> Int64) {
        self.directoryURL = directoryURL
        self.http = http
        self.now = now
    }

    /// The directory, fetched once (again after `forgetDirectory`).
    public func directory() throws(ACMEProblem) -> ACMEDirectory {
        if let cached = state.withLock({ $0.directory }) { return cached }
        let response = try send("GET", directoryURL, headers: [], body: nil)
        guard response.isSuccess, let json = response.json, let directory = ACMEDirectory(json: json) else {
            throw Self.problem(response, now: now(), otherwise: "the ACME directory at \(directoryURL) is unusable")
        }
        state.withLock { $0.directory = directory }
        return directory
    }

    /// After a failure that may come from a changed directory (or a CA that restarted).
    public func forgetDirectory() {
        state.withLock { $0 = State() }
    }

    /// A signed POST (`payload` nil: POST-as-GET), retried on `badNonce`. Throws the CA's
    /// problem for an answer that is not 2xx.
    public func post(
        _ url: String, payload: JSONValue?, key: ECKey, identification: JWS.KeyIdentification,
        accept: String? = nil
    ) throws(ACMEProblem) -> HTTPSResponse {
        var attempt = 0
        while true {
            let nonce = try takeNonce()
            let body: [UInt8]
            do {
                body = try JWS.sign(payload: payload, url: url, nonce: nonce, key: key, identification: identification)
            } catch {
                throw .local("signing", error.description)
            }
            var headers = [("Content-Type", "application/jose+json")]
            if let accept { headers.append(("Accept", accept)) }
            let response = try send("POST", url, headers: headers, body: body)
            if response.isSuccess { return response }
            let problem = Self.problem(response, now: now(), otherwise: "the CA answered \(response.status)")
            attempt += 1
            if problem.isBadNonce && attempt < Self.badNonceAttempts {
                badNonceRetries.add(1, ordering: .relaxed)
                continue
            }
            throw problem
        }
    }

    /// A GET that needs no signature (renewal information).
    public func get(_ url: String) throws(ACMEProblem) -> HTTPSResponse {
        let response = try send("GET", url, headers: [], body: nil)
        guard response.isSuccess else {
            throw Self.problem(response, now: now(), otherwise: "the CA answered \(response.status)")
        }
        return response
    }

    /// Registers `key`'s account, or finds it when the CA knows the key already (another
    /// node registered it): its URL. `eab`: the CA's key id and MAC key, when it binds
    /// accounts to an external one.
    public func account(key: ECKey, contact: String?, eab: ExternalAccount?) throws(ACMEProblem) -> String {
        let directory = try directory()
        var payload: [(String, JSONValue)] = [("termsOfServiceAgreed", true)]
        if let contact { payload.append(("contact", [.string("mailto:" + contact)])) }
        if let eab {
            payload.append(
                (
                    "externalAccountBinding",
                    JWS.externalAccountBinding(
                        accountKey: key, keyID: eab.keyID, macKey: eab.macKey, url: directory.newAccount)
                ))
        } else if directory.externalAccountRequired {
            throw .local(
                "configuration",
                "the CA requires an external account binding: set BIQLI_EDGE_ACME_EAB_KID and BIQLI_EDGE_ACME_EAB_HMAC_KEY"
            )
        }
        let response = try post(directory.newAccount, payload: .object(payload), key: key, identification: .jwk)
        guard let location = response.header("Location") else {
            throw .local("malformed", "the CA's newAccount answer has no Location")
        }
        // Kept in the store: outside text, under the one rule.
        return StorableText.clean(location)
    }

    // MARK: transport

    private func takeNonce() throws(ACMEProblem) -> String {
        if let kept = state.withLock({ s in s.nonce.take() }) { return kept }
        let directory = try directory()
        let response = try send("HEAD", directory.newNonce, headers: [], body: nil)
        guard let fresh = response.header("Replay-Nonce") else {
            throw Self.problem(response, now: now(), otherwise: "the CA gave no nonce")
        }
        return fresh
    }

    /// Sends, keeping the answer's nonce for the next request.
    private func send(_ method: String, _ url: String, headers: [(String, String)], body: [UInt8]?)
        throws(ACMEProblem) -> HTTPSResponse
    {
        let response: HTTPSResponse
        do {
            response = try http.send(method, url, headers: headers, body: body)
        } catch {
            state.withLock { $0.nonce = nil }
            throw .local("connection", error.description)
        }
        if let fresh = response.header("Replay-Nonce"), !fresh.isEmpty, Base64URL.isAlphabet(Substring(fresh)) {
            state.withLock { $0.nonce = fresh }
        }
        return response
    }

    /// The problem document of a failed answer (or `otherwise`).
    static func problem(_ response: HTTPSResponse, now: Int64, otherwise: String) -> ACMEProblem {
        let wait = RetryAfter.milliseconds(response.header("Retry-After"), now: now)
        if let json = response.json,
            let problem = ACMEProblem(json: json, status: response.status, retryAfterMilliseconds: wait)
        {
            return problem
        }
        var problem = ACMEProblem.local("malformed", otherwise)
        problem.status = response.status
        problem.retryAfterMilliseconds = wait
        return problem
    }
}

/// The CA's external account (RFC 8555, section 7.3.4): its key id and MAC key.
public struct ExternalAccount: Sendable, Equatable {
    public var keyID: String
    /// The decoded HMAC key. A secret.
    public var macKey: [UInt8]

    public init(keyID: String, macKey: [UInt8]) {
        self.keyID = keyID
        self.macKey = macKey
    }
}
