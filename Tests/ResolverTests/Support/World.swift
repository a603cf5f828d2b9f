import Core
import Foundation
import HTTPMessages
import Model
import Store
import XCTest

@testable import Resolver

/// A small universe for resolver tests: one app with both platforms on a
/// verified domain, a few links, a publishable key, and a resolver over an
/// `InMemoryStore`, with a clock the test moves by hand.
final class World: @unchecked Sendable {
    static let t0: Int64 = 1_790_000_000_000

    let store: InMemoryStore
    let keyring: ReceiptKeyring
    let hasher = SourceAddressHasher(key: SourceAddressHasher.generateKey())
    let resolver: Resolver
    var now: Int64 = World.t0
    let publicURL = "https://edge.example.test"
    let httpsHosts = Locked<Set<String>>(["go.example.test", "unverified.example.test", "other.example.test"])

    let appId = "biq_mapp_" + ULID.make(milliseconds: 1_700_000_000_000)
    let otherAppId = "biq_mapp_" + ULID.make(milliseconds: 1_700_000_000_001)
    let key = World.makeKey()
    let otherAppKey = World.makeKey()
    let host = "go.example.test"
    let inviteId = "biq_lnk_" + ULID.make(milliseconds: 1_700_000_000_010)
    let promoId = "biq_lnk_" + ULID.make(milliseconds: 1_700_000_000_011)
    let disabledId = "biq_lnk_" + ULID.make(milliseconds: 1_700_000_000_012)
    let webId = "biq_lnk_" + ULID.make(milliseconds: 1_700_000_000_013)
    let foreignId = "biq_lnk_" + ULID.make(milliseconds: 1_700_000_000_014)
    let unverifiedId = "biq_lnk_" + ULID.make(milliseconds: 1_700_000_000_015)
    let notAttachedId = "biq_lnk_" + ULID.make(milliseconds: 1_700_000_000_016)

    init(limits: RateLimits = .unlimited, keyring configuration: ReceiptKeyring.Configuration = .init()) {
        store = InMemoryStore(readerCount: 64, clock: { World.t0 })
        let app = MobileApp(
            id: appId, name: "Demo",
            ios: IOSPlatform(
                teamId: "ABCDE12345", bundleId: "com.example.demo", appStoreId: "123456789",
                probabilisticFallback: true, probabilisticWindowMinutes: 60),
            android: AndroidPlatform(packageName: "com.example.demo"),
            domains: ["go.example.test", "unverified.example.test"])
        let other = MobileApp(
            id: otherAppId, name: "Other", ios: IOSPlatform(teamId: "ZZZZZ12345", bundleId: "com.example.other"),
            android: AndroidPlatform(packageName: "com.example.other"), domains: ["go.example.test"])
        let (appId, otherAppId, key, otherKey) = (appId, otherAppId, key, otherAppKey)
        let links = [
            Link(
                id: inviteId, domain: "go.example.test", key: "invite", url: "https://example.test/invite",
                mobile: MobilePayload(
                    appId: appId, route: "/invite/accepted", referralCode: "PARTNER_42",
                    metadata: ["campaign": "spring_launch"], dynamicKeys: ["ref", "campaign"])),
            Link(
                id: promoId, domain: "go.example.test", key: "promo", url: "https://example.test/promo",
                mobile: MobilePayload(appId: appId, route: "/promo", dynamicKeys: ["ref", "utm"])),
            Link(
                id: disabledId, domain: "go.example.test", key: "off", url: "https://example.test/off", enabled: false,
                mobile: MobilePayload(appId: appId, route: "/off")),
            Link(id: webId, domain: "go.example.test", key: "web", url: "https://example.test/web"),
            Link(
                id: foreignId, domain: "go.example.test", key: "theirs", url: "https://example.test/theirs",
                mobile: MobilePayload(appId: otherAppId, route: "/theirs")),
            Link(
                id: unverifiedId, domain: "unverified.example.test", key: "invite", url: "https://example.test/u",
                mobile: MobilePayload(appId: appId, route: "/u")),
            Link(
                id: notAttachedId, domain: "other.example.test", key: "invite", url: "https://example.test/o",
                mobile: MobilePayload(appId: appId, route: "/o")),
        ]
        store.seed { st in
            st.domains["go.example.test"] = Domain(hostname: "go.example.test", verified: true)
            st.domains["unverified.example.test"] = Domain(hostname: "unverified.example.test", verified: false)
            st.domains["other.example.test"] = Domain(hostname: "other.example.test", verified: true)
            st.apps[appId] = app
            st.apps[otherAppId] = other
            for l in links { st.links[l.id] = l }
            st.publishableKeys["pk1"] = PublishableKeyRecord(
                id: "pk1", appId: appId, keyHash: SHA256.hash(key), hint: String(key.suffix(4)), createdAt: 0)
            st.publishableKeys["pk2"] = PublishableKeyRecord(
                id: "pk2", appId: otherAppId, keyHash: SHA256.hash(otherKey), hint: String(otherKey.suffix(4)),
                createdAt: 0)
        }
        keyring = try! ReceiptKeyring(store: store, configuration: configuration, now: World.t0)
        let hosts = httpsHosts
        resolver = Resolver(
            store: store, keyring: keyring, sourceAddressHasher: hasher,
            configuration: Resolver.Configuration(publicURL: publicURL, limits: limits),
            httpsActive: { hosts.value.contains($0) })
    }

