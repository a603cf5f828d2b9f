import CSodium
import Core
import Visit

/// What each event loop keeps for its visits, touched only by its own thread: the
/// user agents it classified last.
final class VisitLoops: Sendable {
    struct State {
        var visitors = VisitorCache()
    }

    private let states: PerLoop<State>

    init(loops: Int) {
        states = PerLoop(count: loops) { State() }
    }

    /// The visitor of a request on loop `loop`. Call only on that loop's thread.
    func classify(method: String, userAgent: String?, loop: Int) -> Visitor {
        states.with(loop) { $0.visitors.classify(method: method, userAgent: userAgent) }
    }

    /// `count` bytes from libsodium's CSPRNG, for tokens and nonces. The executable
    /// selects libsodium's per-thread ChaCha20 generator at start (`main.swift`), so
    /// this is no system call; nothing random is kept for later.
    static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(Self.sodiumReady, "libsodium failed to initialise")
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        return bytes
    }

    private static let sodiumReady: Bool = sodium_init() >= 0
}
