import Core

/// A response of the CA, whole.
public struct HTTPSResponse: Sendable {
    public var status: Int
    /// In order, names as sent.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first field named `name` (any case).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    /// The targets of `Link: <url>;rel="relation"` fields (RFC 8288), in order.
    public func links(relation: String) -> [String] {
        var out: [String] = []
        for field in headers where field.name.lowercased() == "link" {
            for part in field.value.split(separator: ",") {
                let text = part.trimmed(" ")
                guard text.hasPrefix("<"), let close = text.firstIndex(of: ">") else { continue }
                let params = text[text.index(after: close)...].split(separator: ";").map {
                    $0.trimmed(" ")
                }
                if params.contains(where: { $0 == "rel=\"\(relation)\"" || $0 == "rel=\(relation)" }) {
                    out.append(String(text[text.index(after: text.startIndex)..<close]))
                }
            }
        }
        return out
    }

    public var json: JSONValue? { try? JSONParser.parse(body) }

    public var isSuccess: Bool { (200..<300).contains(status) }
}

extension StringProtocol {
    func trimmed(_ set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
