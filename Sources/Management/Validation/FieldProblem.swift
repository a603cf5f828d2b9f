import Core

/// One broken rule: the JSON path of the field (`ios.teamId`, `links[2].mobile.route`)
/// and the rule, written so that "<field> <rule>" reads as a sentence.
public struct FieldProblem: Sendable, Equatable {
    public internal(set) var field: String
    public internal(set) var rule: String
    /// A URL with a forbidden scheme (`javascript:`, `data:`...): the `url_blocked` code.
    var blocked: Bool

    init(_ field: String, _ rule: String, blocked: Bool = false) {
        self.field = field
        self.rule = rule
        self.blocked = blocked
    }

    var sentence: String { field + " " + rule }

    /// Most problems an answer lists: a body of thousands of unknown members must not
    /// make an answer several times its size (issue 33); the message counts them all.
    static let maxListed = 100

    /// `{"field","rule","errors":[{"field","rule"}...]}`: the first problem at the top
    /// for simple clients, every problem in `errors` (the first `maxListed`).
    static func details(_ problems: [FieldProblem]) -> JSONValue {
        guard let first = problems.first else { return .object([]) }
        let all: [JSONValue] = problems.prefix(maxListed).map {
            .object([("field", .string($0.field)), ("rule", .string($0.rule))])
        }
        return .object([("field", .string(first.field)), ("rule", .string(first.rule)), ("errors", .array(all))])
    }
}

/// Problems collected while reading one request, so that a client learns every broken
/// rule at once rather than one per round trip.
struct FieldProblems: Sendable {
    private(set) var list: [FieldProblem] = []

    var isEmpty: Bool { list.isEmpty }

    mutating func add(_ field: String, _ rule: String, blocked: Bool = false) {
        list.append(FieldProblem(field, rule, blocked: blocked))
    }

    mutating func add(_ problem: FieldProblem) { list.append(problem) }

    mutating func add(contentsOf other: FieldProblems) { list.append(contentsOf: other.list) }

    /// Throws `.invalid` when anything was collected.
    func check() throws(ManagementError) {
        if !list.isEmpty { throw .invalid(list) }
    }
}
