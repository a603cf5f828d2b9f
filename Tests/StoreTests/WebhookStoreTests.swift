import Core
import Model
import XCTest

@testable import Store

/// What both backends must do for the webhooks' outbox (decision 0028), written once.
enum WebhookStoreCases {
    static func endpoint(
        _ id: String, _ types: [WebhookEventType], apps: [String]? = nil, links: [String]? = nil, enabled: Bool = true
    ) -> WebhookEndpoint {
        WebhookEndpoint(
            id: id, url: "https://hooks.example.com/" + id, eventTypes: types, appIds: apps, linkIds: links,
            enabled: enabled, secret: WebhookSecret.make(), createdAt: 1, updatedAt: 1)
    }

    static func event(_ type: WebhookEventType, app: String?, link: String?, at: Int64) -> WebhookEvent {
        WebhookEvent(type: type, appId: app, linkId: link, at: at, data: ["n": .int(at)])
    }

    typealias Write = (@escaping @Sendable (any StoreTransaction) throws -> Void) throws -> Void

    /// The cases every backend runs (`runContract`); retention's needs the backend's own pruning.
    static let suite: [ContractCase] = [
        (
            "an event goes to the endpoints that subscribe to it and whose filters match",
            { b in try enqueueFollowsSubscriptionsAndFilters(write: { try b.write($0) }, read: { b.committed }) }
        ),
        (
            "claims lease deliveries, and only the lease's claim writes their outcome",
            { b in try claimsLeasesAndOutcomes(write: { try b.write($0) }, read: { b.committed }) }
        ),
        (
            "a replaced body reaches every delivery",
            { b in try replacedBodyReachesEveryDelivery(write: { try b.write($0) }, read: { b.committed }) }
        ),
        (
            "failing for five days disables the endpoint",
            { b in try failingForFiveDaysDisables(write: { try b.write($0) }, read: { b.committed }) }
        ),
        (
            "an event nobody wants is not built",
            { b in try anEventNobodyWantsIsNotBuilt(write: { try b.write($0) }, read: { b.committed }) }
        ),
        (
            "test events' times and the key registry",
            { b in try testEventTimesAndKeyRegistry(write: { try b.write($0) }, read: { b.committed }) }
        ),
    ]

    /// Rows go to the enabled endpoints that subscribe to the type and whose filters match.
    static func enqueueFollowsSubscriptionsAndFilters(write: Write, read: () -> any StoreReader) throws {
        try write { tx in
            try tx.putWebhookEndpoint(endpoint("biq_whk_a", [.openCreated, .leadCreated]))
            try tx.putWebhookEndpoint(endpoint("biq_whk_b", [.openCreated], apps: ["app_x"]))
            try tx.putWebhookEndpoint(endpoint("biq_whk_c", [.linkCreated], links: ["lnk_1", "lnk_2"]))
            try tx.putWebhookEndpoint(endpoint("biq_whk_d", WebhookEventType.subscribable, enabled: false))
        }
        let openY = event(.openCreated, app: "app_y", link: nil, at: 10)
        let openX = event(.openCreated, app: "app_x", link: "lnk_1", at: 11)
        let linkOne = event(.linkCreated, app: nil, link: "lnk_2", at: 12)
        let linkOther = event(.linkCreated, app: nil, link: "lnk_3", at: 13)
        let sale = event(.saleCreated, app: nil, link: nil, at: 14)
        try write { tx in
            XCTAssertEqual(try tx.enqueueWebhookEvent(openY), 1)
            XCTAssertEqual(try tx.enqueueWebhookEvent(openX), 2)
            XCTAssertEqual(try tx.enqueueWebhookEvent(linkOne), 1)
            XCTAssertEqual(try tx.enqueueWebhookEvent(linkOther), 0)
            XCTAssertEqual(try tx.enqueueWebhookEvent(sale), 0)
            try tx.enqueueWebhookEvent(event(.test, app: nil, link: nil, at: 15), endpointId: "biq_whk_d")
        }
        let r = read()
        XCTAssertEqual(
            try r.webhookDeliveries(endpointId: "biq_whk_a", before: nil, limit: 10).map(\.messageId),
            [
                openX.id, openY.id,
            ])
        XCTAssertEqual(
            try r.webhookDeliveries(endpointId: "biq_whk_b", before: nil, limit: 10).map(\.messageId), [openX.id])
        XCTAssertEqual(
            try r.webhookDeliveries(endpointId: "biq_whk_c", before: nil, limit: 10).map(\.messageId), [linkOne.id])
        XCTAssertEqual(try r.webhookDeliveries(endpointId: "biq_whk_d", before: nil, limit: 10).map(\.type), [.test])
        let first = try XCTUnwrap(r.webhookDelivery(endpointId: "biq_whk_a", messageId: openY.id))
        XCTAssertEqual(first.body, openY.body)
        XCTAssertEqual(first.state, .pending)
        XCTAssertEqual(first.nextAttemptAt, 10)
        XCTAssertEqual(
            try r.webhookDeliveries(endpointId: "biq_whk_a", before: openX.id, limit: 10).map(\.messageId),
            [
                openY.id
            ])
        let depth = try r.webhookOutboxDepth()
        XCTAssertEqual(depth.pending, 5)
        XCTAssertEqual(depth.oldestCreatedAt, 10)
        XCTAssertEqual(try r.webhookEndpoint(id: "biq_whk_b")?.appIds, ["app_x"])
        XCTAssertEqual(try r.webhookEndpoints().map(\.id), ["biq_whk_a", "biq_whk_b", "biq_whk_c", "biq_whk_d"])
        // A disabled endpoint's rows wait: they are not claimed.
        let box = Box()
        try write { tx in
            box.claimed = try tx.claimWebhookDeliveries(
                owner: "n", now: 100, leaseUntil: 200, limit: 10, perEndpoint: 10, excluding: [])
        }
        XCTAssertEqual(box.claimed.count, 4)
        XCTAssertFalse(box.claimed.contains { $0.endpointId == "biq_whk_d" })
    }

