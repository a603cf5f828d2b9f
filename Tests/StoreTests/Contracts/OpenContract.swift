import Core
import Model
import XCTest

@testable import Store

/// What every backend must do with open events and app instances (`OpenReading`,
/// `OpenWriting`): each eventId and Idempotency-Key unique per app, in either form the
/// key is kept (decision 0008), and the lookups the resolver's idempotency rule makes.
enum OpenContract {
    static let suite: [ContractCase] = [
        ("eventId and Idempotency-Key are unique per app", eventIdAndIdempotencyKeyAreUniquePerApp),
        ("events are found by eventId or by either form of the key", eventsAreFoundByEventIdOrByEitherFormOfTheKey),
        ("a key is unique per app in either form", aKeyIsUniquePerAppInEitherForm),
        ("an instance keeps its first open and its creation", anInstanceKeepsItsFirstOpenAndItsCreation),
    ]

    static let at = ContractTime.now - 60_000

    static func open(_ id: String, event: String, key: String, app: String = Fixture.appId) -> OpenEvent {
        Fixture.open(id: id, eventId: event, app: app, idempotencyKeyHash: SHA256.hash(key), at: at)
    }

    static func eventIdAndIdempotencyKeyAreUniquePerApp(_ b: any ContractBackend) throws {
        try b.write { tx in
            try tx.insertOpenEvent(
                Fixture.open(id: "biq_open_1", eventId: "evt_000001", idempotencyKeyHash: [1], at: at))
        }
        XCTAssertEqual(
            b.writeError { tx in try tx.insertOpenEvent(Fixture.open(id: "biq_open_2", eventId: "evt_000001", at: at))
            },
            .conflict(.eventId))
        XCTAssertEqual(
            b.writeError { tx in
                try tx.insertOpenEvent(
                    Fixture.open(id: "biq_open_3", eventId: "evt_000003", idempotencyKeyHash: [1], at: at))
            }, .conflict(.idempotencyKey))
        // A taken open id: a conflict on both, named `open_id` on SQLite only (PostgreSQL
        // answers `unique`: the partitioned table's key names no column the store maps).
        let takenId = b.writeError { tx in
            try tx.insertOpenEvent(Fixture.open(id: "biq_open_1", eventId: "evt_000004", at: at))
        }
        guard case .conflict = takenId else { return XCTFail("a taken open id: \(String(describing: takenId))") }
        // Other apps may reuse both; events without a key never collide on it.
        XCTAssertNil(
            b.writeError { tx in
                try tx.insertOpenEvent(
                    Fixture.open(
                        id: "biq_open_4", eventId: "evt_000001", app: "biq_mapp_other", idempotencyKeyHash: [1],
                        at: at))
                try tx.insertOpenEvent(Fixture.open(id: "biq_open_5", eventId: "evt_000005", at: at))
                try tx.insertOpenEvent(Fixture.open(id: "biq_open_6", eventId: "evt_000006", at: at))
            })
        XCTAssertNil(try b.committed.openEvent(id: "biq_open_2"))
        XCTAssertNil(try b.committed.openEvent(id: "biq_open_3"))
    }

    static func eventsAreFoundByEventIdOrByEitherFormOfTheKey(_ b: any ContractBackend) throws {
        XCTAssertNil(insert(b, open("biq_open_1", event: "open_a1", key: "open_a1"), key: "open_a1"))
        XCTAssertNil(insert(b, open("biq_open_2", event: "open_b2", key: "key_other_b2"), key: "key_other_b2"))
        XCTAssertEqual(try find(b, event: "open_a1", key: "unused_key"), "biq_open_1")
        XCTAssertEqual(try find(b, event: "open_new", key: "open_a1"), "biq_open_1")  // key held as an eventId
        XCTAssertEqual(try find(b, event: "open_new", key: "key_other_b2"), "biq_open_2")  // key held as a hash
        XCTAssertEqual(try find(b, event: "open_b2", key: "open_b2"), "biq_open_2")
        // open_b2's own id is not its key: not found as a key.
        XCTAssertNil(try find(b, event: "open_new", key: "open_b2"))
        XCTAssertNil(try find(b, event: "open_new", key: "open_a1", app: "biq_mapp_other"))
        // Inside a transaction too.
        let inTx = try b.write { tx in
            try tx.openEvent(
                app: Fixture.appId, eventId: "x_new_1", idempotencyKey: "open_a1", keyHash: SHA256.hash("open_a1")
            )
        }
        XCTAssertEqual(inTx?.id, "biq_open_1")
    }

