import Model
import XCTest

@testable import Association

final class AssociationValidatorTests: XCTestCase {
    func testTeamIDTable() {
        let table: [(String, Bool)] = [
            ("ABCDE12345", true), ("0123456789", true), ("ZZZZZZZZZZ", true),
            ("abcde12345", false), ("ABCDE1234", false), ("ABCDE123456", false), ("ABCDE-1234", false),
            ("", false), (" ABCDE1234", false), ("ABCDE12345\n", false), ("ÀBCDE12345", false),
        ]
        for (text, ok) in table {
            XCTAssertEqual(AssociationValidator.isValidTeamID(text), ok, text)
            if ok {
                XCTAssertNoThrow(try AssociationValidator.validateTeamID(text))
            } else {
                XCTAssertThrowsError(try AssociationValidator.validateTeamID(text)) { error in
                    XCTAssertEqual(
                        error as? AssociationValidationError, .field("ios.teamId", "must match ^[A-Z0-9]{10}$"))
                }
            }
        }
    }

    func testBundleIDTable() {
        let table: [(String, Bool)] = [
            ("com.example.app", true), ("com.example.My-App", true), ("app", true), ("a.b", true),
            ("com.example.app2.Clip", true), (String(repeating: "a", count: 155), true),
            ("", false), (".com.example", false), ("com.example.", false), ("com..example", false),
            ("com.example.my_app", false), ("com.example app", false), ("com/example", false), ("com.exämple", false),
            (String(repeating: "a", count: 156), false), ("*", false),
        ]
        for (text, ok) in table {
            XCTAssertEqual(AssociationValidator.isValidBundleID(text), ok, text)
        }
        XCTAssertThrowsError(try AssociationValidator.validateBundleID("a..b")) { error in
            XCTAssertEqual((error as? AssociationValidationError)?.field, "ios.bundleId")
        }
    }

    func testPackageNameTable() {
        let table: [(String, Bool)] = [
            ("com.example.app", true), ("com.example", true), ("Com.Example_1.app_2", true), ("a.b", true),
            ("com", false), ("com.", false), (".com.example", false), ("com..example", false),
            ("com.1example", false), ("1com.example", false), ("com._example", false), ("com.exa-mple", false),
            ("com.example.app ", false), ("", false), ("com.exämple", false),
            ("a." + String(repeating: "b", count: 253), true), ("a." + String(repeating: "b", count: 254), false),
        ]
        for (text, ok) in table {
            XCTAssertEqual(AssociationValidator.isValidPackageName(text), ok, text)
        }
        XCTAssertThrowsError(try AssociationValidator.validatePackageName("com")) { error in
            XCTAssertEqual((error as? AssociationValidationError)?.field, "android.packageName")
        }
    }

    func testFingerprintNormalisationTable() throws {
        let canonical = Fixtures.fingerprintA
        let bare = String(canonical.filter { $0 != ":" })
        let spaced = String(canonical.map { $0 == ":" ? " " : $0 })
        let accepted = [
            canonical, canonical.lowercased(), bare, bare.lowercased(), spaced, "  " + canonical + "\n",
            "SHA256: " + canonical, "sha-256:" + bare.lowercased(), "SHA256:" + spaced,
        ]
        for text in accepted {
            XCTAssertEqual(try AssociationValidator.normalizedFingerprint(text), canonical, text)
        }
        let refused = [
            "", ":", canonical + ":", ":" + canonical, String(canonical.dropLast(3)), canonical + ":AB",
            bare + "A", String(bare.dropLast()), canonical.replacingFirstColon(with: "::"),
            canonical.replacingFirstColon(with: " "),  // mixed separators
            String(bare.prefix(4)) + ":" + String(bare.dropFirst(4)),  // separators only in places
            "G" + String(canonical.dropFirst()), canonical.replacingFirstColon(with: "-"), "SHA1: " + canonical,
        ]
        for text in refused {
            XCTAssertThrowsError(try AssociationValidator.normalizedFingerprint(text), text) { error in
                XCTAssertEqual(
                    error as? AssociationValidationError,
                    .field("android.sha256CertFingerprints", AssociationValidator.fingerprintRule), text)
            }
        }
        XCTAssertTrue(AssociationValidator.isNormalizedFingerprint(canonical))
        XCTAssertFalse(AssociationValidator.isNormalizedFingerprint(canonical.lowercased()))
        XCTAssertFalse(AssociationValidator.isNormalizedFingerprint(bare))
    }