    /// Claims lease due rows once, at most `perEndpoint` of an endpoint per owner; an
    /// outcome is written only under the lease that made the attempt.
    static func claimsLeasesAndOutcomes(write: Write, read: () -> any StoreReader) throws {
        try write { tx in
            try tx.putWebhookEndpoint(endpoint("biq_whk_a", [.openCreated]))
            try tx.putWebhookEndpoint(endpoint("biq_whk_b", [.linkCreated]))
            for i in 0..<6 { try tx.enqueueWebhookEvent(event(.openCreated, app: nil, link: nil, at: 100 + Int64(i))) }
            try tx.enqueueWebhookEvent(event(.linkCreated, app: nil, link: "l", at: 200))
            try tx.enqueueWebhookEvent(event(.linkCreated, app: nil, link: "l", at: 5_000))
        }
        let box = Box()
        try write { tx in
            box.claimed = try tx.claimWebhookDeliveries(
                owner: "n1:1", now: 1_000, leaseUntil: 61_000, limit: 10, perEndpoint: 4, excluding: [])
        }
        // Four of a's six (oldest first), b's due one; b's later one is not due.
        XCTAssertEqual(box.claimed.filter { $0.endpointId == "biq_whk_a" }.map(\.createdAt), [100, 101, 102, 103])
        XCTAssertEqual(box.claimed.filter { $0.endpointId == "biq_whk_b" }.map(\.createdAt), [200])
        try write { tx in
            // Leased rows are not claimed again; an endpoint this node is busy with is left out.
            XCTAssertEqual(
                try tx.claimWebhookDeliveries(
                    owner: "n1:1", now: 1_000, leaseUntil: 61_000, limit: 10, perEndpoint: 4, excluding: ["biq_whk_a"]
                ).count, 0)
            // Another owner takes a's remaining two.
            XCTAssertEqual(
                try tx.claimWebhookDeliveries(
                    owner: "n2:1", now: 1_000, leaseUntil: 61_000, limit: 10, perEndpoint: 4, excluding: []
                )
                .map(\.createdAt), [104, 105])
        }
        let d = box.claimed[0]
        let failed = WebhookAttempt(
            endpointId: d.endpointId, messageId: d.messageId, number: 1, at: 1_000, durationMilliseconds: 12,
            status: 500, error: nil, answer: "oops", node: "n1")
        try write { tx in
            XCTAssertFalse(
                try tx.finishWebhookAttempt(
                    failed, owner: "n2:1", claimedAttempts: 0, outcome: .retry(at: 6_000), now: 1_000))
            XCTAssertTrue(
                try tx.finishWebhookAttempt(
                    failed, owner: "n1:1", claimedAttempts: 0, outcome: .retry(at: 6_000), now: 1_000))
            // The same claim again: its lease is gone.
            XCTAssertFalse(
                try tx.finishWebhookAttempt(failed, owner: "n1:1", claimedAttempts: 0, outcome: .delivered, now: 1_000))
        }
        var row = try XCTUnwrap(read().webhookDelivery(endpointId: d.endpointId, messageId: d.messageId))
        XCTAssertEqual(
            [row.state.rawValue, "\(row.attempts)", "\(row.nextAttemptAt ?? 0)", "\(row.lastStatus ?? 0)"],
            [
                "pending", "1", "6000", "500",
            ])
        XCTAssertEqual(try read().webhookEndpoint(id: "biq_whk_a")?.failingSince, 1_000)
        try write { tx in
            XCTAssertFalse(
                try tx.claimWebhookDeliveries(
                    owner: "n1:1", now: 5_999, leaseUntil: 65_999, limit: 10, perEndpoint: 4, excluding: []
                )
                .contains { $0.messageId == d.messageId })
            // The other leases run out at 61 s: a dead node's rows are claimed again.
            let again = try tx.claimWebhookDeliveries(
                owner: "n3:1", now: 61_000, leaseUntil: 121_000, limit: 10, perEndpoint: 10, excluding: [])
            XCTAssertTrue(again.contains { $0.messageId == d.messageId && $0.attempts == 1 })
            var ok = failed
            ok.number = 2
            ok.status = 204
            ok.at = 61_000
            XCTAssertTrue(
                try tx.finishWebhookAttempt(ok, owner: "n3:1", claimedAttempts: 1, outcome: .delivered, now: 61_000))
        }
        row = try XCTUnwrap(read().webhookDelivery(endpointId: d.endpointId, messageId: d.messageId))
        XCTAssertEqual(row.state, .delivered)
        XCTAssertEqual(row.deliveredAt, 61_000)
        XCTAssertNil(try read().webhookEndpoint(id: "biq_whk_a")?.failingSince)
        XCTAssertEqual(
            try read().webhookAttempts(endpointId: d.endpointId, messageId: d.messageId).map {
                [$0.number, $0.status ?? 0]
            },
            [[1, 500], [2, 204]])
        XCTAssertEqual(
            try read().webhookAttempts(endpointId: d.endpointId, messageId: d.messageId).first?.answer, "oops")

        // By hand: due again now, a new schedule, the attempts' count kept.
        try write { tx in
            XCTAssertTrue(try tx.redeliverWebhook(endpointId: d.endpointId, messageId: d.messageId, now: 70_000))
        }
        row = try XCTUnwrap(read().webhookDelivery(endpointId: d.endpointId, messageId: d.messageId))
        XCTAssertEqual(
            [row.state.rawValue, "\(row.attempts)", "\(row.scheduledAttempts)", "\(row.nextAttemptAt ?? 0)"],
            [
                "pending", "2", "0", "70000",
            ])
        try write { tx in
            try tx.releaseWebhookLeases(ownerPrefix: "n3:")
            XCTAssertFalse(
                try tx.claimWebhookDeliveries(
                    owner: "n4:1", now: 70_000, leaseUntil: 130_000, limit: 20, perEndpoint: 20, excluding: []
                )
                .isEmpty)
            XCTAssertTrue(try tx.deleteWebhookEndpoint(id: "biq_whk_a"))
            XCTAssertFalse(try tx.deleteWebhookEndpoint(id: "biq_whk_a"))
        }
        XCTAssertEqual(try read().webhookDeliveries(endpointId: "biq_whk_a", before: nil, limit: 10).count, 0)
        XCTAssertEqual(try read().webhookAttempts(endpointId: d.endpointId, messageId: d.messageId).count, 0)
    }

