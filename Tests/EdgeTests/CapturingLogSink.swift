import Core
import Synchronization

@testable import Edge

/// A log sink that keeps every line, for a test to read back.
final class CapturingLogSink: LogSink {
    private let written = Mutex<[[UInt8]]>([])

    func write(_ line: [UInt8]) { written.withLock { $0.append(line) } }

    /// The raw lines, each with its newline.
    var rawLines: [[UInt8]] { written.withLock { $0 } }

    /// Each line parsed as the JSON object it must be (nil for one that is not).
    var lines: [JSONValue?] {
        rawLines.map { line in
            guard line.last == 0x0A else { return nil }
            return try? JSONParser.parse(Array(line.dropLast()))
        }
    }
}
