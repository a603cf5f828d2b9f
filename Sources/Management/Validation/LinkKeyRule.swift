import Model

/// A link's key: the one path segment after the domain.
enum LinkKeyRule {
    static let patternRule = "must match ^[A-Za-z0-9_-]{1,64}$ (one path segment)"

    /// Keys generated when a create request has none: 7 characters, 62^7 choices.
    static let generatedLength = 7
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// Refused whatever their case: first segments the edge routes itself.
    static func isReserved(_ key: String) -> Bool { LinkKey.reserved.contains(key.lowercased()) }

    static func check(_ key: String, field: String, problems: inout FieldProblems) {
        if !LinkKey.isPossible(Substring(key)) {
            problems.add(field, patternRule)
        } else if isReserved(key) {
            let words = LinkKey.reserved.sorted().joined(separator: ", ")
            problems.add(field, "is reserved by the edge (\(words)); choose another key")
        }
    }

    static func generate() -> String {
        var rng = SystemRandomNumberGenerator()
        return String((0..<generatedLength).map { _ in alphabet[Int(rng.next(upperBound: UInt64(alphabet.count)))] })
    }
}
