@testable import Outbound
@testable import Webhooks

/// A receiver that records each request and answers with `answer`.
final class ScriptedReceiver: WebhookSender, @unchecked Sendable {
    struct Request {
        var url: String
        var headers: [(String, String)]

        func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }
    }

    /// An error other than a `NetworkError` (a failed assertion's) fails the attempt too.
    var answer: (String) throws -> HTTPSResponse = { _ in HTTPSResponse(status: 200, headers: [], body: []) }
    private(set) var sent: [Request] = []

    func post(_ url: String, headers: [(String, String)], body: [UInt8]) throws(NetworkError) -> HTTPSResponse {
        sent.append(Request(url: url, headers: headers))
        do { return try answer(url) } catch let e as NetworkError { throw e } catch {
            throw .protocolError("\(error)")
        }
    }

    func close() {}
}