    /// A failure five days after the first of a run disables the endpoint and fails its
    /// pending deliveries; the API shows why.
    static func failingForFiveDaysDisables(write: Write, read: () -> any StoreReader) throws {
        let day: Int64 = 86_400_000
        try write { tx in
            try tx.putWebhookEndpoint(endpoint("biq_whk_a", [.openCreated]))
            try tx.enqueueWebhookEvent(event(.openCreated, app: nil, link: nil, at: 1))
            try tx.enqueueWebhookEvent(event(.openCreated, app: nil, link: nil, at: 2))
        }
        func attempt(at now: Int64) throws {
            let box = Box()
            try write { tx in
                box.claimed = try tx.claimWebhookDeliveries(
                    owner: "n", now: now, leaseUntil: now + 60_000, limit: 1, perEndpoint: 4, excluding: [])
            }
            let d = try XCTUnwrap(box.claimed.first)
            try write { tx in
                XCTAssertTrue(
                    try tx.finishWebhookAttempt(
                        WebhookAttempt(
                            endpointId: d.endpointId, messageId: d.messageId, number: d.attempts + 1, at: now,
                            durationMilliseconds: 1, status: nil, error: "timed out", answer: nil, node: "n"),
                        owner: "n", claimedAttempts: d.attempts, outcome: .retry(at: now), now: now))
            }
        }
        try attempt(at: 10)
        try attempt(at: 10 + 4 * day)
        XCTAssertEqual(try read().webhookEndpoint(id: "biq_whk_a")?.enabled, true)
        try attempt(at: 10 + 5 * day)
        let e = try XCTUnwrap(read().webhookEndpoint(id: "biq_whk_a"))
        XCTAssertFalse(e.enabled)
        XCTAssertEqual(e.disabledReason, WebhookAttemptOutcome.disabledReason)
        XCTAssertEqual(e.disabledAt, 10 + 5 * day)
        XCTAssertEqual(
            Set(try read().webhookDeliveries(endpointId: "biq_whk_a", before: nil, limit: 10).map(\.state)), [.failed])
        try write { tx in
            XCTAssertEqual(try tx.enqueueWebhookEvent(event(.openCreated, app: nil, link: nil, at: 20)), 0)
        }
    }

