/// Which due deliveries a node takes (decision 0028): oldest first, at most `perEndpoint` of
/// one endpoint in one claim; the endpoints this node's threads are busy with up to their
/// cap are left out of the claim altogether (`threadsPerEndpoint`), so that one slow
/// receiver cannot take every delivery thread.
public enum WebhookClaimPlan {
    /// Delivery threads of one node working on one endpoint at most, out of `threads`.
    public static func threadsPerEndpoint(threads: Int) -> Int { max(1, threads / 2) }

    /// `candidates` (endpoint id and row key, oldest first): the keys to claim, at most
    /// `limit`, at most `perEndpoint` of each endpoint.
    public static func choose<Key>(_ candidates: [(endpointId: String, key: Key)], limit: Int, perEndpoint: Int)
        -> [Key]
    {
        var counts: [String: Int] = [:]
        var chosen: [Key] = []
        for c in candidates where chosen.count < limit {
            let n = counts[c.endpointId, default: 0]
            guard n < perEndpoint else { continue }
            counts[c.endpointId] = n + 1
            chosen.append(c.key)
        }
        return chosen
    }

    /// The endpoints a thread must not claim from: those `busy` threads of this node work
    /// on already, at the cap.
    public static func excluded(busy: [String: Int], cap: Int) -> Set<String> {
        Set(busy.filter { $0.value >= cap }.keys)
    }
}