    func testSHA1FingerprintIsRefusedWithItsOwnMessage() {
        let sha1 = "DA:39:A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09"
        XCTAssertThrowsError(try AssociationValidator.normalizedFingerprint(sha1, field: "f")) { error in
            guard case .field("f", let message)? = error as? AssociationValidationError else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(message.contains("SHA-1"), message)
        }
    }

    func testValidatedAppNormalisesAndDeduplicatesFingerprints() throws {
        let app = Fixtures.androidApp(
            1, fingerprints: [Fixtures.fingerprintA.lowercased(), Fixtures.fingerprintB, Fixtures.fingerprintA])
        let saved = try AssociationValidator.validated(app)
        XCTAssertEqual(saved.android?.sha256CertFingerprints, [Fixtures.fingerprintA, Fixtures.fingerprintB])
        XCTAssertEqual(saved.id, app.id)
    }

    func testValidatedAppNamesTheBrokenFingerprintByIndex() {
        let app = Fixtures.androidApp(1, fingerprints: [Fixtures.fingerprintA, "nope"])
        XCTAssertThrowsError(try AssociationValidator.validated(app)) { error in
            XCTAssertEqual((error as? AssociationValidationError)?.field, "android.sha256CertFingerprints[1]")
        }
    }

    func testTooManyFingerprintsAreRefused() {
        let app = Fixtures.androidApp(1, fingerprints: Array(repeating: Fixtures.fingerprintA, count: 17))
        XCTAssertThrowsError(try AssociationValidator.validated(app)) { error in
            XCTAssertEqual((error as? AssociationValidationError)?.field, "android.sha256CertFingerprints")
        }
        XCTAssertNoThrow(
            try AssociationValidator.validated(
                Fixtures.androidApp(1, fingerprints: Array(repeating: Fixtures.fingerprintA, count: 16))))
    }

    func testValidatedAppChecksEveryIOSField() {
        XCTAssertThrowsError(try AssociationValidator.validated(Fixtures.iosApp(1, team: "SHORT"))) { error in
            XCTAssertEqual((error as? AssociationValidationError)?.field, "ios.teamId")
        }
        XCTAssertThrowsError(try AssociationValidator.validated(Fixtures.iosApp(1, bundle: "a b"))) { error in
            XCTAssertEqual((error as? AssociationValidationError)?.field, "ios.bundleId")
        }
        XCTAssertThrowsError(try AssociationValidator.validated(Fixtures.iosApp(1, appClip: "clip."))) { error in
            XCTAssertEqual((error as? AssociationValidationError)?.field, "ios.appClipBundleId")
        }
        XCTAssertThrowsError(
            try AssociationValidator.validated(Fixtures.iosApp(1, bundle: "com.x.app", appClip: "com.X.App"))
        ) { error in
            XCTAssertEqual((error as? AssociationValidationError)?.field, "ios.appClipBundleId")
        }
        XCTAssertNoThrow(try AssociationValidator.validated(Fixtures.iosApp(1, appClip: "com.example.app1.Clip")))
    }

    func testErrorsCarryTheWireCodeFieldAndMessage() {
        let e = AssociationValidationError.field("ios.teamId", "must match ^[A-Z0-9]{10}$")
        XCTAssertEqual(e.code, "validation_error")
        XCTAssertEqual(e.field, "ios.teamId")
        XCTAssertEqual(e.message, "must match ^[A-Z0-9]{10}$")
        XCTAssertEqual(e.description, "ios.teamId: must match ^[A-Z0-9]{10}$")
        let big = AssociationValidationError.documentTooLarge(
            domain: "go.example.com", kind: .assetLinks, bytes: 140_000, limit: 131_072)
        XCTAssertEqual(big.field, "domains")
        XCTAssertTrue(big.message.contains("/.well-known/assetlinks.json"))
    }
}

extension String {
    fileprivate func replacingFirstColon(with replacement: String) -> String {
        guard let i = firstIndex(of: ":") else { return self }
        return String(self[..<i]) + replacement + String(self[index(after: i)...])
    }
}
