import Core

/// Patterns and small schemas that several resources share.
extension OpenAPIDocument {
    /// One DNS label: 1 to 63 of `a-z 0-9 -`, no hyphen at either end.
    static let labelPattern = "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"

    /// At least two labels, lower case.
    static let hostnamePattern = #"^("# + labelPattern + #"\.)+"# + labelPattern + "$"

    /// `HostnameRule`: `hostnamePattern`, at most 253 characters, and a last label that
    /// is not all digits (that would be an IPv4 address). The length and the last label
    /// are separate keywords rather than lookaheads in the pattern, which generators
    /// (schemathesis) handle far better.
    static func hostname(_ description: String? = nil) -> JSONValue {
        var schema: JSONValue = [
            "type": "string", "maxLength": 253, "pattern": .string(hostnamePattern),
            "not": ["pattern": #"\.[0-9]+$"#],
        ]
        if let description { schema = schema.adding("description", .string(description)) }
        return schema
    }

    /// `URLRule` and `SafeURL`: the scheme (any case), a DNS or IPv4 host (any case) or a
    /// bracketed IPv6 one, an optional port 1 to 65535, then a path, query or fragment
    /// without spaces, controls, backslashes, quotes, `<`, `>`, backticks or broken `%`
    /// escapes (non-ASCII is percent-encoded when stored). Not `format: uri`: RFC 3986
    /// refuses characters (`{`, `|`, `^`...) that browsers, and so the edge, accept.
    static func urlPattern(httpsOnly: Bool) -> String {
        let scheme = httpsOnly ? "[Hh][Tt][Tt][Pp][Ss]" : "[Hh][Tt][Tt][Pp][Ss]?"
        let label = "[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
        let dnsHost = "(?=[^/?#:]{1,253}([/?#:]|$))" + label + #"(\."# + label + ")*"
        let ipv6Host = #"\["# + ipv6Pattern + #"\]"#
        let port =
            "(:(?=[0-9]{1,5}([/?#]|$))0*([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?"
        let tail = #"([/?#]([^\u0000-\u0020\u007F\\"'<>`%]|%[0-9A-Fa-f]{2})*)?"#
        return "^" + scheme + "://(" + ipv6Host + "|" + dnsHost + ")" + port + tail + "$"
    }

    /// `SafeURL.isIPv6`: eight groups, or fewer around one `::`, maybe ending in IPv4.
    static let ipv6Pattern: String = {
        let h = "[0-9A-Fa-f]{1,4}"
        let byte = "(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
        let ipv4 = byte + #"(\."# + byte + "){3}"
        var forms = ["(\(h):){7}\(h)", "(\(h):){6}" + ipv4]
        for n in 0...7 {
            let head = n == 0 ? "" : "(\(h):){\(n - 1)}\(h)"
            forms.append(head + "::" + (n < 7 ? "((\(h):){0,\(6 - n)}\(h))?" : ""))
            if n <= 5 { forms.append(head + "::(\(h):){0,\(5 - n)}" + ipv4) }
        }
        return "(" + forms.joined(separator: "|") + ")"
    }()

    /// `TextRule`: one line, no control characters (C0, DEL, C1).
    static let singleLinePattern = #"^[^\u0000-\u001F\u007F-\u009F]*$"#

    /// `TextRule` for descriptions: line breaks and tabs allowed.
    static let multiLinePattern = #"^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]*$"#

    /// A free-text field: 1 to `maxLength` characters of `pattern`; `nullable` adds null.
    static func text(_ maxLength: Int, nullable: Bool = false, pattern: String = singleLinePattern) -> JSONValue {
        [
            "type": nullable ? ["string", "null"] : "string", "minLength": 1, "maxLength": .int(Int64(maxLength)),
            "pattern": .string(pattern),
        ]
    }

    /// A pattern matching `text` in any ASCII case (JSON Schema patterns have no flags).
    static func anyCase(_ text: String) -> String {
        text.map { c in
            guard c.isASCII, c.isLetter else {
                return "\\^$.|?*+()[]{}/".contains(c) ? "\\" + String(c) : String(c)
            }
            return "[" + c.uppercased() + c.lowercased() + "]"
        }.joined()
    }

    /// The pattern of a resource id: its prefix and a ULID (`ULID.isValid`: 26 of Crockford's
    /// base 32, no I, L, O or U, the first at most 7 so that the value fits 128 bits).
    static func idPattern(_ prefix: String) -> JSONValue { .string("^\(prefix)[0-7][0-9A-HJKMNP-TV-Z]{25}$") }

    static let timestamp: JSONValue = [
        "type": "string", "format": "date-time", "readOnly": true, "description": "ISO 8601, UTC.",
    ]

    static let timestamps = [OpenAPIField("createdAt", timestamp), OpenAPIField("updatedAt", timestamp)]

    static let counter: JSONValue = ["type": "integer", "minimum": 0]

    /// true, false or null (a switch that may be left to a default elsewhere).
    static func nullableBoolean(_ description: String) -> JSONValue {
        ["type": ["boolean", "null"], "description": .string(description)]
    }

    static func boolean(_ description: String) -> JSONValue {
        ["type": "boolean", "description": .string(description)]
    }

    /// An absolute http(s) URL (`httpsOnly`: https), or null when `nullable`.
    static func url(_ description: String, httpsOnly: Bool = false, nullable: Bool = true) -> JSONValue {
        [
            "type": nullable ? ["string", "null"] : "string", "maxLength": 2048,
            "pattern": .string(urlPattern(httpsOnly: httpsOnly)),
            "description": .string(
                description
                    + " At most 2048 bytes once non-ASCII is percent-encoded; another scheme is 422 url_blocked."),
        ]
    }

    static func nullableRef(_ name: String) -> JSONValue { ["oneOf": [schemaRef(name), ["type": "null"]]] }

    /// A closed object (no other properties).
    static func object(_ properties: [(String, JSONValue)], required: [String]?, description: String? = nil)
        -> JSONValue
    {
        var members: [(String, JSONValue)] = [
            ("type", "object"), ("additionalProperties", false), ("properties", .object(properties)),
        ]
        if let required { members.append(("required", .array(required.map(JSONValue.string)))) }
        if let description { members.append(("description", .string(description))) }
        return .object(members)
    }

    /// A closed object whose properties are all present, but those named in `optional`.
    static func record(_ properties: JSONValue, optional: [String] = [], description: String? = nil) -> JSONValue {
        let members = properties.objectValue ?? []
        return object(
            members, required: members.map(\.0).filter { !optional.contains($0) }, description: description)
    }

    /// A closed object of counters, one per name.
    static func counters(_ names: [String]) -> JSONValue { record(.object(names.map { ($0, counter) })) }

    static func enumeration(_ values: [String]) -> JSONValue { ["enum": .array(values.map(JSONValue.string))] }

    /// A page of `item`; `cursorIs` says what the cursor holds.
    static func list(of item: String, cursorIs: String) -> JSONValue {
        record([
            "data": ["type": "array", "items": schemaRef(item)],
            "nextCursor": [
                "type": ["string", "null"],
                "description": .string("Pass as cursor to get the next page; null on the last page. (\(cursorIs))"),
            ],
        ])
    }

    static func deleted(key: String) -> JSONValue { record([key: ["type": "string"], "deleted": ["const": true]]) }
}

extension JSONValue {
    /// This object with one more member (a keyword the field tables do not write).
    func adding(_ key: String, _ value: JSONValue) -> JSONValue {
        .object((objectValue ?? []) + [(key, value)])
    }
}
