import HTTPMessages

/// A Deep View rendered once for a link, app and language, with two holes: the handoff
/// token and the CSP nonce, the only parts that change from one visit to the next.
///
/// Filling the holes is a few copies, where rendering escapes and assembles every piece
/// of the page again: the edge keeps templates per loop and renders only when the link,
/// the app or the language changes. The page is byte-for-byte what `Pages.deepView`
/// renders with the same token and nonce (a test pins it).
public struct DeepViewTemplate: Sendable {
    /// Stands for the token while rendering: a well-formed token that no visit can get
    /// (random tokens start with the click time, and no click happened at time "BIQLI").
    static let tokenSentinel = "bqmh_BIQLIxHANDOFFxSENTINELxxxxxxxxxxxxxxxxxxxxx"
    /// Stands for the nonce: 24 base64url characters, as a real nonce has.
    static let nonceSentinel = "BIQLIxNONCExSENTINELxxxx"

    enum Hole: Sendable { case token, nonce }

    let status: Int
    let headers: [(String, String)]
    /// The headers whose values hold the nonce (the CSP), cut where it goes: the value
    /// is `parts` joined with the nonce. Cut once here, because searching a long header
    /// for the sentinel on every visit cost more than the rest of the visit together.
    let headersWithNonce: [(index: Int, parts: [String])]
    /// The body between holes: `pieces.count == holes.count + 1`.
    let pieces: [[UInt8]]
    let holes: [Hole]

    /// Nil when the model cannot take the sentinel token (a malformed domain).
    init?(model: DeepViewModel, strings: LocalizedStrings) {
        var model = model
        guard let sentinelURL = SafeURL.handoff(domain: model.handoffURL.host, token: DeepViewTemplate.tokenSentinel)
        else { return nil }
        model.handoffURL = sentinelURL
        let page = DeepViewPage.render(
            model, strings: strings, nonce: CSPNonce(value: DeepViewTemplate.nonceSentinel))
        status = page.status
        let fields = page.headers.fields.map { ($0.name, $0.value) }
        headers = fields
        headersWithNonce = fields.indices.compactMap { index in
            let parts = DeepViewTemplate.parts(of: fields[index].1, around: DeepViewTemplate.nonceSentinel)
            return parts.count > 1 ? (index, parts) : nil
        }
        var pieces: [[UInt8]] = []
        var holes: [Hole] = []
        var current: [UInt8] = []
        let body = page.body
        let token = Array(DeepViewTemplate.tokenSentinel.utf8)
        let nonce = Array(DeepViewTemplate.nonceSentinel.utf8)
        var i = 0
        while i < body.count {
            if body[i] == token[0], body[i...].starts(with: token) {
                pieces.append(current)
                holes.append(.token)
                current = []
                i += token.count
            } else if body[i] == nonce[0], body[i...].starts(with: nonce) {
                pieces.append(current)
                holes.append(.nonce)
                current = []
                i += nonce.count
            } else {
                current.append(body[i])
                i += 1
            }
        }
        pieces.append(current)
        self.pieces = pieces
        self.holes = holes
    }

    /// The page for one visit: `token` is the visit's handoff token.
    public func render(token: String, nonce: CSPNonce = .fresh()) -> HTTPResponse {
        var body: [UInt8] = []
        body.reserveCapacity(pieces.reduce(0) { $0 + $1.count } + holes.count * 48)
        for (i, piece) in pieces.enumerated() {
            body.append(contentsOf: piece)
            if i < holes.count {
                switch holes[i] {
                case .token: body.append(contentsOf: token.utf8)
                case .nonce: body.append(contentsOf: nonce.value.utf8)
                }
            }
        }
        var headers = self.headers
        for (index, parts) in headersWithNonce {
            headers[index].1 = parts.joined(separator: nonce.value)
        }
        return HTTPResponse(status: status, headers: HTTPHeaders(headers), body: body)
    }

    /// `text` cut at every occurrence of `separator` (one part more than occurrences).
    static func parts(of text: String, around separator: String) -> [String] {
        var parts: [String] = []
        var rest = Substring(text)
        while let range = rest.firstRange(of: separator) {
            parts.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }
}

extension Pages {
    /// A reusable Deep View for `model` (whose handoff URL only gives the domain) in the
    /// language `acceptLanguage` negotiates. Nil when the domain cannot form a handoff URL.
    public func deepViewTemplate(_ model: DeepViewModel, acceptLanguage: String?) -> DeepViewTemplate? {
        DeepViewTemplate(model: model, strings: strings.strings(acceptLanguage: acceptLanguage))
    }

    /// The language `acceptLanguage` gets (for caching per language).
    public func language(for acceptLanguage: String?) -> String {
        strings.strings(acceptLanguage: acceptLanguage).language
    }
}
