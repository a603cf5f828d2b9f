import Synchronization

/// Keeps every line in memory, for a test to read back (swift-log's in-memory handler).
public final class BufferLogSink: LogSink {
    private let written = Mutex<[[UInt8]]>([])

    public init() {}

    public func write(_ line: [UInt8]) { written.withLock { $0.append(line) } }

    /// The raw lines, each with its newline.
    public var rawLines: [[UInt8]] { written.withLock { $0 } }

    /// Each line parsed as the JSON object it must be (nil for one that is not).
    public var lines: [JSONValue?] {
        rawLines.map { line in
            guard line.last == 0x0A else { return nil }
            return try? JSONParser.parse(Array(line.dropLast()))
        }
    }
}
