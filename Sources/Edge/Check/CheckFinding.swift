import Association
import Core

/// One thing `biqli-edge check` reports, with what to do about it.
struct CheckFinding: Sendable, Equatable {
    enum Severity: String, Sendable {
        case ok, warning, error
    }

    var severity: Severity
    /// Stable machine-readable code (`config_invalid`, `certificate_missing`, or an
    /// `AssociationProblem` code).
    var code: String
    /// What it is about (`configuration`, `data directory`, a hostname, an app id).
    var subject: String
    var message: String
    var fix: String

    static func ok(_ code: String, _ subject: String, _ message: String) -> CheckFinding {
        CheckFinding(severity: .ok, code: code, subject: subject, message: message, fix: "")
    }

    init(severity: Severity, code: String, subject: String, message: String, fix: String) {
        self.severity = severity
        self.code = code
        self.subject = subject
        self.message = message
        self.fix = fix
    }

    init(_ problem: AssociationProblem) {
        let subject = [problem.domain, problem.appId].compactMap { $0 }.joined(separator: " ")
        self.init(
            severity: problem.severity == .error ? .error : .warning, code: problem.code.rawValue,
            subject: subject.isEmpty ? "association" : subject, message: problem.message, fix: problem.fix)
    }

    /// `error   go.example.com: message` and an indented `fix:` line.
    var text: String {
        var out = severity.rawValue.padding(8) + subject + ": " + message
        if !fix.isEmpty { out += "\n        fix: " + fix }
        return out
    }

    var json: JSONValue {
        .object([
            ("severity", .string(severity.rawValue)), ("code", .string(code)), ("subject", .string(subject)),
            ("message", .string(message)), ("fix", fix.isEmpty ? .null : .string(fix)),
        ])
    }
}
