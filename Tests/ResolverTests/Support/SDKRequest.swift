import Core
import Foundation
import HTTPMessages
import Resolver

/// A request shaped exactly like one of the official SDKs' (resolver-contract.md,
/// "What arrives"):
///
/// - iOS: absent optional fields omitted, upper-case hex IDs, `occurredAt`
///   without fractional seconds, no `Accept` header;
/// - Android: explicit `null`s, lower-case hex IDs, milliseconds, `osVersion`
///   possibly `""`, `Accept: application/json`;
/// - both escape `/` as `\/` and send `Idempotency-Key` = eventId.
struct SDKRequest {
    enum Form { case ios, android }

    var form: Form
    var publishableKey: String
    var eventId: String
    var idempotencyKey: String
    var requestId: String?
    var appId: String
    var appInstanceId: String
    var platform: String
    var firstOpen = true
    var probabilisticAllowed = false
    var handoffToken: String?
    var deepLink: String?
    var domain: String?
    var appVersion: String? = "2.4.0"
    var osVersion: String?
    var sdkVersion = "1.0.0"
    var occurredAt: String?
    /// Raw JSON members added to the body (unknown fields, wrong types...).
    var extraMembers: [(String, String)] = []
    /// Body members left out entirely (missing required fields).
    var omitted: Set<String> = []
    /// Member order; nil is the SDK's usual order. Shuffling it must not matter.
    var order: [String]?
    var method = "POST"
    var sourceAddress = "203.0.113.7"
    /// Header overrides: a nil value removes the header.
    var headerOverrides: [(String, String?)] = []

    static func hex(_ count: Int, upper: Bool) -> String {
        var rng = SystemRandomNumberGenerator()
        let digits = Array(upper ? "0123456789ABCDEF" : "0123456789abcdef")
        return String((0..<count).map { _ in digits[Int(rng.next() % 16)] })
    }

    static func ios(app: String, key: String, instance: String? = nil) -> SDKRequest {
        let event = "open_" + hex(32, upper: true)
        return SDKRequest(
            form: .ios, publishableKey: key, eventId: event, idempotencyKey: event,
            requestId: "req_" + hex(32, upper: true), appId: app,
            appInstanceId: instance ?? "install_" + hex(32, upper: true), platform: "ios", osVersion: "17.4",
            occurredAt: "2026-09-27T12:30:00Z")
    }

    static func android(app: String, key: String, instance: String? = nil) -> SDKRequest {
        let event = "open_" + hex(32, upper: false)
        return SDKRequest(
            form: .android, publishableKey: key, eventId: event, idempotencyKey: event,
            requestId: "req_" + hex(32, upper: false), appId: app,
            appInstanceId: instance ?? "install_" + hex(32, upper: false), platform: "android", osVersion: "",
            occurredAt: "2026-09-27T12:30:00.123Z")
    }

    static let defaultOrder = [
        "eventId", "appId", "appInstanceId", "platform", "firstOpen", "probabilisticAllowed", "handoffToken",
        "deepLink", "domain", "appVersion", "osVersion", "sdkVersion", "occurredAt",
    ]

    func member(_ name: String) -> String? {
        func str(_ s: String?) -> String? {
            guard let s else { return form == .android ? "null" : nil }
            return SDKRequest.quote(s)
        }
        switch name {
        case "eventId": return SDKRequest.quote(eventId)
        case "appId": return SDKRequest.quote(appId)
        case "appInstanceId": return SDKRequest.quote(appInstanceId)
        case "platform": return SDKRequest.quote(platform)
        case "firstOpen": return firstOpen ? "true" : "false"
        case "probabilisticAllowed": return probabilisticAllowed ? "true" : "false"
        case "handoffToken": return str(handoffToken)
        case "deepLink": return str(deepLink)
        case "domain": return str(domain)
        case "appVersion": return str(appVersion)
        case "osVersion": return str(osVersion)
        case "sdkVersion": return SDKRequest.quote(sdkVersion)
        case "occurredAt": return str(occurredAt)
        default: return nil
        }
    }

    var body: [UInt8] {
        var parts: [String] = []
        for name in order ?? SDKRequest.defaultOrder where !omitted.contains(name) {
            if let v = member(name) { parts.append(SDKRequest.quote(name) + ":" + v) }
        }
        for (k, v) in extraMembers { parts.append(SDKRequest.quote(k) + ":" + v) }
        return Array(("{" + parts.joined(separator: ",") + "}").utf8)
    }

    var headers: [(String, String)] {
        var h: [(String, String)] = [
            ("authorization", "Bearer " + publishableKey),
            ("content-type", "application/json"),
            ("idempotency-key", idempotencyKey),
            ("x-biq-sdk", platform),
            ("x-biq-sdk-version", sdkVersion),
        ]
        if let requestId { h.append(("x-biq-request-id", requestId)) }
        if form == .android { h.append(("accept", "application/json")) }
        for (name, value) in headerOverrides {
            h.removeAll { $0.0 == name }
            if let value { h.append((name, value)) }
        }
        return h
    }

    func input(now: Int64, loop: Int = 0, body: [UInt8]? = nil) -> ResolveInput {
        ResolveInput(
            request: HTTPRequest(
                method: HTTPMethod(method), target: "/api/v1/track/open", headers: HTTPHeaders(headers),
                body: body ?? self.body),
            sourceAddress: sourceAddress, now: now, readerLoop: loop)
    }

    /// JSON string as the SDKs write it: `/` escaped as `\/`.
    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    out += String(format: "\\u%04x", u.value)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
