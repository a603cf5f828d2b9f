/// The one question the asset responses ask of `Accept-Encoding`.
enum AcceptEncoding {
    /// True when `header` lists `gzip` (or `x-gzip`, or `*`) without `q=0`. An explicit
    /// `gzip;q=0` wins over `*`. A missing header means identity only.
    static func allowsGzip(_ header: String?) -> Bool {
        guard let header, header.utf8.count <= 1024 else { return false }
        var star = false
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let first = parts.first else { continue }
            let coding = first.trimmingSpaces().lowercased()
            let acceptable = parts.dropFirst().allSatisfy { !isZeroQuality($0) }
            if coding == "gzip" || coding == "x-gzip" { return acceptable }
            if coding == "*" { star = acceptable }
        }
        return star
    }

    private static func isZeroQuality(_ parameter: Substring) -> Bool {
        let p = parameter.trimmingSpaces().lowercased()
        guard p.hasPrefix("q=") else { return false }
        let value = p.dropFirst(2)
        return !value.isEmpty && value.allSatisfy { $0 == "0" || $0 == "." }
    }
}
