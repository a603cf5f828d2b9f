/// The operational log: one JSON object per line (`ts`, `level`, `msg`, the node, the
/// logger's own fields, then the line's), written to its `sink`.
///
/// A value: the edge makes one at start (level and node) and hands it down; a request's
/// work gets a copy that carries the request's fields (`with`: its `route`, its
/// `requestId`), so that every line written while handling it names the request. Only
/// the lines a caller writes exist: nothing here formats request data, so a token or key
/// reaches the log only if a caller names it, and none does.
public struct Logger: Sendable {
    public var level: LogLevel
    /// The node name written in every line (nil: none, for tests that need no name).
    public var node: String?
    public var sink: any LogSink
    /// Written in every line after the node, in order (a request's route and id).
    public private(set) var fields: [(String, JSONValue)] = []

    public init(level: LogLevel, node: String? = nil, sink: any LogSink = StandardOutputLogSink()) {
        self.level = level
        self.node = node
        self.sink = sink
    }

    /// Writes nothing: for code whose lines no one reads.
    public static let discarding = Logger(level: .error, sink: DiscardingLogSink())

    /// This logger with one more field in every line (one already there is replaced).
    public func with(_ name: String, _ value: JSONValue) -> Logger {
        var copy = self
        if let i = copy.fields.firstIndex(where: { $0.0 == name }) {
            copy.fields[i].1 = value
        } else {
            copy.fields.append((name, value))
        }
        return copy
    }

    /// This logger with `requestId` in every line (the request's `X-Biq-Request-Id`).
    public func with(requestId: String) -> Logger { with("requestId", .string(requestId)) }

    public func debug(_ message: String, _ fields: [(String, JSONValue)] = []) { write(.debug, message, fields) }
    public func info(_ message: String, _ fields: [(String, JSONValue)] = []) { write(.info, message, fields) }
    public func warn(_ message: String, _ fields: [(String, JSONValue)] = []) { write(.warn, message, fields) }
    public func error(_ message: String, _ fields: [(String, JSONValue)] = []) { write(.error, message, fields) }

    /// A line at `level`, when the logger writes that level.
    public func write(_ at: LogLevel, _ message: String, _ fields: [(String, JSONValue)]) {
        guard at >= level else { return }
        var members: [(String, JSONValue)] = [
            ("ts", .string(Timestamp.format(milliseconds: Int64(Clock.nowMilliseconds())))),
            ("level", .string(at.rawValue)), ("msg", .string(message)),
        ]
        if let node { members.append(("node", .string(node))) }
        members.append(contentsOf: self.fields)
        members.append(contentsOf: fields)
        var bytes = JSONValue.object(members).jsonBytes
        bytes.append(0x0A)
        sink.write(bytes)
    }
}
