import Core
import Model
import Store

/// The zero-set-up demo of `serve --demo`: the domain `go.example.test` (and
/// `links.example.test`), an iOS and Android app, a few links and a publishable key.
/// Installed once into an empty demo store; the keys are printed when created.
public enum DemoData {
    public static let hostnames = ["go.example.test", "links.example.test"]
    /// Fixed ids, so that the printed commands and the tests can name them. They are
    /// real ULIDs (Crockford's base 32: no I, L, O or U), as the OpenAPI document's id
    /// patterns require. A demo store made before they were (its links were
    /// `biq_lnk_01JDEM0L1NK...`) keeps its old ids: `install` adds nothing to a store
    /// that has the demo app; delete the demo data directory to get these.
    public static let appId = "biq_mapp_01JDEM0APP00000000000000AA"
    static let linkIds = [
        "invite": "biq_lnk_01JDEM0HREF000000000000001",
        "promo": "biq_lnk_01JDEM0HREF000000000000002",
        "docs": "biq_lnk_01JDEM0HREF000000000000003",
    ]
    public static let domain = "go.example.test"
    /// The name of the demo's workspace secret key (`keys list`).
    public static let secretKeyName = "demo"

    /// What `install` created that can only be shown now (keys are stored hashed).
    public struct Created: Sendable {
        public internal(set) var publishableKey: String?
        public internal(set) var secretKey: String?
    }

    public static func install(into store: any Store) throws(StoreError) -> Created {
        let existing = try store.reader(loop: 0).app(appId)
        var created = Created()
        if existing != nil { return created }
        let publishable = KeyMaterial.newPublishableKey()
        let secret = KeyMaterial.newSecretKey()
        let now = Int64(Clock.nowMilliseconds())
        try store.writeAndWait { tx in
            for host in hostnames {
                try tx.putDomain(
                    Domain(hostname: host, verified: true, deepViewEnabled: true, createdAt: now, updatedAt: now))
            }
            try tx.putApp(
                MobileApp(
                    id: appId, name: "Biqli Demo", enabled: true, iconUrl: nil,
                    ios: IOSPlatform(
                        teamId: "ABCDE12345", bundleId: "com.example.demo", appStoreId: "1234567890",
                        fallbackUrl: "https://www.example.com/ios", probabilisticFallback: true,
                        probabilisticWindowMinutes: 60),
                    android: AndroidPlatform(
                        packageName: "com.example.demo",
                        sha256CertFingerprints: [
                            "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
                        ]),
                    domains: hostnames, createdAt: now, updatedAt: now))
            try tx.putPublishableKey(
                PublishableKeyRecord(
                    id: "pk_" + ULID.make(), appId: appId, keyHash: KeyMaterial.hash(publishable),
                    hint: KeyMaterial.hint(publishable), createdAt: now))
            try tx.putSecretKey(
                SecretKeyRecord(
                    id: "sk_" + ULID.make(), name: secretKeyName, keyHash: KeyMaterial.hash(secret),
                    hint: KeyMaterial.hint(secret), createdAt: now))
            let links: [Link] = [
                Link(
                    id: linkIds["invite"]!, domain: domain, key: "invite",
                    url: "https://www.example.com/invite",
                    mobile: MobilePayload(
                        appId: appId, route: "/invite/accepted", referralCode: "PARTNER_42",
                        metadata: ["campaign": "spring_launch"], dynamicKeys: ["ref", "utm_source"], deepView: true),
                    preview: LinkPreview(
                        title: "Join me on Biqli Demo", description: "Accept the invite and get a welcome bonus.",
                        imageUrl: "https://www.example.com/og/invite.png"), createdAt: now, updatedAt: now),
                Link(
                    id: linkIds["promo"]!, domain: domain, key: "promo",
                    url: "https://www.example.com/promo",
                    mobile: MobilePayload(
                        appId: appId, route: "/promo/spring", referralCode: nil, metadata: ["tier": "gold"],
                        dynamicKeys: ["ref", "campaign"], deepView: true),
                    preview: LinkPreview(title: "Spring promo", description: "20% off this week."),
                    createdAt: now, updatedAt: now),
                Link(
                    id: linkIds["docs"]!, domain: domain, key: "docs",
                    url: "https://www.example.com/docs", preview: LinkPreview(title: "Documentation"),
                    createdAt: now, updatedAt: now),
            ]
            for link in links { try tx.putLink(link) }
        }
        created.publishableKey = publishable
        created.secretKey = secret
        return created
    }
}
