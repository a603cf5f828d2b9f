extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmed: String {
        guard let first = firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(self[first...last])
    }
}
