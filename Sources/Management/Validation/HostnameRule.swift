import Templates

/// A domain's hostname: what DNS and the association files need, nothing fancier.
enum HostnameRule {
    static let rule =
        "must be a lower-case DNS name of at least two labels (a-z, 0-9 and '-', 1 to 63 characters each, no leading or trailing '-'), at most 253 characters, not an IP address; write internationalised names in punycode"

    /// True for `go.example.com`; false for `Go.Example.com`, `localhost`, `10.0.0.1`,
    /// `go.example.com.`, `-a.example.com` and anything non-ASCII.
    static func isValid(_ name: String) -> Bool {
        guard SafeURL.isDNSName(name) else { return false }
        let bytes = Array(name.utf8)
        if bytes.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) { return false }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2, let last = labels.last else { return false }
        // An all-digit top-level label is an IPv4 address, not a name.
        return !last.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    static func check(_ name: String, field: String, problems: inout FieldProblems) {
        if !isValid(name) { problems.add(field, rule) }
    }
}
