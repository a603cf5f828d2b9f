import Core

/// Requests that reuse one kept-alive connection while they go to the same origin (the
/// webhooks' delivery threads, one session each): no TCP or TLS handshake per request.
/// A connection is made as by `HTTPSClient.send` (its addresses checked then, and it
/// stays connected to them), kept while answers are framed and the peer keeps it, and
/// dropped after `idleMilliseconds` unused. A request on a reused connection that the
/// peer had closed while idle (nothing of an answer came) goes again once on a new one.
/// Not thread-safe: one thread uses a session.
public final class HTTPSSession {
    private let client: HTTPSClient
    private var connection: HTTPSClient.Connection?
    public var idleMilliseconds: UInt64 = 20_000

    public init(client: HTTPSClient) { self.client = client }

    deinit { connection?.close() }

    public func close() {
        connection?.close()
        connection = nil
    }

    public func send(
        _ method: String, _ urlText: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        timeoutMilliseconds: Int, options: HTTPSClient.Options
    ) throws(NetworkError) -> HTTPSResponse {
        guard let url = HTTPSURL(urlText, allowHTTP: options.allowHTTP) else { throw .badURL(urlText) }
        let deadline = Clock.monotonicNanoseconds() &+ UInt64(timeoutMilliseconds) * 1_000_000
        if let kept = connection {
            let idle = (Clock.monotonicNanoseconds() &- kept.lastUsed) / 1_000_000
            if kept.origin != url.origin || idle >= idleMilliseconds { close() }
        }
        if let kept = connection {
            var stale = false
            do {
                return try finish(kept, method, url, headers, body, deadline, options, stale: &stale)
            } catch {
                close()
                guard stale else { throw error }
                // Closed by the peer while idle: once more, on a new connection.
            }
        }
        let fresh = try client.open(url, deadline: deadline, options: options)
        connection = fresh
        var stale = false
        do {
            return try finish(fresh, method, url, headers, body, deadline, options, stale: &stale)
        } catch {
            close()
            throw error
        }
    }

    private func finish(
        _ c: HTTPSClient.Connection, _ method: String, _ url: HTTPSURL, _ headers: [(String, String)],
        _ body: [UInt8]?, _ deadline: UInt64, _ options: HTTPSClient.Options, stale: inout Bool
    ) throws(NetworkError) -> HTTPSResponse {
        let (response, reusable) = try client.exchange(
            c, method, url, headers, body, deadline, options, keepAlive: true, stale: &stale)
        if reusable {
            c.lastUsed = Clock.monotonicNanoseconds()
        } else {
            close()
        }
        return response
    }
}
