import Model
import XCTest

@testable import Store

/// What every backend must do with the workspace's switches of the in-app escapes
/// (`InAppEscapeReading`, `InAppEscapeWriting`, decision 0033 §5): initial until set,
/// then as set, in the transaction at once and in the readers' snapshot after the commit.
enum InAppEscapeContract {
    static let suite: [ContractCase] = [
        ("the switches are none until set, then as set, readers included", settingsRoundTrip)
    ]

    static func settingsRoundTrip(_ b: any ContractBackend) throws {
        XCTAssertEqual(try b.committed.inAppEscapeSettings(), .initial)
        let some = InAppEscapeSettings(
            switches: InAppEscapeSwitches(["*": [.playIntent, .safari], "instagram": [], "tiktok": [.appIntent]]),
            updatedAt: 5)
        try b.write { tx in try tx.putInAppEscapeSettings(some) }
        XCTAssertEqual(try b.committed.inAppEscapeSettings(), some)
        let none = InAppEscapeSettings(switches: InAppEscapeSwitches(), updatedAt: 6)
        XCTAssertEqual(
            try b.write { tx in
                try tx.putInAppEscapeSettings(none)
                return try tx.inAppEscapeSettings()
            }, none)
        XCTAssertEqual(try b.committed.inAppEscapeSettings(), none)
    }
}