    /// Retention: the rows of events made before the cutoff go, attempts included, whatever
    /// their state; later ones stay.
    static func retentionPrunesOldRows(
        write: Write, read: () -> any StoreReader, prune: @escaping @Sendable (any StoreTransaction) throws -> Int
    ) throws {
        let day: Int64 = 86_400_000
        func id(_ at: Int64) -> String { WebhookEvent.idPrefix + ULID.make(milliseconds: UInt64(at), random: (1, 1)) }
        let old = id(10 * day)
        let new = id(40 * day)
        try write { tx in
            try tx.putWebhookEndpoint(endpoint("biq_whk_a", [.openCreated]))
            for (message, at) in [(old, 10 * day), (new, 40 * day)] {
                try tx.enqueueWebhookEvent(
                    WebhookEvent(id: message, type: .openCreated, appId: nil, linkId: nil, at: at, body: [1]))
            }
            let claimed = try tx.claimWebhookDeliveries(
                owner: "n", now: 50 * day, leaseUntil: 51 * day, limit: 10, perEndpoint: 10, excluding: [])
            for d in claimed {
                _ = try tx.finishWebhookAttempt(
                    WebhookAttempt(
                        endpointId: d.endpointId, messageId: d.messageId, number: 1, at: 50 * day,
                        durationMilliseconds: 1, status: 200, error: nil, answer: nil, node: "n"),
                    owner: "n", claimedAttempts: 0, outcome: .delivered, now: 50 * day)
            }
        }
        let box = Box()
        try write { tx in box.pruned = try prune(tx) }
        XCTAssertEqual(box.pruned, 2, "the old delivery and its attempt")
        XCTAssertNil(try read().webhookDelivery(endpointId: "biq_whk_a", messageId: old))
        XCTAssertEqual(try read().webhookAttempts(endpointId: "biq_whk_a", messageId: old).count, 0)
        XCTAssertNotNil(try read().webhookDelivery(endpointId: "biq_whk_a", messageId: new))
        XCTAssertEqual(try read().webhookAttempts(endpointId: "biq_whk_a", messageId: new).count, 1)
    }

