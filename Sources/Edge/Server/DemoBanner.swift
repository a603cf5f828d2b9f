import HTTP
import Management

/// What `serve --demo` prints once it listens: the keys (only when just created) and
/// curl commands for every path of the product.
enum DemoBanner {
    /// `consoleSignIn`: the console's one-time sign-in link (path and query), when there is a console.
    static func text(
        created: DemoData.Created, server: HTTPServer, consoleSignIn: String? = nil,
        publicURL: String = EdgeConfiguration().publicURL
    ) -> String {
        let https = server.boundAddresses.first { $0.0 == .https }?.1.port ?? 8443
        let http = server.boundAddresses.first { $0.0 == .http }?.1.port ?? 8080
        let host = DemoData.domain
        let resolve = "--resolve \(host):\(https):127.0.0.1"
        let base = "https://\(host):\(https)"
        let pk = created.publishableKey ?? "$BIQLI_DEMO_PK"
        let sk = created.secretKey ?? "$BIQLI_DEMO_SK"
        var out = "\n== biqli-edge demo ==\n"
        if created.publishableKey != nil {
            out += """
                Demo workspace secret key (shown once):  \(sk)
                Demo app publishable key (shown once):   \(pk)
                Demo Mobile App ID:                      \(DemoData.appId)

                """
        } else {
            out += """
                The demo keys were printed when ./demo-data was created (they are stored hashed). Set them for
                the commands below: export BIQLI_DEMO_SK=biqli_sk_... BIQLI_DEMO_PK=biqli_mobile_pk_...
                or delete ./demo-data and start again for new ones.

                """
        }
        out += sdkSettings(publishableKey: pk, publicURL: publicURL)
        if let console = server.boundAddresses.first(where: { $0.0 == .console })?.1 {
            let base = "http://\(console.description)"
            out += "\nOperator console:                        \(base)/console/\n"
            if let consoleSignIn {
                out += "Signed in once, within 10 minutes, by:   \(base)\(consoleSignIn)\n"
            }
        }
        out += """

            Try it (self-signed certificate, hence -k; --resolve maps the demo host to this machine):

            # Android visit: 302 to Google Play with the handoff token nested once in `referrer`
            curl -sk -o /dev/null -w '%{http_code} %{redirect_url}\\n' \(resolve) -A 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36' '\(base)/invite?ref=BOB'

            # iOS visit: the Deep View page (its Continue button copies the handoff URL)
            curl -sk \(resolve) -A 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1' '\(base)/invite' | grep -o 'https://[^"]*/m/handoff?biqli_token=[^"]*'

            # Desktop visit: 302 to the web destination
            curl -sk -o /dev/null -w '%{http_code} %{redirect_url}\\n' \(resolve) -A 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0' '\(base)/invite'

            # Link-preview bot: Open Graph tags, no click
            curl -sk \(resolve) -A 'facebookexternalhit/1.1' '\(base)/invite' | grep 'og:'

            # Association files
            curl -sk \(resolve) '\(base)/.well-known/apple-app-site-association'
            curl -sk \(resolve) '\(base)/.well-known/assetlinks.json'

            # Resolver: an installed-app open of the short link (exact_app_link)
            curl -sk \(resolve) -X POST '\(base)/api/v1/track/open' -H "Authorization: Bearer \(pk)" -H 'Content-Type: application/json' -H 'Idempotency-Key: open_0e7cb12b4ecb4bc4a192de5578ec0139' -H 'X-Biq-SDK: android' -H 'X-Biq-SDK-Version: 1.0.0' -H 'X-Biq-Request-Id: req_8d2cc6242a224f7aaf2c0c172f849f87' --data '{"eventId":"open_0e7cb12b4ecb4bc4a192de5578ec0139","appId":"\(DemoData.appId)","appInstanceId":"install_98261e74ceca42bc830282c8f6cfd02f","platform":"android","firstOpen":true,"probabilisticAllowed":false,"deepLink":"https://\(host)/invite?ref=BOB","sdkVersion":"1.0.0"}'

            # Workspace API: list links
            curl -sk \(resolve) -H "Authorization: Bearer \(sk)" '\(base)/api/v1/links'

            # Plain HTTP visits are redirected to HTTPS (308); association files never are
            curl -s -o /dev/null -w '%{http_code} %{redirect_url}\\n' -H 'Host: \(host)' 'http://127.0.0.1:\(http)/invite'

            """
        return out
    }

    /// What to give the official iOS and Android SDKs for the demo app ("Connecting the
    /// official SDKs" in the README), and why the API base URL will not do when it breaks
    /// their rule (the demo's default `https://localhost:8443` does).
    static func sdkSettings(publishableKey pk: String, publicURL: String) -> String {
        let api = SDKBaseURL.apiBase(publicURL: publicURL)
        var out = """

            Official SDKs (iOS and Android), for the demo app: README, "Connecting the official SDKs"
              appId:           \(DemoData.appId)
              publishableKey:  \(pk)
              apiBaseURL:      \(api)   (iOS apiBaseURL, Android apiBaseUrl)
              iOS entitlement: applinks:\(DemoData.domain)   (Associated Domains)
              Android:         App Links on https://\(DemoData.domain)/ (autoVerify); the SDK reads the Play referrer

            """
        if let problem = SDKBaseURL.problem(publicURL: publicURL) {
            out += """
                  Not usable as it is: \(problem).
                  On a device: HTTPS on port 443 with a certificate the phone trusts,
                  and BIQLI_EDGE_PUBLIC_URL=https://<that host>.

                """
        }
        return out
    }
}
