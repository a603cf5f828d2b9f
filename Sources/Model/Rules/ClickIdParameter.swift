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
        // On the bytes in place, written once: every tracked visit makes one, and a
        // destination with UTM parameters is a few hundred bytes long.
        var url = url
        var clickId = clickId
        return url.withUTF8 { u in
            clickId.withUTF8 { id in
                let hash = u.firstIndex(of: UInt8(ascii: "#")) ?? u.count
                var separator: UInt8?
                if let question = u[..<hash].firstIndex(of: UInt8(ascii: "?")) {
                    // `?` alone or a query ending in `&` takes the pair as it is.
                    if question + 1 < hash && u[hash - 1] != UInt8(ascii: "&") { separator = UInt8(ascii: "&") }
                } else {
                    separator = UInt8(ascii: "?")
                }
                let count = u.count + (separator == nil ? 0 : 1) + name.utf8.count + 1 + id.count
                return String(unsafeUninitializedCapacity: count) { out in
                    var o = out.initialize(fromContentsOf: UnsafeBufferPointer(rebasing: u[..<hash]))
                    if let separator {
                        out[o] = separator
                        o += 1
                    }
                    for b in name.utf8 {
                        out[o] = b
                        o += 1
                    }
                    out[o] = UInt8(ascii: "=")
                    o += 1
                    o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(fromContentsOf: id)
                    o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(
                        fromContentsOf: UnsafeBufferPointer(rebasing: u[hash...]))
                    return o
                }
            }
        }
    }
}
