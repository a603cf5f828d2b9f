/// Which due deliveries a node takes (decision 0028): oldest first, but at most `perEndpoint`
/// in flight per endpoint on the node, so that one slow receiver cannot take every
/// delivery thread.
public enum WebhookClaimPlan {
    public static let perEndpoint = 4

    /// `candidates` (endpoint id and row key, oldest first): the keys to claim, at most
    /// `limit`, given how many of each endpoint's deliveries are in flight already.
    public static func choose<Key>(
        _ candidates: [(endpointId: String, key: Key)], inFlight: [String: Int], limit: Int,
        perEndpoint: Int = WebhookClaimPlan.perEndpoint
    ) -> [Key] {
        var counts = inFlight
        var chosen: [Key] = []
        for c in candidates where chosen.count < limit {
            let n = counts[c.endpointId, default: 0]
            guard n < perEndpoint else { continue }
            counts[c.endpointId] = n + 1
            chosen.append(c.key)
        }
        return chosen
    }
}
