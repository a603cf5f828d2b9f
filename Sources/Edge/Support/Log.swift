import Core

#if canImport(Glibc)
import Glibc
#endif

/// The edge's name for the one logger type (`Core.Logger`): a value with the node, the
/// level and a request's fields, handed to each request's work (`RequestContext.logger`).
typealias Log = Logger

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
