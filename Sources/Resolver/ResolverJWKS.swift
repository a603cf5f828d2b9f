import HTTPMessages
import Model
import Store

extension Resolver {
    /// Where the edge serves the receipt keys (documented in docs/receipts.md).
    public static let jwksPath = "/.well-known/jwks.json"

    /// `GET /.well-known/jwks.json`: the published receipt keys, read from the
    /// store so that a key rotated by another process shows up too. Cacheable
    /// for five minutes, shorter than the margin a retired key stays published.
    public func jwks(readerLoop: Int, now: Int64) -> HTTPResponse {
        let body: [UInt8]
        do {
            body = JWKS.document(try store.reader(loop: readerLoop).signingKeys(), now: now)
        } catch {
            body = keyring.jwks(now: now)
        }
        return HTTPResponse(
            status: 200,
            headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "public, max-age=300")]),
            body: body)
    }
}
