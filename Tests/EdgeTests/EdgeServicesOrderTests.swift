import Foundation
import XCTest

@testable import Edge

/// Issue 34 item 4: the order the edge's own services' needs give (assembled, not started).
final class EdgeServicesOrderTests: XCTestCase {
    func testTheStoreStartsFirstAndTheCertificateManagerLastAfterTheServer() throws {
        let dir = ScratchDirectory(prefix: "edge-order")
        defer { try? FileManager.default.removeItem(atPath: dir.path) }
        var configuration = EdgeConfiguration()
        configuration.dataDirectory = dir.path
        configuration.loops = 1
        configuration.logLevel = .error
        let app = try EdgeApplication(configuration: configuration, demo: false)
        defer { app.services.store.close() }
        // Stopped in reverse: the certificate manager first (while the server drains), the
        // delivery threads after the server's last request, the store last.
        XCTAssertEqual(
            app.lifecycle.order,
            [
                "store", "node-heartbeat", "retention", "fleet-sync", "geoip", "console", "webhook-sealing", "webhooks",
                "server", "acme",
            ])
    }
}
