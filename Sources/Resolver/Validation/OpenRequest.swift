import Model
import Store

/// A request body that passed validation, normalised: an absent field, an
/// explicit `null` and (for the two version strings) `""` are all `nil`, so
/// that the iOS form (omitted fields) and the Android form (explicit nulls, empty
/// `osVersion`) of the same request are the same value.
struct OpenRequest: Sendable, Equatable {
    var eventId: String
    var appId: String
    var appInstanceId: String
    var platform: Platform
    var firstOpen: Bool
    var probabilisticAllowed: Bool
    var handoffToken: String?
    var deepLink: String?
    /// Lower-cased.
    var domain: String?
    var appVersion: String?
    var osVersion: String?
    var sdkVersion: String
    /// `occurredAt` in milliseconds since the epoch.
    var occurredAt: Int64?

    /// An exact input (handoff or deep link) is present: probabilistic evaluation never runs then.
    var hasExactInput: Bool { handoffToken != nil || deepLink != nil }
}