    static func aKeyIsUniquePerAppInEitherForm(_ b: any ContractBackend) throws {
        XCTAssertNil(insert(b, open("biq_open_1", event: "open_a1", key: "open_a1"), key: "open_a1"))
        XCTAssertNil(insert(b, open("biq_open_2", event: "open_b2", key: "key_b2"), key: "key_b2"))
        // A new event whose key is an existing event's own id.
        XCTAssertEqual(
            insert(b, open("biq_open_3", event: "open_c3", key: "open_a1"), key: "open_a1"), .conflict(.idempotencyKey))
        // A new event named like an existing key, with itself as key.
        XCTAssertEqual(
            insert(b, open("biq_open_4", event: "key_b2", key: "key_b2"), key: "key_b2"), .conflict(.idempotencyKey))
        // The same hashed key twice, and the same eventId twice.
        XCTAssertEqual(
            insert(b, open("biq_open_5", event: "open_e5", key: "key_b2"), key: "key_b2"), .conflict(.idempotencyKey))
        XCTAssertEqual(
            insert(b, open("biq_open_6", event: "open_a1", key: "key_f6"), key: "key_f6"), .conflict(.eventId))
        XCTAssertEqual(
            insert(b, open("biq_open_7", event: "open_a1", key: "open_a1"), key: "open_a1"), .conflict(.eventId))
        for id in ["biq_open_3", "biq_open_4", "biq_open_5", "biq_open_6", "biq_open_7"] {
            XCTAssertNil(try b.committed.openEvent(id: id), id)
        }
        // Other apps have their own keys.
        XCTAssertNil(
            insert(b, open("biq_open_8", event: "open_c3", key: "open_a1", app: "biq_mapp_other"), key: "open_a1"))
        XCTAssertNil(
            insert(b, open("biq_open_9", event: "key_b2", key: "key_b2", app: "biq_mapp_other"), key: "key_b2"))
    }

    static func insert(_ b: any ContractBackend, _ event: OpenEvent, key: String) -> StoreError? {
        b.writeError { tx in try tx.insertOpenEvent(event, idempotencyKey: key) }
    }

    static func find(_ b: any ContractBackend, event: String, key: String, app: String = Fixture.appId) throws
        -> String?
    {
        try b.committed.openEvent(app: app, eventId: event, idempotencyKey: key, keyHash: SHA256.hash(key))?.id
    }

    /// `created_at` keeps its first value and the first open, once set, never changes (the
    /// first accepted install attribution is immutable); the two first reads and the two
    /// writes of the resolver, together, see and write the same as one by one.
    static func anInstanceKeepsItsFirstOpenAndItsCreation(_ b: any ContractBackend) throws {
        // The event's own instance (PostgreSQL's one-statement write takes its ids from the event).
        let instance = Fixture.open(id: "x", eventId: "x").appInstanceId
        let first = AppInstance(
            appId: Fixture.appId, instanceId: instance, platform: .ios, firstOpenId: nil, createdAt: at)
        try b.write { tx in try tx.upsertAppInstance(first) }
        XCTAssertEqual(try b.committed.appInstance(app: Fixture.appId, instance: instance), first)
        var bound = first
        bound.firstOpenId = "biq_open_1"
        bound.createdAt = at + 5
        bound.platform = .android
        try b.write { [bound] tx in
            try tx.insertOpenEvent(
                open("biq_open_1", event: "open_a1", key: "open_a1"), idempotencyKey: "open_a1", instance: bound)
        }
        var again = bound
        again.firstOpenId = "biq_open_2"
        try b.write { [again] tx in try tx.upsertAppInstance(again) }
        let stored = try XCTUnwrap(try b.committed.appInstance(app: Fixture.appId, instance: instance))
        XCTAssertEqual(stored.firstOpenId, "biq_open_1")
        XCTAssertEqual(stored.createdAt, at)
        XCTAssertEqual(stored.platform, .android)
        XCTAssertNil(try b.committed.appInstance(app: "biq_mapp_other", instance: instance))
        let state = try b.write { tx in
            try tx.resolutionState(
                app: Fixture.appId, instance: instance, eventId: "open_new", idempotencyKey: "open_a1",
                keyHash: SHA256.hash("open_a1"))
        }
        XCTAssertEqual(state.instance, stored)
        XCTAssertEqual(state.event?.id, "biq_open_1")
        let none = try b.write { tx in
            try tx.resolutionState(
                app: Fixture.appId, instance: "install_b", eventId: "open_new", idempotencyKey: "k_new",
                keyHash: SHA256.hash("k_new"))
        }
        XCTAssertNil(none.instance)
        XCTAssertNil(none.event)
    }
}
