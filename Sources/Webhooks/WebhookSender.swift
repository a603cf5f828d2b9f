import Outbound

/// Sends one attempt's request and reads the answer: the delivery threads' transport
/// (`HTTPSWebhookSender` in service; a receiver of their own in the unit tests). Each
/// delivery thread makes its own and alone uses it, so a sender may keep its connection
/// from one request to the next.
protocol WebhookSender: AnyObject {
    /// POSTs `body` to `url`: the receiver's answer whatever its status, or why there is
    /// none (a destination refused, no connection, the timeout).
    func post(_ url: String, headers: [(String, String)], body: [UInt8]) throws(NetworkError) -> HTTPSResponse

    /// Lets go of what it keeps (its connection): its thread ends.
    func close()
}
