import Outbound

/// The delivery threads' transport in service: a kept-alive `HTTPSSession` per thread, with
/// the settings' timeout, destination rules (public addresses only, `https://` unless
/// allowed) and answer cap.
final class HTTPSWebhookSender: WebhookSender {
    private let session: HTTPSSession
    private let timeoutMilliseconds: Int
    private let options: HTTPSClient.Options

    init(client: HTTPSClient, settings: WebhookDeliverySettings) {
        session = HTTPSSession(client: client)
        timeoutMilliseconds = settings.timeoutMilliseconds
        options = HTTPSClient.Options(
            allowHTTP: settings.allowHTTP, publicAddressesOnly: !settings.allowPrivate,
            maxBodyBytes: WebhookDeliverySettings.maxAnswerBytes)
    }

    func post(_ url: String, headers: [(String, String)], body: [UInt8]) throws(NetworkError) -> HTTPSResponse {
        try session.send(
            "POST", url, headers: headers, body: body, timeoutMilliseconds: timeoutMilliseconds, options: options)
    }

    func close() { session.close() }
}
