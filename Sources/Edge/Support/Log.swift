import Core

#if canImport(Glibc)
import Glibc
#endif

/// Operational log: one JSON object per line, on standard output unless another
/// `sink` is given (a test's). Every line names the process's node (`BIQLI_EDGE_NODE`)
/// right after its message, as the access log's lines do, so that the lines of a fleet
/// can be told apart once gathered.
///
/// Callers pass fields explicitly; nothing here formats request data, so a token or
/// key can only reach the log if a caller names it, and none does.
struct Log: Sendable {
    var level: LogLevel
    /// The node name written in every line (nil: none, for tests that need no name).
    var node: String?
    var sink: any LogSink

    init(level: LogLevel, node: String? = nil, sink: any LogSink = StandardOutputLogSink()) {
        self.level = level
        self.node = node
        self.sink = sink
    }

    func debug(_ message: String, _ fields: [(String, JSONValue)] = []) { write(.debug, message, fields) }
    func info(_ message: String, _ fields: [(String, JSONValue)] = []) { write(.info, message, fields) }
    func warn(_ message: String, _ fields: [(String, JSONValue)] = []) { write(.warn, message, fields) }
    func error(_ message: String, _ fields: [(String, JSONValue)] = []) { write(.error, message, fields) }

    private func write(_ at: LogLevel, _ message: String, _ fields: [(String, JSONValue)]) {
        guard at >= level else { return }
        var members: [(String, JSONValue)] = [
            ("ts", .string(Timestamp.format(milliseconds: Int64(Clock.nowMilliseconds())))),
            ("level", .string(at.rawValue)), ("msg", .string(message)),
        ]
        if let node { members.append(("node", .string(node))) }
        members.append(contentsOf: fields)
        var bytes = JSONValue.object(members).jsonBytes
        bytes.append(0x0A)
        sink.write(bytes)
    }
}

/// Writes a line to standard error (CLI errors and usage).
func printError(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.append(0x0A)
    bytes.withUnsafeBytes { raw in _ = write(2, raw.baseAddress, raw.count) }
}

/// Writes a line to standard output, unbuffered (so that it is seen before a crash or kill).
func printOut(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.append(0x0A)
    bytes.withUnsafeBytes { raw in _ = write(1, raw.baseAddress, raw.count) }
}
