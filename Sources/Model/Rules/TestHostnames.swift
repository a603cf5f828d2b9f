/// Names no one can own on the public Internet: the special-use top-level domains of
/// RFC 2606 and RFC 6761 (`test`, `example`, `invalid`, `localhost`) and the example
/// second-level domains (`example.com`, `example.net`, `example.org`), with every name
/// under them. The demo's domains are such names; the test clock
/// (`BIQLI_EDGE_TEST_CLOCK_BACK_MS`) runs only on a store whose every domain is one,
/// so that an edge serving real links can never have its time moved.
public enum TestHostnames {
    static let topLevel: Set<Substring> = ["test", "example", "invalid", "localhost"]
    static let secondLevel: Set<String> = ["example.com", "example.net", "example.org"]

    /// Whether `hostname` (any case, with or without a trailing dot) is reserved for
    /// testing and documentation.
    public static func isReserved(_ hostname: String) -> Bool {
        var name = hostname.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard let last = labels.last, !last.isEmpty, !labels.contains(where: \.isEmpty) else { return false }
        if topLevel.contains(last) { return true }
        guard labels.count >= 2 else { return false }
        return secondLevel.contains(labels.suffix(2).joined(separator: "."))
    }
}