    static func makeKey() -> String {
        "biqli_mobile_pk_" + Base64URL.encode((0..<48).map { _ in UInt8.random(in: 0...255) })
    }

    static func makeToken() -> String { "bqmh_" + Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255) }) }

    // MARK: requests

    func ios(instance: String? = nil) -> SDKRequest { SDKRequest.ios(app: appId, key: key, instance: instance) }
    func android(instance: String? = nil) -> SDKRequest {
        SDKRequest.android(app: appId, key: key, instance: instance)
    }

    func resolve(_ request: SDKRequest, loop: Int = 0) -> Answer {
        resolve(request.input(now: now, loop: loop))
    }

    func resolve(_ input: ResolveInput) -> Answer {
        let done = DispatchSemaphore(value: 0)
        let box = Locked<HTTPResponse?>(nil)
        resolver.resolve(input) { output in
            box.value = output
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "resolve never completed")
        return Answer(box.value!)
    }

    // MARK: data

    /// A handoff for `link` created by a visit `age` ms ago, valid for a day.
    @discardableResult
    func addHandoff(
        platform: Platform, linkId: String? = nil, app: String? = nil, lifetime: Int64 = 86_400_000,
        snapshotRoute: String = "/invite/snapshot", dynamic: [(String, String)] = [("ref", "BOB")]
    ) -> (token: String, clickId: String) {
        let token = World.makeToken()
        let clickId = "biq_clk_" + ULID.make()
        let handoff = Handoff(
            tokenHash: HandoffToken.hash(token), clickId: clickId, appId: app ?? appId, platform: platform,
            snapshot: HandoffSnapshot(
                linkId: linkId ?? inviteId, shortUrl: "https://go.example.test/invite", route: snapshotRoute,
                referralCode: "PARTNER_42", metadata: ["campaign": "snapshot"], dynamic: dynamic),
            createdAt: now, expiresAt: now + lifetime)
        store.seed { $0.handoffs[handoff.tokenHash] = handoff }
        return (token, clickId)
    }

    /// An iOS click on `domain` from `address`, `ago` ms before now.
    @discardableResult
    func addIOSClick(
        address: String = "203.0.113.7", osVersion: String? = "17.4", ago: Int64 = 60_000, linkId: String? = nil,
        domain: String = "go.example.test", dynamic: [(String, String)] = [("ref", "ALICE")]
    ) -> String {
        let click = Click(
            id: "biq_clk_" + ULID.make(), linkId: linkId ?? inviteId, appId: appId, domain: domain, at: now - ago,
            kind: .deepView, platform: .ios, dynamic: dynamic, sourceHash: hasher.hash(address), osVersion: osVersion)
        store.seed { $0.clicks[click.id] = click }
        return click.id
    }

    func updateApp(_ change: (inout MobileApp) -> Void) {
        let id = appId
        store.seed { st in change(&st.apps[id]!) }
    }

    var openEvents: [OpenEvent] { Array(store.committed.openEvents.values) }
}

/// A value shared between threads in tests.
final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: T
    init(_ v: T) { _value = v }
    var value: T {
        get { lock.withLock { _value } }
        set { lock.withLock { _value = newValue } }
    }
}
