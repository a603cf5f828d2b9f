/// The patterns of a frozen table as a tree of segments (Hummingbird's router trie), in
/// flat arrays of plain values so that a lookup touches no reference-counted value until
/// it compares a literal of the same length. `find` walks it depth first, trying at each
/// segment the literal child, then a decoding parameter, then a parameter, then a rest:
/// of the patterns that match a path, the first it reaches is the most specific one
/// (the table's check made them nested), whatever order they were added in.
struct RouteTree: Sendable {
    struct Node: Sendable {
        /// Indices into `literalTexts`, `literalLengths` and `literalNodes`.
        var literals: [Int] = []
        var decodedParameter = -1
        var parameter = -1
        /// The endpoint of a rest pattern here (it takes every path below, none included).
        var rest = -1
        /// The endpoint of the pattern that ends here.
        var endpoint = -1
    }

    private(set) var nodes = [Node()]
    private var literalTexts: [String] = []
    private var literalLengths: [Int] = []
    private var literalNodes: [Int] = []

    /// Puts `pattern`'s segments in the tree, its endpoint numbered `endpoint`.
    mutating func insert(_ pattern: RoutePattern, endpoint: Int) {
        var node = 0
        for segment in pattern.segments {
            switch segment {
            case .literal(let text):
                if let j = nodes[node].literals.first(where: { literalTexts[$0] == text }) {
                    node = literalNodes[j]
                } else {
                    let child = newNode()
                    literalTexts.append(text)
                    literalLengths.append(text.utf8.count)
                    literalNodes.append(child)
                    nodes[node].literals.append(literalTexts.count - 1)
                    node = child
                }
            case .parameter(_, let decoded):
                let existing = decoded ? nodes[node].decodedParameter : nodes[node].parameter
                if existing >= 0 {
                    node = existing
                } else {
                    let child = newNode()
                    if decoded { nodes[node].decodedParameter = child } else { nodes[node].parameter = child }
                    node = child
                }
            case .rest:
                nodes[node].rest = endpoint
                return
            }
        }
        nodes[node].endpoint = endpoint
    }

    private mutating func newNode() -> Int {
        nodes.append(Node())
        return nodes.count - 1
    }

    /// The endpoint of the most specific pattern that matches `parts`, or -1.
    func find(_ parts: [Substring]) -> Int { find(parts, 0, 0) }

    private func find(_ parts: [Substring], _ i: Int, _ index: Int) -> Int {
        let node = nodes[index]
        guard i < parts.count else { return node.endpoint >= 0 ? node.endpoint : node.rest }
        let part = parts[i]
        let length = part.utf8.count
        for j in node.literals where literalLengths[j] == length {
            // Lengths first: most literals differ from a segment in length, and comparing
            // bytes costs far more.
            guard part.utf8.elementsEqual(literalTexts[j].utf8) else { continue }
            let found = find(parts, i + 1, literalNodes[j])
            if found >= 0 { return found }
            break  // literals of one node differ: no other can match
        }
        if length > 0 {
            if node.decodedParameter >= 0, PercentDecoding.segment(part) != nil {
                let found = find(parts, i + 1, node.decodedParameter)
                if found >= 0 { return found }
            }
            if node.parameter >= 0 {
                let found = find(parts, i + 1, node.parameter)
                if found >= 0 { return found }
            }
        }
        return node.rest
    }
}
