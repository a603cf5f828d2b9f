import Core
import HTTPMessages

/// One request answered by a handler (a route table) in process, without a socket: the
/// unit tests of the modules whose routes are in the table run their requests through
/// the real router and middleware this way (Hummingbird's testing module), deferred
/// answers included.
public enum InProcessRequest {
    /// What the table answered, and the route it named (the access log's label).
    public struct Answer: Sendable {
        public var route: String
        /// Nil when a deferred answer did not come within the wait.
        public var response: HTTPResponse?
    }

    /// Answers `request` as a connection of `listener` from `peerAddress` on loop
    /// `loopIndex` would be answered; a deferred answer is waited for, at most
    /// `timeoutSeconds`. `logger`: what `RequestContext.logger` writes through.
    public static func answer(
        _ handler: any HTTPHandler, _ request: HTTPRequest, listener: ListenerKind = .http, loopIndex: Int = 0,
        peerAddress: String = "127.0.0.1", logger: Logger = .discarding, timeoutSeconds: UInt64 = 10
    ) -> Answer {
        var configuration = HTTPServerConfiguration()
        configuration.logger = logger
        // A loop that listens nowhere and never runs: the context needs one, the router does not.
        guard
            let loop = try? EventLoop(
                index: loopIndex, configuration: configuration, handler: handler, listeners: [],
                certificates: CertificateSet.load(directory: nil))
        else { preconditionFailure("no event loop for an in-process request") }
        let delivered = Monitor<HTTPResponse?>(nil)
        var context = RequestContext(
            loop: loop, loopIndex: loopIndex, peerAddress: peerAddress, listener: listener, serverName: nil, fd: -1,
            generation: 0)
        context.responder = Responder { response in
            delivered.withLock { $0 = response }
            delivered.broadcast()
        }
        switch handler.handle(request, &context) {
        case .response(let response):
            return Answer(route: context.routeName, response: response)
        case .deferred:
            let deadline = Clock.monotonicNanoseconds() + timeoutSeconds * 1_000_000_000
            let response = delivered.withCondition { held -> HTTPResponse? in
                while true {
                    if let response = held.state { return response }
                    if !held.wait(untilMonotonic: deadline) { return held.state }
                }
            }
            return Answer(route: context.routeName, response: response)
        }
    }
}
