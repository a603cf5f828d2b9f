import Core

/// A mobile link's safe metadata (seed 001): a JSON object of at most 20 top-level
/// keys, 3 nesting levels (the object itself is the first), 4 KB encoded, strings of
/// at most 1,000 characters, and no key, at any level, that names a sensitive field.
enum MetadataRule {
    static let maxTopLevelKeys = 20
    static let maxDepth = 3
    static let maxEncodedBytes = 4_096
    static let maxStringLength = 1_000

    static func check(_ value: JSONValue, field: String, problems: inout FieldProblems) {
        guard case .object(let members) = value else {
            problems.add(field, "must be a JSON object (not an array, string or number)")
            return
        }
        if members.count > maxTopLevelKeys {
            problems.add(field, "must have at most \(maxTopLevelKeys) top-level keys")
        }
        if value.depth > maxDepth {
            problems.add(field, "must nest at most \(maxDepth) levels (the metadata object is the first)")
        }
        let bytes = value.jsonBytes.count
        if bytes > maxEncodedBytes {
            problems.add(field, "must be at most \(maxEncodedBytes) bytes as compact JSON (it is \(bytes))")
        }
        walk(value, path: field, problems: &problems)
    }

    private static func walk(_ value: JSONValue, path: String, problems: inout FieldProblems) {
        switch value {
        case .string(let s) where s.unicodeScalars.count > maxStringLength:
            problems.add(path, "must be at most \(maxStringLength) characters")
        case .array(let items):
            for (i, item) in items.enumerated() { walk(item, path: "\(path)[\(i)]", problems: &problems) }
        case .object(let members):
            for (key, item) in members {
                let child = path + "." + key
                if let term = SensitiveKeys.match(key) {
                    problems.add(
                        child,
                        "names a sensitive field (\(term)); metadata must not carry credentials, payment, identity, contact or health data"
                    )
                }
                walk(item, path: child, problems: &problems)
            }
        default: break
        }
    }
}

/// Key names that indicate sensitive data (seed 001: credentials, authentication
/// values, cookies, payment-card data, government identifiers, email addresses,
/// phone numbers, health information).
///
/// Matching is case-insensitive on the key with `_`, `-`, `.` and spaces removed
/// (`Api-Key`, `api_key` and `apiKey` are all `apikey`). Long terms match anywhere
/// in the key (`userEmail`, `credit_card_number`, `x-auth`); the short ones (`pin`,
/// `dob`, `ssn`, `cvv`, `cvc`, `otp`, `pwd`, `sin`) only as a whole word of the key
/// (`user_pin`, `pinCode`, but not `shipping` or `mapping`), because as substrings
/// they would refuse ordinary campaign keys.
enum SensitiveKeys {
    static let substrings = [
        "password", "passwd", "passphrase", "secret", "token", "auth", "cookie", "session", "credential",
        "apikey", "privatekey", "card", "iban", "accountnumber", "routingnumber", "socialsecurity",
        "passport", "license", "nationalid", "taxid", "email", "phone",
        "health", "medical", "diagnos", "birthdate", "dateofbirth",
    ]
    static let words: Set<String> = ["pin", "dob", "ssn", "cvv", "cvc", "otp", "pwd", "sin", "tin", "nin"]

    /// The sensitive term `key` matches, or nil.
    static func match(_ key: String) -> String? {
        let folded = String(key.lowercased().unicodeScalars.filter { !"_-. ".unicodeScalars.contains($0) })
        for term in substrings where folded.contains(term) { return term }
        for word in splitWords(key) where words.contains(word) { return word }
        return nil
    }

    /// `userPIN_code` -> [user, pin, code], `PINCode` -> [pin, code]: split at separators,
    /// lower-to-upper changes, the last capital of an acronym, and letter/digit changes.
    static func splitWords(_ key: String) -> [String] {
        let chars = Array(key)
        var words: [String] = []
        var current = ""
        for (i, ch) in chars.enumerated() {
            if ch == "_" || ch == "-" || ch == "." || ch == " " {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = ""
                continue
            }
            if let p = current.last {
                let next = i + 1 < chars.count ? chars[i + 1] : nil
                let camel = p.isLowercase && ch.isUppercase
                let acronymEnd = p.isUppercase && ch.isUppercase && (next?.isLowercase ?? false)
                let digitChange = p.isNumber != ch.isNumber
                if camel || acronymEnd || digitChange {
                    words.append(current.lowercased())
                    current = ""
                }
            }
            current.append(ch)
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
    }
}
