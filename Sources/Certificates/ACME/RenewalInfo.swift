import Core

/// ACME Renewal Information (RFC 9773): the window in which the CA suggests renewing a
/// certificate, fetched from the directory's `renewalInfo` with the certificate's
/// CertID (`CertificateInfo.renewalInfoID`).
public struct RenewalWindow: Sendable, Equatable {
    /// Unix milliseconds; `start < end`.
    public var start: Int64
    public var end: Int64
    public var explanationURL: String?

    public init(start: Int64, end: Int64, explanationURL: String? = nil) {
        self.start = start
        self.end = end
        self.explanationURL = explanationURL
    }

    /// From the CA's answer (`{"suggestedWindow":{"start":...,"end":...}}`); nil when it is
    /// not one, or the window ends before it starts.
    public init?(json: JSONValue) {
        guard let window = json["suggestedWindow"], let startText = window["start"]?.stringValue,
            let endText = window["end"]?.stringValue, let start = Timestamp.parse(startText),
            let end = Timestamp.parse(endText), start < end
        else { return nil }
        self.init(start: start, end: end, explanationURL: json["explanationURL"]?.stringValue)
    }

    /// The URL to ask: the directory's `renewalInfo`, a slash, the CertID.
    public static func url(base: String, certificateID: String) -> String {
        (base.hasSuffix("/") ? base : base + "/") + certificateID
    }
}
