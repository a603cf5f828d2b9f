import HTTPMessages
import Store

@testable import Console

/// The console's pages reached as the edge's router reaches them (`ConsoleRoutes`: that
/// router and its choices are the edge's, tested there); here a plain match of
/// `ConsoleEndpoint.all`, literals before parameters.
extension Console {
    func handle(_ request: HTTPRequest, client: ConsoleClient, reader: any StoreReader) -> ConsoleAnswer {
        if request.path == Console.prefix { return .response(Console.toRoot()) }
        guard let parts = Console.segments(request.path) else { return .response(Console.badRequest()) }
        guard parts.first == "console", request.path.hasPrefix("/console/") else {
            return .response(Console.outside())
        }
        let below = parts.count == 2 && parts[1].isEmpty ? [] : Array(parts.dropFirst())
        var matching: [(ConsoleEndpoint, [String: String], Int)] = []
        for endpoint in ConsoleEndpoint.all {
            let pattern = endpoint.pattern.split(separator: "/")
            guard pattern.count == below.count else { continue }
            var values: [String: String] = [:]
            var fits = true
            for (p, v) in zip(pattern, below) {
                if p.hasPrefix(":") { values[String(p.dropFirst())] = String(v) } else if p != v { fits = false }
            }
            if fits { matching.append((endpoint, values, values.count)) }
        }
        let fewest = matching.map(\.2).min()
        matching = matching.filter { $0.2 == fewest }
        let method: HTTPMethod = request.method == .head ? .get : request.method
        guard let (endpoint, values, _) = matching.first(where: { $0.0.method == method }) else {
            if matching.isEmpty { return .response(notFound(request, client: client, reader: reader)) }
            var allowed = matching.map(\.0.method)
            if allowed.contains(.get) { allowed.append(.head) }
            return .response(methodNotAllowed(request, client: client, allowed: allowed))
        }
        return answer(endpoint, parameter: { values[$0] ?? "" }, request, client: client, reader: reader)
    }
}
