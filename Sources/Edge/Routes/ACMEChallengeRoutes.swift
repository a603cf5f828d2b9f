import Certificates
import HTTP
import HTTPMessages

/// `/.well-known/acme-challenge/{token}` (RFC 8555, section 8.3), installed only with
/// `BIQLI_EDGE_ACME=on` and first in the table: the key authorization of a pending
/// HTTP-01 challenge for the request's host, on the plain-HTTP listener (and on HTTPS,
/// which a CA following a redirect would reach). Never redirected to HTTPS, never a
/// visit, never a click; anything else is a plain 404.
enum ACMEChallengeRoutes {
    static func install(on router: RouterBuilder, board: ChallengeBoard) {
        router.add([.get], "/.well-known/acme-challenge/:token", name: "acme_challenge") { request, _, params in
            guard let token = params["token"], let host = request.host,
                let answer = board.answer(token: token, host: host)
            else {
                return .response(.text(404, "not found\n"))
            }
            var response = HTTPResponse(status: 200, contentType: "application/octet-stream", body: answer)
            response.headers.add("Cache-Control", "no-store")
            return .response(response)
        }
    }
}
