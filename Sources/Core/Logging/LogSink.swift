#if canImport(Glibc)
import Glibc
#endif

/// Where the operational log's lines go: standard output in the server, a buffer in
/// tests. Each `write` is one whole line (a JSON object and its newline), written at
/// once, so that lines from several threads never interleave.
public protocol LogSink: Sendable {
    func write(_ line: [UInt8])
}

/// Standard output, unbuffered (a line is out before a crash or a kill): the server's
/// log stream, one JSON object per line, which log shippers parse.
public struct StandardOutputLogSink: LogSink {
    public init() {}

    public func write(_ line: [UInt8]) {
        line.withUnsafeBytes { raw in _ = Glibc.write(1, raw.baseAddress, raw.count) }
    }
}

/// Drops every line: a logger for code whose lines no one reads (a unit test's, a tool's).
public struct DiscardingLogSink: LogSink {
    public init() {}

    public func write(_ line: [UInt8]) {}
}
