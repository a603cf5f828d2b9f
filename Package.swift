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
        // The one C shim: what Swift cannot import (epoll, eventfd, accept4, OpenSSL macros, atomics).
        .target(name: "CSystem", dependencies: ["COpenSSL"], cSettings: [.define("_GNU_SOURCE")]),

        // Pure value types shared by every layer: JSON, ULIDs, base64url, timestamps.
        .target(name: "Core"),
        // Transport: event loops, TLS, HTTP/1.1. Knows nothing of links.
        .target(name: "HTTP", dependencies: ["Core", "CSystem", "COpenSSL"]),
        // Persistence behind the `Store` protocol; SQLite today.
        .target(name: "Store", dependencies: ["Core", "CSQLite", "CSystem", "CSodium"]),
        // apple-app-site-association and assetlinks.json: validation and rendering.
        .target(name: "Association", dependencies: ["Core", "Store"]),
        // Short-link visits: visitor classification, dynamic values, handoff tokens, Play referrer.
        .target(name: "Visit", dependencies: ["Core", "Store", "CSodium"]),
        // HTML pages, escaping, CSP nonces.
        .target(name: "Templates", dependencies: ["Core", "Store", "CSodium"]),
        // POST /api/v1/track/open: validation, matching, idempotency, receipts, rate limits.
        .target(name: "Resolver", dependencies: ["Core", "Store", "CSodium"]),
        // The executable: configuration, CLI, routes, visit flow, management API.
        .executableTarget(
            name: "Edge",
            dependencies: [
                "HTTP", "Store", "Association", "Templates", "Resolver", "Visit", "Core", "CSystem", "COpenSSL",
                "CSodium",
            ]
        ),
        // Store benchmark and crash-test writer (bench/store, bench/store-crash-test).
        .executableTarget(name: "StoreBench", dependencies: ["Store", "Core"]),

        .testTarget(name: "CoreTests", dependencies: ["Core"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "CSystem", "COpenSSL"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "Core"]),
        .testTarget(name: "AssociationTests", dependencies: ["Association", "Store", "Core"]),
        .testTarget(name: "VisitTests", dependencies: ["Visit", "Store", "Core"]),
        .testTarget(name: "TemplatesTests", dependencies: ["Templates", "Store", "Core"]),
        .testTarget(name: "ResolverTests", dependencies: ["Resolver", "Store", "Core"]),
        .testTarget(name: "EdgeTests", dependencies: ["Edge", "HTTP", "Store", "Core"]),
    ]
)
