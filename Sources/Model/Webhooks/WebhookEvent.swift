import Core

/// One event to put in the outbox, inside the write body of what it reports: one row
/// per subscribed endpoint (decision 0028). `body` is the whole Standard Webhooks
/// payload, `{"type", "timestamp", "data"}`, sent byte for byte on every attempt.
public struct WebhookEvent: Sendable, Equatable {
    public static let idPrefix = "msg_"

    /// `msg_` + ULID (the process's sequence: ids sort in the order events were made): the
    /// `webhook-id` of every delivery of this event.
    public var id: String
    public var type: WebhookEventType
    /// What the endpoints' filters look at.
    public var appId: String?
    public var linkId: String?
    public var at: Int64
    public var body: [UInt8]

    public init(id: String, type: WebhookEventType, appId: String?, linkId: String?, at: Int64, body: [UInt8]) {
        self.id = id
        self.type = type
        self.appId = appId
        self.linkId = linkId
        self.at = at
        self.body = body
    }

    /// An event whose `data` is `data` (a JSON object's bytes, written as given).
    public init(type: WebhookEventType, appId: String?, linkId: String?, at: Int64, data: [UInt8]) {
        self.init(
            id: Self.idPrefix + ULID.make(), type: type, appId: appId, linkId: linkId,
            at: at, body: Self.body(type: type, at: at, data: data))
    }

    /// The Standard Webhooks payload: `{"type", "timestamp", "data"}`, `data` as given.
    static func body(type: WebhookEventType, at: Int64, data: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(data.count + 80)
        body += Array(#"{"type":""#.utf8)
        body += Array(type.rawValue.utf8)
        body += Array(#"","timestamp":""#.utf8)
        body += Array(Timestamp.format(milliseconds: at).utf8)
        body += Array(#"","data":"#.utf8)
        body += data
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// An event whose `data` is `data`.
    public init(type: WebhookEventType, appId: String?, linkId: String?, at: Int64, data: JSONValue) {
        self.init(type: type, appId: appId, linkId: linkId, at: at, data: JSONWriter().bytes(data))
    }
}

extension WebhookEvent {
    /// `open.created`'s data: what the app was told (`answer`, the resolver's stored
    /// `{"open", "click", "link", "attribution"}` bytes), after the app, instance,
    /// platform and eventId it sent. Nothing the app was not told (decision 0028).
    public static func openCreated(_ event: OpenEvent) -> WebhookEvent {
        var data: [UInt8] = []
        data.reserveCapacity(event.storedResponse.count + 200)
        data += Array(#"{"appId":"#.utf8)
        JSONWriter.writeString(event.appId, into: &data)
        data += Array(#","appInstanceId":"#.utf8)
        JSONWriter.writeString(event.appInstanceId, into: &data)
        data += Array(#","platform":"#.utf8)
        JSONWriter.writeString(event.platform.rawValue, into: &data)
        data += Array(#","eventId":"#.utf8)
        JSONWriter.writeString(event.eventId, into: &data)
        let answer = event.storedResponse
        if answer.count > 2, answer.first == UInt8(ascii: "{"), answer.last == UInt8(ascii: "}") {
            data.append(UInt8(ascii: ","))
            data += answer.dropFirst()
        } else {
            data.append(UInt8(ascii: "}"))
        }
        return WebhookEvent(type: .openCreated, appId: event.appId, linkId: event.linkId, at: event.at, data: data)
    }
}

extension WebhookEvent {
    /// `lead.created` or `sale.created`: the track call's stored answer (`event.response`),
    /// at the event's time, under `messageId(conversion:)`. Erasure makes it again from the
    /// erased answer and writes it over every endpoint's copy (decision 0028, "Erasure").
    public static func conversionCreated(_ event: ConversionEvent, appId: String?) -> WebhookEvent {
        let type: WebhookEventType = event.type == .lead ? .leadCreated : .saleCreated
        return WebhookEvent(
            id: messageId(conversion: event), type: type, appId: appId, linkId: event.linkId, at: event.createdAt,
            body: body(type: type, at: event.createdAt, data: event.response))
    }

    /// The smallest `webhook-id` of an event made at `milliseconds` or later (ids are
    /// `msg_` + a ULID, whose first characters are its time): a range's bound.
    public static func idBound(milliseconds: Int64) -> String {
        idPrefix + ULID.make(milliseconds: UInt64(max(0, milliseconds)), random: (0, 0))
    }

    /// The `webhook-id` of a lead's or sale's event: `msg_` + the ULID of the event's own
    /// id (`biq_lev_`/`biq_sev_` + ULID), so that the event's id names its deliveries
    /// without a column or a search of the payloads.
    public static func messageId(conversion event: ConversionEvent) -> String {
        idPrefix + event.id.dropFirst(event.type.idPrefix.count)
    }
}
