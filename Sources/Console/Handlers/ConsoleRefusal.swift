import Management

/// Why a console write refused: the workspace API's refusal, or the console's own.
enum ConsoleRefusal: Error, Sendable {
    case operation(OperationRefusal)
    /// A one-time sign-in link that is unknown, used, expired or of a revoked key.
    case signInLinkUnusable

    var message: String {
        switch self {
        case .operation(let refusal): return refusal.message
        case .signInLinkUnusable: return "This sign-in link cannot be used."
        }
    }

    /// Runs `body`, turning an `OperationRefusal` into this type.
    static func wrapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let refusal as OperationRefusal {
            throw ConsoleRefusal.operation(refusal)
        }
    }
}
