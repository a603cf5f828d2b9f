import CPostgreSQL
import Model

/// `BIQLI_EDGE_DATABASE_URL`: a libpq connection string (`host=... dbname=...`) or a
/// `postgresql://` URL, checked and normalised once at start-up.
///
/// The password (in the URL or as `password=`) is kept only in `connectionString`,
/// which goes to libpq and nowhere else; `redacted` is what messages and logs show.
public struct PGConnectionSettings: Sendable, Equatable {
    /// What libpq gets: every option the operator gave, plus a `connect_timeout` of
    /// 10 s when none was given (a black-holed address must not hang start-up).
    private(set) var connectionString: String
    /// The same options without the password, for messages.
    public let redacted: String

    /// Options whose values never appear in a message.
    static let secretOptions: Set<String> = ["password", "sslpassword"]

    /// Parses `text`; throws a message (without the password) when libpq refuses it.
    public init(_ text: String) throws(StoreError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &errorMessage) else {
            // libpq's message names the problem (a bad option, a malformed URI) but may quote the input.
            var reason = errorMessage.map { PGConnection.text($0) } ?? "not a connection string"
            if let e = errorMessage { PQfreemem(e) }
            if reason.contains(text) || text.contains("@") || text.contains("password") {
                reason = "not a valid libpq connection string or postgresql:// URL"
            }
            throw .backend(code: -1, message: reason)
        }
        defer { PQconninfoFree(options) }
        var pairs: [(String, String)] = []
        var i = 0
        while let keyword = options[i].keyword {
            if let value = options[i].val { pairs.append((String(cString: keyword), String(cString: value))) }
            i += 1
        }
        if !pairs.contains(where: { $0.0 == "connect_timeout" }) { pairs.append(("connect_timeout", "10")) }
        connectionString = pairs.map { "\($0.0)=\(PGConnectionSettings.quote($0.1))" }.joined(separator: " ")
        redacted = pairs.filter { !PGConnectionSettings.secretOptions.contains($0.0) && $0.0 != "connect_timeout" }
            .map { "\($0.0)=\(PGConnectionSettings.quote($0.1))" }.joined(separator: " ")
    }

    /// The same settings with `connect_timeout` set to `seconds` (for connections made
    /// where waiting long is worse than failing: a loop's reader).
    func withConnectTimeout(seconds: Int) -> PGConnectionSettings {
        var copy = self
        let parts = connectionString.split(separator: " ").filter { !$0.hasPrefix("connect_timeout=") }
        copy.connectionString = (parts + ["connect_timeout=\(seconds)"]).joined(separator: " ")
        return copy
    }

    /// A keyword/value value: bare when it is plain, else single-quoted with `\\` and `\'`.
    static func quote(_ value: String) -> String {
        let plain =
            !value.isEmpty
            && value.utf8.allSatisfy { c in
                c > 0x20 && c != UInt8(ascii: "'") && c != UInt8(ascii: "\\") && c < 0x7F
            }
        if plain { return value }
        var out = "'"
        for c in value {
            if c == "'" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out + "'"
    }
}
