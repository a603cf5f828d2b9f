import Core
import Outbound
import Store

#if canImport(Glibc)
import Glibc
#endif

/// What publishes a challenge's answer where the CA will look, and takes it away.
protocol ChallengeResponder: AnyObject {
    /// Returns once the answer can be served (by every node that may be asked).
    func publish(_ challenge: ACMEChallengeRecord) throws(ACMEProblem)
    func withdraw(_ challenge: ACMEChallengeRecord)
    /// Waits `milliseconds` unless asked to stop: false when stopped.
    func pause(milliseconds: Int64) -> Bool
}

/// A certificate just issued.
struct IssuedCertificate: Sendable {
    var chainPEM: String
    var keyPEM: String
    var info: CertificateInfo
}

/// One order for one hostname (RFC 8555, section 7.4): new order, each authorization's
/// challenge, finalization with a CSR for a new P-256 key, polling, the chain.
struct ACMEOrder {
    let client: ACMEClient
    let accountKey: ECKey
    let accountURL: String
    let hostname: String
    /// Challenge types to use, best first, among those the CA offers.
    let kinds: [ACMEChallengeRecord.Kind]
    /// The CertID of the certificate this one replaces (RFC 9773, section 5), or nil.
    let replaces: String?
    let responder: any ChallengeResponder
    /// Monotonic nanoseconds: the order gives up past it.
    let deadline: UInt64
    let now: @Sendable () -> Int64

    private var kid: JWS.KeyIdentification { .kid(accountURL) }

    func run() throws(ACMEProblem) -> IssuedCertificate {
        let directory = try client.directory()
        var payload: [(String, JSONValue)] = [("identifiers", [["type": "dns", "value": .string(hostname)]])]
        if let replaces { payload.append(("replaces", .string(replaces))) }
        let created = try client.post(
            directory.newOrder, payload: .object(payload), key: accountKey, identification: kid)
        guard let orderURL = created.header("Location"), var order = created.json else {
            throw .local("malformed", "the CA's newOrder answer has no order")
        }
        for authorization in order["authorizations"]?.arrayValue ?? [] {
            guard let url = authorization.stringValue else { continue }
            try authorize(url)
        }
        order = try poll(orderURL, until: ["ready", "valid", "invalid"], what: "order")
        if order["status"]?.stringValue == "invalid" {
            throw Self.problem(in: order, otherwise: "the order is invalid")
        }
        let key: ECKey
        do {
            key = try ECKey.generate()
        } catch {
            throw .local("crypto", error.description)
        }
        if order["status"]?.stringValue == "ready" {
            guard let finalize = order["finalize"]?.stringValue else {
                throw .local("malformed", "the order has no finalize URL")
            }
            let csr: [UInt8]
            do {
                csr = try CertificateRequest.der(key: key, hostnames: [hostname])
            } catch {
                throw .local("crypto", error.description)
            }
            _ = try client.post(
                finalize, payload: ["csr": .string(Base64URL.encode(csr))], key: accountKey, identification: kid)
            order = try poll(orderURL, until: ["valid", "invalid"], what: "order")
            if order["status"]?.stringValue == "invalid" {
                throw Self.problem(in: order, otherwise: "the CA refused to issue")
            }
        }
        guard let certificateURL = order["certificate"]?.stringValue else {
            throw .local("malformed", "the valid order names no certificate")
        }
        let download = try client.post(
            certificateURL, payload: nil, key: accountKey, identification: kid,
            accept: "application/pem-certificate-chain")
        // Kept in the store: outside text, under the one rule (a NUL outside the PEM blocks
        // would otherwise make the issued certificate unstorable on PostgreSQL).
        let chain = StorableText.from(download.body)
        guard let info = CertificateInfo(pem: chain) else {
            throw .local("malformed", "the CA's certificate chain is unreadable")
        }
        guard CertificateInfo.matches(pem: chain, key: key) else {
            throw .local("malformed", "the CA's certificate is not for the key of the CSR")
        }
        guard info.hostnames.contains(hostname) else {
            throw .local("malformed", "the CA's certificate does not name \(hostname)")
        }
        return IssuedCertificate(chainPEM: chain, keyPEM: key.pem, info: info)
    }

