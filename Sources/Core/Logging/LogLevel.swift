/// How much a log line matters; a logger writes the lines at or above its level
/// (`BIQLI_EDGE_LOG_LEVEL`).
public enum LogLevel: String, Sendable, Comparable {
    case debug, info, warn, error

    private var rank: Int {
        switch self {
        case .debug: return 0
        case .info: return 1
        case .warn: return 2
        case .error: return 3
        }
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rank < b.rank }
}
