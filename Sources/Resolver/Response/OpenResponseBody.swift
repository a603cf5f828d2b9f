import Core
import Model
import Store

/// The stored part of a 200 body: `open`, `click`, `link` and `attribution`, in
/// that order. The receipt and the request ID are appended per answer by
/// `ResponseFactory.success`, which is what lets a replay reuse these bytes.
enum OpenResponseBody {
    /// Room kept for the receipt (about 700 bytes) and the request ID within 64 KiB.
    static let maxStoredBytes = ResponseFactory.maxSuccessBodyBytes - 4_096

    static func render(openId: String, firstOpen: Bool, match: Match?) -> [UInt8] {
        let bytes = render(openId: openId, firstOpen: firstOpen, match: match, trimmed: false)
        if bytes.count <= maxStoredBytes { return bytes }
        // Only metadata stored before its 4 KB rule existed could get here;
        // empty objects keep the response valid instead of failing the open.
        return render(openId: openId, firstOpen: firstOpen, match: match, trimmed: true)
    }

    private static func render(openId: String, firstOpen: Bool, match: Match?, trimmed: Bool) -> [UInt8] {
        let matchedBy = match?.matchedBy ?? .none
        var j = JSONBuffer(capacity: 512)
        j.raw(#"{"open":{"id":"#)
        j.string(openId)
        j.raw(#","firstOpen":"#)
        j.bool(firstOpen)
        j.raw(#","matchedBy":"#)
        j.string(matchedBy.rawValue)
        j.raw(#","confidence":"#)
        j.string(matchedBy.confidence.rawValue)
        guard let match else {
            j.raw(#"},"click":null,"link":null,"attribution":null}"#)
            return j.bytes
        }
        j.raw(#"},"click":"#)
        if let click = match.clickId {
            j.raw(#"{"id":"#)
            j.string(click)
            j.raw("}")
        } else {
            j.raw("null")
        }
        j.raw(#","link":{"id":"#)
        j.string(match.linkId)
        j.raw(#","shortUrl":"#)
        j.string(match.shortUrl)
        j.raw(#","route":"#)
        j.string(match.route)
        j.raw(#"},"attribution":{"referralCode":"#)
        j.string(orNull: match.referralCode)
        j.raw(#","metadata":"#)
        switch match.metadata {
        case .value(let v):
            if !trimmed, case .object = v { j.value(v) } else { j.raw("{}") }
        case .json(let text):
            // Written by the store's JSON writer: the same bytes `value` would write.
            if !trimmed, text.first == UInt8(ascii: "{"), text.last == UInt8(ascii: "}") {
                j.bytes.append(contentsOf: text)
            } else {
                j.raw("{}")
            }
        }
        j.raw(#","dynamic":{"#)
        if !trimmed {
            var written: [String] = []
            for (k, v) in match.dynamic where !written.contains(k) {
                if !written.isEmpty { j.comma() }
                j.string(k)
                j.raw(":")
                j.string(v)
                written.append(k)
                if written.count == DynamicValues.maxValues { break }
            }
        }
        j.raw("}}}")
        return j.bytes
    }
}