    /// Makes the authorization at `url` valid: nothing to do when the CA reuses a valid one;
    /// else one challenge, published, announced, and polled until the CA decides.
    private func authorize(_ url: String) throws(ACMEProblem) {
        let authorization = try fetch(url)
        switch authorization["status"]?.stringValue {
        case "valid": return
        case "pending": break
        default: throw Self.problem(in: authorization, otherwise: "the authorization is not pending")
        }
        let offered = authorization["challenges"]?.arrayValue ?? []
        var chosen: (kind: ACMEChallengeRecord.Kind, json: JSONValue)?
        for kind in kinds {
            if let c = offered.first(where: { $0["type"]?.stringValue == kind.rawValue }) {
                chosen = (kind, c)
                break
            }
        }
        guard let chosen, let challengeURL = chosen.json["url"]?.stringValue,
            let token = chosen.json["token"]?.stringValue, !token.isEmpty, token.count <= 256,
            Base64URL.isAlphabet(Substring(token))
        else {
            throw .local(
                "challenge",
                "the CA offers none of the challenges this edge can answer ("
                    + kinds.map(\.rawValue).joined(separator: ", ") + ")")
        }
        let record = ACMEChallengeRecord(
            token: token, hostname: hostname, kind: chosen.kind,
            keyAuthorization: JWS.keyAuthorization(token: token, accountKey: accountKey),
            expiresAt: now() + 15 * 60_000)
        try responder.publish(record)
        defer { responder.withdraw(record) }
        _ = try client.post(challengeURL, payload: .object([]), key: accountKey, identification: kid)
        let final = try poll(
            url, until: ["valid", "invalid", "deactivated", "expired", "revoked"], what: "authorization")
        guard final["status"]?.stringValue == "valid" else {
            // The failed challenge carries the CA's reason.
            let failed = final["challenges"]?.arrayValue?.first { $0["error"] != nil }
            throw Self.problem(in: failed ?? final, otherwise: "the validation of \(hostname) failed")
        }
    }

    private func fetch(_ url: String) throws(ACMEProblem) -> JSONValue {
        let response = try client.post(url, payload: nil, key: accountKey, identification: kid)
        guard let json = response.json else { throw .local("malformed", "the CA's answer is not JSON") }
        return json
    }

    /// POST-as-GET `url` until its status is one of `states`, waiting as the CA's
    /// `Retry-After` says (1 s when it says nothing).
    private func poll(_ url: String, until states: Set<String>, what: String) throws(ACMEProblem) -> JSONValue {
        while true {
            let response = try client.post(url, payload: nil, key: accountKey, identification: kid)
            guard let json = response.json else { throw .local("malformed", "the CA's \(what) is not JSON") }
            if let status = json["status"]?.stringValue, states.contains(status) { return json }
            let wait = min(RetryAfter.milliseconds(response.header("Retry-After"), now: now()) ?? 1_000, 30_000)
            let remaining = Int64(deadline &- min(Clock.monotonicNanoseconds(), deadline)) / 1_000_000
            guard remaining > wait else {
                throw .local("timeout", "the \(what) of \(hostname) was still \(json["status"]?.stringValue ?? "?")")
            }
            guard responder.pause(milliseconds: max(wait, 200)) else { throw .local("stopped", "the edge is stopping") }
        }
    }

    /// The problem document inside an object (`error`), or `otherwise`.
    static func problem(in json: JSONValue, otherwise: String) -> ACMEProblem {
        if let error = json["error"], let problem = ACMEProblem(json: error, status: 0, retryAfterMilliseconds: nil) {
            var p = problem
            p.status = nil
            return p
        }
        return .local("order", otherwise)
    }
}
