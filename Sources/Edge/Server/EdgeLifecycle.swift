/// Starts the edge's services in the order their needs give, and stops them in reverse
/// (issue 34 item 4; the idea of swift-service-lifecycle's ordered start and reverse
/// shutdown, with the order computed from each service's `needs` rather than written by hand).
///
/// The order is fixed when the lifecycle is made: a need that names no service, a name
/// used twice or a cycle is refused then, before anything starts. Services that need
/// nothing of each other keep the order they are listed in.
final class EdgeLifecycle {
    enum Problem: Error, Equatable, CustomStringConvertible {
        case duplicate(String)
        case unknownNeed(service: String, need: String)
        /// The services left when none of them could be ordered.
        case cycle([String])

        var description: String {
            switch self {
            case .duplicate(let name): return "two services are named \(name)"
            case .unknownNeed(let service, let need): return "service \(service) needs \(need), which is not one"
            case .cycle(let names): return "services need each other: \(names.joined(separator: ", "))"
            }
        }
    }

    /// The services in starting order.
    let ordered: [EdgeService]
    /// How many of `ordered` have started (and are not stopped yet).
    private var started = 0

    init(_ services: [EdgeService]) throws(Problem) {
        ordered = try Self.order(services)
    }

    /// The services' names in starting order.
    var order: [String] { ordered.map(\.name) }

    /// A topological order: each step takes the first service, in the list's order, whose
    /// needs have all been taken.
    static func order(_ services: [EdgeService]) throws(Problem) -> [EdgeService] {
        var names = Set<String>()
        for s in services {
            guard names.insert(s.name).inserted else { throw .duplicate(s.name) }
        }
        for s in services {
            if let need = s.needs.first(where: { !names.contains($0) }) {
                throw .unknownNeed(service: s.name, need: need)
            }
        }
        var left = services
        var taken = Set<String>()
        var out: [EdgeService] = []
        while !left.isEmpty {
            guard let i = left.firstIndex(where: { $0.needs.allSatisfy(taken.contains) }) else {
                throw .cycle(left.map(\.name))
            }
            let next = left.remove(at: i)
            taken.insert(next.name)
            out.append(next)
        }
        return out
    }

    /// Starts every service in order. When one fails, those already started stop (in
    /// reverse) and its error is thrown.
    func start() throws(EdgeStartError) {
        while started < ordered.count {
            do {
                try ordered[started].start()
            } catch {
                stop()
                throw error
            }
            started += 1
        }
    }

    /// Stops the started services: `beginStopping` on each, last started first, then
    /// `stop` on each in the same order. Once: a second call finds nothing to stop.
    func stop() {
        let running = ordered[..<started].reversed()
        started = 0
        for s in running { s.beginStopping() }
        for s in running { s.stop() }
    }
}
