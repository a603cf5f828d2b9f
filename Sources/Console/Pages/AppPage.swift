import HTTPMessages
import Management
import Model
import Templates

/// `GET /console/apps/{id}`: a Mobile App's configuration and its publishable keys, with
/// rotation (`POST /console/apps/{id}/keys/rotate`) and its overlap: after a rotation the
/// previous keys keep working for `keyOverlapSeconds`, so that app versions in the field
/// move to the new key without failing.
enum AppPage {
    struct Model {
        var app: MobileApp
        var keys: [PublishableKeyRecord]
        var now: Int64
        /// Just made by a rotation: shown this once.
        var rotated: WorkspaceOperations.RotatedKey?
    }

    static func render(_ m: Model, csrf: String) -> HTTPResponse {
        let app = m.app
        let overlap = Format.duration(seconds: app.keyOverlapSeconds)
        let rotated: HTML =
            m.rotated.map { r in
                let until: HTML =
                    r.previousKeysExpireAt.map { "The previous keys work until \(Format.time($0))." }
                    ?? "There was no previous key to wind down."
                return """
                    <div class="notice" id="new-key" role="status"><p><strong>New publishable key</strong> (shown \
                    this once; it is stored hashed): <code id="new-key-value">\(r.publishableKey)</code></p><p>\(until)</p></div>
                    """
            } ?? .empty
        let keyRows: [HTML] = m.keys.sorted { $0.createdAt > $1.createdAt }.map { key in
            """
            <tr><td><code>\(key.id)</code></td><td><code>…\(key.hint)</code></td><td>\(Format.time(key.createdAt))</td>\
            <td>\(key.expiresAt.map { Format.time($0) } ?? "no end")</td><td>\(state(key, now: m.now))</td></tr>
            """
        }
        let keys: HTML =
            keyRows.isEmpty
            ? "<p>This app has no publishable key.</p>"
            : """
            <table id="keys"><caption>Publishable keys, newest first</caption>
            <thead><tr><th scope="col">ID</th><th scope="col">Ends with</th><th scope="col">Created</th>\
            <th scope="col">Works until</th><th scope="col">State</th></tr></thead>
            <tbody>\(keyRows)</tbody></table>
            """
        let main: HTML = """
            <h1>\(app.name)</h1>
            \(rotated)
            <dl class="facts" id="app-facts">
            <dt>ID</dt><dd><code>\(app.id)</code></dd>
            <dt>Status</dt><dd>\(app.enabled ? "Enabled" : "Disabled")</dd>
            <dt>Domains</dt><dd>\(app.domains.isEmpty ? "none" : app.domains.joined(separator: ", "))</dd>
            <dt>Handoff lifetime</dt><dd>\(Format.duration(seconds: app.handoffLifetimeSeconds))</dd>
            <dt>Key overlap</dt><dd id="key-overlap">\(overlap)</dd>
            </dl>
            \(ios(app.ios))
            \(android(app.android))
            <h2 id="publishable-keys">Publishable keys</h2>
            <p>The SDKs send a publishable key with every app open. Rotating makes a new key and lets the \
            current ones work for \(overlap) more (the overlap), so that installed app versions can move to \
            the new key.</p>
            \(keys)
            <form method="post" action="\(ConsolePaths.rotateKeys(app.id))" class="actions">
            <input type="hidden" name="csrf" value="\(csrf)">
            <button type="submit" class="primary" id="rotate-key">Rotate the publishable key</button>
            </form>
            """
        return ConsoleLayout.page(title: app.name, section: .apps, csrf: csrf, main: main)
    }

    static func state(_ key: PublishableKeyRecord, now: Int64) -> String {
        if key.revokedAt != nil { return "revoked" }
        guard let end = key.expiresAt else { return "active" }
        return now < end ? "in its overlap" : "expired"
    }

    private static func ios(_ p: IOSPlatform?) -> HTML {
        guard let p else { return "<h2 id=\"ios\">iOS</h2><p>Not configured.</p>" }
        return """
            <h2 id="ios">iOS</h2>
            <dl class="facts">
            <dt>App ID</dt><dd><code>\(p.appID)</code></dd>
            <dt>App Store ID</dt><dd>\(p.appStoreId ?? "none")</dd>
            <dt>TestFlight URL</dt><dd class="url">\(p.testFlightUrl ?? "none")</dd>
            <dt>Fallback URL</dt><dd class="url">\(p.fallbackUrl ?? "none")</dd>
            <dt>Probabilistic matching</dt><dd>\(p.probabilisticFallback ? "on, within \(p.probabilisticWindowMinutes) minutes" : "off")</dd>
            <dt>SDK</dt><dd>\(p.sdkEnabled ? "on" : "off")</dd>
            <dt>Web credentials</dt><dd>\(p.webCredentials ? "on" : "off")</dd>
            <dt>App Clip</dt><dd>\(p.appClipBundleId ?? "none")</dd>
            </dl>
            """
    }

    private static func android(_ p: AndroidPlatform?) -> HTML {
        guard let p else { return "<h2 id=\"android\">Android</h2><p>Not configured.</p>" }
        let prints: [HTML] = p.sha256CertFingerprints.map { "<code>\($0)</code><br>" }
        return """
            <h2 id="android">Android</h2>
            <dl class="facts">
            <dt>Package</dt><dd><code>\(p.packageName)</code></dd>
            <dt>Signing certificates (SHA-256)</dt><dd>\(prints)</dd>
            <dt>Play Store URL</dt><dd class="url">\(p.playStoreUrl ?? "the package's store page")</dd>
            <dt>Fallback URL</dt><dd class="url">\(p.fallbackUrl ?? "none")</dd>
            <dt>SDK</dt><dd>\(p.sdkEnabled ? "on" : "off")</dd>
            </dl>
            """
    }
}