    /// An event no enabled endpoint wants is neither built nor written; the endpoints are
    /// read once per batch, and a batch that writes one lets every event through to the
    /// statement (`WebhookAudience`).
    static func anEventNobodyWantsIsNotBuilt(write: Write, read: () -> any StoreReader) throws {
        let built = Box()
        @Sendable func enqueue(_ tx: any StoreTransaction, _ type: WebhookEventType, app: String?) throws -> Int {
            try tx.enqueueWebhookEvent(type, appId: app, linkId: nil) {
                built.count += 1
                return event(type, app: app, link: nil, at: 20)
            }
        }
        try write { tx in XCTAssertEqual(try enqueue(tx, .openCreated, app: "app_x"), 0) }
        XCTAssertEqual(built.count, 0, "no endpoint: nothing built")
        try write { tx in
            try tx.putWebhookEndpoint(endpoint("biq_whk_a", [.openCreated], apps: ["app_x"]))
            // This batch changed the endpoints: the statement decides, as before.
            XCTAssertEqual(try enqueue(tx, .leadCreated, app: "app_x"), 0)
            XCTAssertEqual(try enqueue(tx, .openCreated, app: "app_x"), 1)
        }
        XCTAssertEqual(built.count, 2)
        try write { tx in
            // A new batch reads the endpoints again: what a wants is built, the rest is not.
            XCTAssertEqual(try enqueue(tx, .leadCreated, app: "app_x"), 0)
            XCTAssertEqual(try enqueue(tx, .openCreated, app: "app_y"), 0)
            XCTAssertEqual(try enqueue(tx, .openCreated, app: "app_x"), 1)
            XCTAssertFalse(try tx.webhookEventWanted(.openCreated, appId: nil, linkId: nil))
        }
        XCTAssertEqual(built.count, 3)
        try write { tx in try tx.putWebhookEndpoint(endpoint("biq_whk_a", [.openCreated], enabled: false)) }
        try write { tx in
            XCTAssertEqual(try enqueue(tx, .openCreated, app: "app_x"), 0)
            // The prebuilt event's path checks too: no statement, no row.
            XCTAssertEqual(try tx.enqueueWebhookEvent(event(.openCreated, app: "app_x", link: nil, at: 21)), 0)
        }
        XCTAssertEqual(built.count, 3, "a disabled endpoint wants nothing")
        XCTAssertEqual(try read().webhookDeliveries(endpointId: "biq_whk_a", before: nil, limit: 10).count, 2)
    }

