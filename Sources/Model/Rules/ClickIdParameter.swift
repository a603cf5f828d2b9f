/// The click id a web redirect of a link with conversion tracking hands to the
/// destination: `bq_id=<click id>` added to the URL's query, which the customer's site
/// keeps in its `bq_id` cookie (the browser script, `/_biqli/analytics-v1.js`) and its server
/// sends back as `clickId` with a lead (`spec/conversions-contract.md`).
///
/// The destination's own query is kept byte for byte and its fragment stays last:
/// `https://shop.example/p?a=1#top` becomes `https://shop.example/p?a=1&bq_id=biq_clk_...#top`.
/// Click ids are `biq_clk_` + a ULID, so the value needs no percent-encoding.
public enum ClickIdParameter {
    public static let name = "bq_id"

    /// `url` with `bq_id=<clickId>` at the end of its query.
    public static func append(to url: String, clickId: String) -> String {
        let utf8 = url.utf8
        let hash = utf8.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        let beforeFragment = utf8[..<hash]
        let separator: String
        if let question = beforeFragment.firstIndex(of: UInt8(ascii: "?")) {
            // `?` alone or a query ending in `&` takes the pair as it is.
            let query = beforeFragment[beforeFragment.index(after: question)...]
            separator = query.isEmpty || query.last == UInt8(ascii: "&") ? "" : "&"
        } else {
            separator = "?"
        }
        return String(Substring(beforeFragment)) + separator + name + "=" + clickId + String(Substring(utf8[hash...]))
    }
}
