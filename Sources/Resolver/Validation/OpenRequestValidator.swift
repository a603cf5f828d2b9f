import Core
import Model
import Store

/// Body checks: `invalid_request` for what is not a JSON object within the size
/// and depth limits, `validation_error` for what the `MobileOpenRequest` schema
/// refuses. Field problems are reported in a fixed order (unknown fields first,
/// then the schema's order) and name the field, never its value.
enum OpenRequestValidator {
    static let maxBodyBytes = 16_384
    static let maxDepth = 32

    /// The body as a validated request: `OpenRequestScanner` for the usual shape of
    /// an SDK body, the general parser (and its exact errors) for anything else.
    static func decode(_ body: [UInt8]) throws(ResolverError) -> OpenRequest {
        if body.count > maxBodyBytes { throw .invalidRequest("The request body exceeds 16 KB.") }
        if let fields = OpenRequestScanner.scan(body) { return try validate(fields) }
        return try validate(parse(body))
    }

    static func parse(_ body: [UInt8]) throws(ResolverError) -> [(String, JSONValue)] {
        if body.count > maxBodyBytes { throw .invalidRequest("The request body exceeds 16 KB.") }
        let options = JSONParser.Options(maxDepth: maxDepth, maxBytes: maxBodyBytes, rejectDuplicateKeys: true)
        let value: JSONValue
        do {
            value = try JSONParser.parse(body, options: options)
        } catch {
            switch error {
            case .tooLarge: throw .invalidRequest("The request body exceeds 16 KB.")
            case .tooDeep: throw .invalidRequest("The request body is nested deeper than 32 levels.")
            case .duplicateKey: throw .invalidRequest("The request body repeats a key.")
            case .syntax, .invalidUTF8: throw .invalidRequest("The request body is not valid JSON.")
            case .tooManyValues: throw .invalidRequest("The request body holds too many values.")
            }
        }
        guard case .object(let members) = value else {
            throw .invalidRequest("The request body must be a JSON object.")
        }
        return members
    }

    /// A member's value as validation sees it.
    enum FieldValue: Equatable {
        case string(String)
        case bool(Bool)
        case null
        /// A number, object or array.
        case other(JSONValue)

        init(_ v: JSONValue) {
            switch v {
            case .string(let s): self = .string(s)
            case .bool(let b): self = .bool(b)
            case .null: self = .null
            default: self = .other(v)
            }
        }
    }

    /// The members of the body by name; unknown names refused (in body order).
    struct Fields: Equatable {
        var eventId, appId, appInstanceId, platform, firstOpen, probabilisticAllowed: FieldValue?
        var handoffToken, deepLink, domain, appVersion, osVersion, sdkVersion, occurredAt, attestation: FieldValue?

        init() {}

        init(_ members: [(String, JSONValue)]) throws(ResolverError) {
            for (k, v) in members {
                let value = FieldValue(v)
                switch k {
                case "eventId": eventId = value
                case "appId": appId = value
                case "appInstanceId": appInstanceId = value
                case "platform": platform = value
                case "firstOpen": firstOpen = value
                case "probabilisticAllowed": probabilisticAllowed = value
                case "handoffToken": handoffToken = value
                case "deepLink": deepLink = value
                case "domain": domain = value
                case "appVersion": appVersion = value
                case "osVersion": osVersion = value
                case "sdkVersion": sdkVersion = value
                case "occurredAt": occurredAt = value
                case "attestation": attestation = value
                default: throw .validationError("Unknown field '\(OpenRequestValidator.printable(k))'.")
                }
            }
        }
    }

    static func validate(_ members: [(String, JSONValue)]) throws(ResolverError) -> OpenRequest {
        try validate(Fields(members))
    }