    /// A new payload reaches every endpoint's delivery of the event, delivered or pending,
    /// and no other event's.
    static func replacedBodyReachesEveryDelivery(write: Write, read: () -> any StoreReader) throws {
        let lead = event(.leadCreated, app: nil, link: nil, at: 10)
        let other = event(.leadCreated, app: nil, link: nil, at: 11)
        try write { tx in
            try tx.putWebhookEndpoint(endpoint("biq_whk_a", [.leadCreated]))
            try tx.putWebhookEndpoint(endpoint("biq_whk_b", [.leadCreated, .saleCreated]))
            try tx.putWebhookEndpoint(endpoint("biq_whk_c", [.openCreated]))
            XCTAssertEqual(try tx.enqueueWebhookEvent(lead), 2)
            XCTAssertEqual(try tx.enqueueWebhookEvent(other), 2)
            // Endpoint a's copy is delivered first.
            let claimed = try tx.claimWebhookDeliveries(
                owner: "n", now: 100, leaseUntil: 200, limit: 10, perEndpoint: 10, excluding: ["biq_whk_b"])
            for d in claimed where d.messageId == lead.id {
                XCTAssertTrue(
                    try tx.finishWebhookAttempt(
                        WebhookAttempt(
                            endpointId: d.endpointId, messageId: d.messageId, number: 1, at: 100,
                            durationMilliseconds: 1, status: 200, error: nil, answer: "ok", node: "n"),
                        owner: "n", claimedAttempts: 0, outcome: .delivered, now: 100))
            }
        }
        XCTAssertEqual(try read().webhookDelivery(endpointId: "biq_whk_a", messageId: lead.id)?.state, .delivered)
        let box = Box()
        try write { tx in
            box.replaced = try tx.replaceWebhookBody(messageId: lead.id, body: Array(#"{"new":1}"#.utf8))
            XCTAssertEqual(try tx.replaceWebhookBody(messageId: "msg_none", body: [1]), 0)
        }
        XCTAssertEqual(box.replaced, 2, "both endpoints' deliveries")
        for endpoint in ["biq_whk_a", "biq_whk_b"] {
            let d = try XCTUnwrap(read().webhookDelivery(endpointId: endpoint, messageId: lead.id))
            XCTAssertEqual(d.body, Array(#"{"new":1}"#.utf8))
            XCTAssertEqual(try read().webhookDelivery(endpointId: endpoint, messageId: other.id)?.body, other.body)
        }
        let a = try XCTUnwrap(read().webhookDelivery(endpointId: "biq_whk_a", messageId: lead.id))
        XCTAssertEqual(a.state, .delivered, "its state and attempts stay")
        XCTAssertEqual(try read().webhookAttempts(endpointId: "biq_whk_a", messageId: lead.id).count, 1)
    }

    /// Issue 33: an endpoint's test events by time (only its own, only tests, only the
    /// window's), and the registry of the keys that seal secrets.
    static func testEventTimesAndKeyRegistry(write: Write, read: () -> any StoreReader) throws {
        let now = Int64(Clock.nowMilliseconds())
        try write { tx in
            try tx.putWebhookEndpoint(endpoint("biq_whk_a", [.openCreated]))
            try tx.putWebhookEndpoint(endpoint("biq_whk_b", [.openCreated]))
            for i in 0..<3 {
                try tx.enqueueWebhookEvent(
                    event(.test, app: nil, link: nil, at: now + Int64(i)), endpointId: "biq_whk_a")
            }
            try tx.enqueueWebhookEvent(event(.test, app: nil, link: nil, at: now + 5), endpointId: "biq_whk_b")
            XCTAssertEqual(try tx.enqueueWebhookEvent(event(.openCreated, app: nil, link: nil, at: now + 6)), 2)
            try tx.registerWebhookSecretKey(id: "wk_b", now: 20)
            try tx.registerWebhookSecretKey(id: "wk_a", now: 10)
            try tx.registerWebhookSecretKey(id: "wk_b", now: 30)
        }
        let r = read()
        XCTAssertEqual(
            try r.webhookTestEventTimes(endpointId: "biq_whk_a", since: now - 60_000).sorted(), [now, now + 1, now + 2])
        XCTAssertEqual(try r.webhookTestEventTimes(endpointId: "biq_whk_b", since: now - 60_000), [now + 5])
        XCTAssertEqual(try r.webhookTestEventTimes(endpointId: "biq_whk_a", since: now + 120_000), [])
        XCTAssertEqual(try r.webhookSecretKeyIds(), ["wk_a", "wk_b"])
    }

    final class Box: @unchecked Sendable {
        var pruned = 0
        var count = 0
        var replaced = 0
        var claimed: [WebhookDelivery] = []
    }
}

final class WebhookStoreTests: StoreTestCase {
    func testRetentionPrunesOldRows() throws {
        try WebhookStoreCases.retentionPrunesOldRows(
            write: { try write($0) }, read: { reader },
            prune: { tx in try (tx as! SQLiteTransaction).pruneWebhookRows(before: 20 * 86_400_000, limit: 100) })
        // And through the store's retention pass.
        XCTAssertEqual(try store.prune(olderThan: 45 * 86_400_000, now: 45 * 86_400_000) >= 2, true)
        XCTAssertEqual(try reader.webhookDeliveries(endpointId: "biq_whk_a", before: nil, limit: 10).count, 0)
    }

}

final class PGWebhookStoreTests: PGTestCase {
    func testRetentionPrunesOldRows() throws {
        try WebhookStoreCases.retentionPrunesOldRows(
            write: { body in try inTransaction { tx in try body(tx) } }, read: { reader },
            prune: { tx in try (tx as! PGTransaction).pruneWebhookRows(before: 20 * 86_400_000, limit: 100) })
    }

    /// Two nodes claiming at once take disjoint rows: the second skips what the first's
    /// open transaction holds (`FOR UPDATE SKIP LOCKED`) instead of waiting for it.
    func testTwoNodesClaimingAtOnceTakeDisjointRows() throws {
        try inTransaction { tx in
            try tx.putWebhookEndpoint(WebhookStoreCases.endpoint("biq_whk_a", [.openCreated]))
            for i in 0..<6 {
                try tx.enqueueWebhookEvent(
                    WebhookStoreCases.event(.openCreated, app: nil, link: nil, at: 100 + Int64(i)))
            }
        }
        let other = PGTransaction(db: try database.connect())
        try db.execute("BEGIN")
        let first = try tx.claimWebhookDeliveries(
            owner: "n1", now: 1_000, leaseUntil: 61_000, limit: 3, perEndpoint: 10, excluding: [])
        try other.db.execute("BEGIN")
        let second = try other.claimWebhookDeliveries(
            owner: "n2", now: 1_000, leaseUntil: 61_000, limit: 10, perEndpoint: 10, excluding: [])
        try db.execute("COMMIT")
        try other.db.execute("COMMIT")
        XCTAssertEqual(first.count, 3)
        XCTAssertEqual(second.count, 3)
        XCTAssertTrue(Set(first.map(\.messageId)).isDisjoint(with: second.map(\.messageId)))
    }
}
