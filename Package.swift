// swift-tools-version:6.0
// biqli-edge: a self-hostable redirect and Deep View edge for mobile deep links.
// Depends on the Swift toolchain and Debian's C libraries only (see README, "Set-up").
import PackageDescription

let package = Package(
    name: "biqli-edge",
    products: [
        .executable(name: "biqli-edge", targets: ["Edge"])
    ],
    targets: [
        // C libraries from Debian, found through pkg-config.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CPostgreSQL", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMaxMindDB", pkgConfig: "libmaxminddb", providers: [.apt(["libmaxminddb-dev"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The one C shim: what Swift cannot import (epoll, eventfd, accept4, OpenSSL macros, atomics).
        .target(name: "CSystem", dependencies: ["COpenSSL"], cSettings: [.define("_GNU_SOURCE")]),

        // Pure value helpers shared by every layer: JSON, ULIDs, base64url, SHA-256, timestamps.
        .target(name: "Core", dependencies: ["CSystem"]),
        // The domain's values and their rules: links, apps, domains, keys, handoffs, clicks,
        // open events, handoff tokens and keys, dynamic values, the source-address hash. No I/O.
        .target(name: "Model", dependencies: ["Core", "CSodium"]),
        // HTTP message types (request, response, headers, methods, status) that every
        // layer can build and return; no I/O.
        .target(name: "HTTPMessages"),
        // Transport: event loops, TLS, HTTP/1.1 parsing, routing. Knows nothing of links.
        .target(name: "HTTP", dependencies: ["Core", "HTTPMessages", "CSystem", "COpenSSL"]),
        // Persistence behind the `Store` protocol: SQLite (embedded) and PostgreSQL.
        .target(name: "Store", dependencies: ["Core", "Model", "CSQLite", "CPostgreSQL", "CSystem", "CSodium"]),
        // apple-app-site-association and assetlinks.json: validation and rendering.
        .target(name: "Association", dependencies: ["Core", "Model"]),
        // Short-link visits: visitor classification, the visit decision (a pure plan), handoff
        // snapshots, the Play referrer.
        .target(name: "Visit", dependencies: ["Core", "Model", "CSodium"]),
        // Images made from values, no I/O: QR codes (libqrencode) as SVG and PNG (zlib).
        .target(name: "Graphics", dependencies: ["CQRencode", "CZlib"]),
        // Countries of client addresses from a MaxMind DB file (libmaxminddb), reloaded when it changes.
        .target(name: "GeoIP", dependencies: ["Core", "CMaxMindDB"]),
        // HTML pages, escaping, CSP nonces.
        .target(name: "Templates", dependencies: ["Core", "HTTPMessages", "Model"]),
        // POST /api/v1/track/open: validation, matching, idempotency, receipts, rate limits.
        .target(name: "Resolver", dependencies: ["Core", "HTTPMessages", "Model", "Store", "CSodium"]),
        // The workspace API (/api/v1/ but track/open): routing, auth, validation, operations,
        // idempotency, the OpenAPI document; `apply`'s import, workspace keys, the demo data.
        // Takes an HTTPRequest and answers an HTTPResponse; knows neither the server nor the CLI.
        .target(
            name: "Management",
            dependencies: [
                "Core", "HTTPMessages", "Model", "Store", "Association", "Templates", "Visit", "Graphics", "CSodium",
            ]),
        // The operator console under /console/ on its own listener: pages (HTML and SVG charts),
        // sessions and CSRF, forms; through the workspace API's operations. Knows neither the server
        // nor the CLI: the edge routes its listener's requests here.
        .target(
            name: "Console",
            dependencies: ["Core", "HTTPMessages", "Model", "Store", "Management", "Templates"]),
        // The blocking outgoing HTTP(S) client that ACME and webhooks share: timeouts, size
        // caps, no redirects, the destination's addresses checked (decision 0028).
        .target(name: "Outbound", dependencies: ["Core", "CSystem", "COpenSSL"]),
        // ACME (RFC 8555): the client, on OpenSSL, and the certificate lifecycle (orders,
        // renewals, challenges), over the store. Serves no HTTP itself (decision 0017).
        .target(name: "Certificates", dependencies: ["Core", "Store", "Outbound", "CSystem", "COpenSSL"]),
        // Outgoing webhooks' delivery threads: claims from the outbox, Standard Webhooks
        // signatures, retries (decision 0028). Never on an event loop.
        .target(name: "Webhooks", dependencies: ["Core", "Model", "Store", "Outbound"]),
        // The executable: configuration, CLI, route table, wiring, visit flow.
        .executableTarget(
            name: "Edge",
            dependencies: [
                "HTTP", "HTTPMessages", "Model", "Store", "Association", "Templates", "Resolver", "Visit", "Management",
                "Console", "Certificates", "Webhooks", "Outbound", "GeoIP", "Core",
                "CSystem",
                "COpenSSL",
                "CSodium",
            ]
        ),
        // Store benchmark and crash-test writer (bench/store, bench/store-crash-test).
        .executableTarget(name: "StoreBench", dependencies: ["Model", "Store", "Core"]),

        .testTarget(name: "CoreTests", dependencies: ["Core"]),
        .testTarget(name: "ModelTests", dependencies: ["Model", "Core"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "HTTPMessages", "Core", "CSystem", "COpenSSL"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "Core", "Model"]),
        .testTarget(name: "AssociationTests", dependencies: ["Association", "Store", "Core", "Model"]),
        .testTarget(name: "VisitTests", dependencies: ["Visit", "Store", "Core", "Model"]),
        .testTarget(name: "TemplatesTests", dependencies: ["Templates", "Core", "Model", "HTTPMessages"]),
        .testTarget(name: "GraphicsTests", dependencies: ["Graphics", "CZlib"]),
        .testTarget(name: "GeoIPTests", dependencies: ["GeoIP"]),
        .testTarget(
            name: "ResolverTests",
            dependencies: ["Resolver", "Store", "Core", "Model", "HTTPMessages", "StoreTests"]),
        .testTarget(name: "ManagementTests", dependencies: ["Management", "HTTPMessages", "Store", "Core", "Model"]),
        .testTarget(
            name: "ConsoleTests",
            dependencies: ["Console", "Management", "Templates", "HTTPMessages", "Store", "Core", "Model"]),
        .testTarget(
            name: "CertificatesTests",
            dependencies: ["Certificates", "Outbound", "Store", "Core", "CSystem", "COpenSSL"]),
        .testTarget(name: "WebhooksTests", dependencies: ["Webhooks", "Outbound", "Store", "Model", "Core"]),
        .testTarget(
            name: "EdgeTests",
            dependencies: ["Edge", "HTTP", "HTTPMessages", "Store", "Core", "Model", "Resolver", "Management"]),
    ]
)