    static func validate(_ fields: Fields) throws(ResolverError) -> OpenRequest {
        let eventId = try requiredString(fields.eventId, "eventId")
        guard SafeText.isSafeIdentifier(eventId, min: 8, max: 100) else {
            throw .validationError("eventId must be 8-100 characters of letters, digits, '.', '_', '~' or '-'.")
        }
        let appId = try requiredString(fields.appId, "appId")
        guard SafeText.isWithin(appId, max: 40) else { throw .validationError("appId must be at most 40 characters.") }
        let instance = try requiredString(fields.appInstanceId, "appInstanceId")
        guard SafeText.isSafeIdentifier(instance, min: 16, max: 128) else {
            throw .validationError(
                "appInstanceId must be 16-128 characters of letters, digits, '.', '_', '~' or '-'.")
        }
        guard let platform = Platform(rawValue: try requiredString(fields.platform, "platform")) else {
            throw .validationError("platform must be 'ios' or 'android'.")
        }
        let firstOpen = try requiredBool(fields.firstOpen, "firstOpen")
        let probabilisticAllowed = try requiredBool(fields.probabilisticAllowed, "probabilisticAllowed")
        let handoffToken = try optionalString(fields.handoffToken, "handoffToken", max: 128)
        let deepLink = try optionalString(fields.deepLink, "deepLink", max: 2048)
        let domain = try optionalString(fields.domain, "domain", max: 255)
        let appVersion = try optionalString(fields.appVersion, "appVersion", max: 32)
        let osVersion = try optionalString(fields.osVersion, "osVersion", max: 32)
        let sdkVersion = try requiredString(fields.sdkVersion, "sdkVersion")
        guard SafeText.isNonEmpty(sdkVersion, within: 32) else {
            throw .validationError("sdkVersion must be 1-32 characters.")
        }
        var occurredAt: Int64?
        if let text = try optionalString(fields.occurredAt, "occurredAt", max: 64) {
            guard let ms = Timestamp.parse(text) else {
                throw .validationError("occurredAt must be an RFC 3339 date-time.")
            }
            occurredAt = ms
        }
        switch fields.attestation {
        case nil, .null?, .other(.object)?, .other(.array)?: break  // reserved, accepted and ignored
        default: throw .validationError("attestation must be an object, an array or null.")
        }
        return OpenRequest(
            eventId: eventId, appId: appId, appInstanceId: instance, platform: platform, firstOpen: firstOpen,
            probabilisticAllowed: probabilisticAllowed, handoffToken: handoffToken, deepLink: deepLink,
            domain: domain?.lowercased(), appVersion: appVersion.flatMap(nonEmpty),
            osVersion: osVersion.flatMap(nonEmpty), sdkVersion: sdkVersion, occurredAt: occurredAt)
    }

    private static func nonEmpty(_ s: String) -> String? { s.isEmpty ? nil : s }

    private static func requiredString(_ v: FieldValue?, _ name: String) throws(ResolverError) -> String {
        switch v {
        case nil: throw .validationError("\(name) is required.")
        case .string(let s)?: return s
        default: throw .validationError("\(name) must be a string.")
        }
    }

    private static func requiredBool(_ v: FieldValue?, _ name: String) throws(ResolverError) -> Bool {
        switch v {
        case nil: throw .validationError("\(name) is required.")
        case .bool(let b)?: return b
        default: throw .validationError("\(name) must be a boolean.")
        }
    }

    private static func optionalString(_ v: FieldValue?, _ name: String, max: Int) throws(ResolverError)
        -> String?
    {
        switch v {
        case nil, .null?: return nil
        case .string(let s)?:
            guard SafeText.isWithin(s, max: max) else {
                throw .validationError("\(name) must be at most \(max) characters.")
            }
            return s
        default: throw .validationError("\(name) must be a string or null.")
        }
    }

    /// An unknown field's name, shortened and reduced to safe characters, so that
    /// the message stays small and cannot carry arbitrary client text.
    static func printable(_ key: String) -> String {
        let safe = key.unicodeScalars.prefix(40).map {
            SafeText.isSafeByte(UInt8(truncatingIfNeeded: $0.value)) && $0.isASCII ? Character($0) : "?"
        }
        return String(safe)
    }
}
