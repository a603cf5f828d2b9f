import Model
import XCTest

@testable import Association

final class AttachmentValidationTests: XCTestCase {
    func testDistinctAppsOnOneDomainAreAccepted() {
        XCTAssertNoThrow(
            try AssociationValidator.validateAttachments(
                domain: "go.example.com", apps: [Fixtures.bothApp(1), Fixtures.bothApp(2), Fixtures.iosApp(3)],
                links: []))
    }

    func testDuplicateIOSAppIDIsRefusedCaseInsensitivelyAgainstTheLaterApp() {
        let first = Fixtures.iosApp(1, bundle: "com.example.app")
        let second = Fixtures.iosApp(2, bundle: "com.Example.APP")
        XCTAssertThrowsError(
            try AssociationValidator.validateAttachments(domain: "go.example.com", apps: [first, second], links: [])
        ) { error in
            XCTAssertEqual(
                error as? AssociationValidationError,
                .duplicateAppID(
                    field: "ios.bundleId", appID: "ABCDE12345.com.Example.APP", domain: "go.example.com",
                    otherAppId: first.id))
        }
    }

    func testSameBundleUnderAnotherTeamIsADifferentAppID() {
        XCTAssertNoThrow(
            try AssociationValidator.validateAttachments(
                domain: "go.example.com",
                apps: [
                    Fixtures.iosApp(1, bundle: "com.example.app"),
                    Fixtures.iosApp(2, team: "ZZZZZ99999", bundle: "com.example.app"),
                ], links: []))
    }

    func testAppClipCollidingWithAnAppIsRefused() {
        let app = Fixtures.iosApp(1, bundle: "com.example.app")
        let clipOwner = Fixtures.iosApp(2, bundle: "com.example.other", appClip: "com.example.app")
        XCTAssertThrowsError(
            try AssociationValidator.validateAttachments(domain: "go.example.com", apps: [app, clipOwner], links: [])
        ) { error in
            XCTAssertEqual((error as? AssociationValidationError)?.field, "ios.appClipBundleId")
        }
    }

    func testDuplicateAndroidPackageIsRefused() {
        let a = Fixtures.androidApp(1, package: "com.example.app")
        let b = Fixtures.androidApp(2, package: "com.example.app")
        XCTAssertThrowsError(
            try AssociationValidator.validateAttachments(domain: "go.example.com", apps: [a, b], links: [])
        ) {
            error in
            XCTAssertEqual(
                error as? AssociationValidationError,
                .duplicateAppID(
                    field: "android.packageName", appID: "com.example.app", domain: "go.example.com", otherAppId: a.id))
        }
    }

    func testDisabledAppsStillCountForDuplicates() {
        let a = Fixtures.iosApp(1, bundle: "com.example.app", enabled: false)
        let b = Fixtures.iosApp(2, bundle: "com.example.app")
        XCTAssertThrowsError(
            try AssociationValidator.validateAttachments(domain: "go.example.com", apps: [a, b], links: []))
    }

    func testDocumentsOverTheSizeLimitAreRefusedAtSaveTime() throws {
        // 3,000 apps are far beyond 128 KiB, links or not.
        let many = (1...3000).map {
            Fixtures.iosApp($0, bundle: "com.example.a-rather-long-bundle-identifier.app\($0)")
        }
        XCTAssertThrowsError(
            try AssociationValidator.validateAttachments(domain: "go.example.com", apps: many, links: [])
        ) {
            error in
            guard
                case .documentTooLarge(let domain, let kind, let bytes, let limit)? = error
                    as? AssociationValidationError
            else { return XCTFail("\(error)") }
            XCTAssertEqual(domain, "go.example.com")
            XCTAssertEqual(kind, .appleAppSiteAssociation)
            XCTAssertGreaterThan(bytes, limit)
            XCTAssertEqual(limit, 131_072)
        }
        // Each app has its own entry with the shared exclusions (about 550 bytes here): 200 fit.
        XCTAssertNoThrow(
            try AssociationValidator.validateAttachments(
                domain: "go.example.com", apps: Array(many.prefix(200)), links: []))
    }

    func testSizeLimitCountsDisabledAppsAsIfEnabled() {
        let many = (1...3000).map {
            Fixtures.iosApp($0, bundle: "com.example.a-rather-long-bundle-identifier.app\($0)", enabled: false)
        }
        XCTAssertNil(
            AssociationRenderer.appleAppSiteAssociation(apps: many, links: []), "nothing served while disabled")
        XCTAssertThrowsError(
            try AssociationValidator.validateAttachments(domain: "go.example.com", apps: many, links: []))
    }

    func testAssetLinksSizeLimit() {
        let fps = (0..<16).map { i in
            (0..<32).map { j in
                let v = j == 0 ? i : j  // the first byte tells the 16 fingerprints apart
                let h = Array("0123456789ABCDEF")
                return String([h[v / 16], h[v % 16]])
            }.joined(separator: ":")
        }
        let many = (1...120).map { Fixtures.androidApp($0, fingerprints: fps) }
        XCTAssertThrowsError(
            try AssociationValidator.validateAttachments(domain: "go.example.com", apps: many, links: [])
        ) {
            error in
            guard case .documentTooLarge(_, let kind, _, _)? = error as? AssociationValidationError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(kind, .assetLinks)
        }
    }

    func testValidateSaveChecksEachOfTheAppsDomainsAgainstTheOtherApps() throws {
        let existing = [
            Fixtures.iosApp(1, bundle: "com.example.app", domains: ["a.example.com"]),
            Fixtures.iosApp(2, bundle: "com.example.other", domains: ["b.example.com"]),
        ]
        // Same bundle as app 1, but on a domain app 1 is not attached to: fine.
        var candidate = Fixtures.iosApp(3, bundle: "com.example.app", domains: ["b.example.com"])
        XCTAssertNoThrow(try AssociationValidator.validateSave(candidate, otherApps: existing, links: [:]))
        // Attaching it to a.example.com as well collides with app 1.
        candidate.domains = ["b.example.com", "a.example.com"]
        XCTAssertThrowsError(try AssociationValidator.validateSave(candidate, otherApps: existing, links: [:])) {
            error in
            XCTAssertEqual(
                error as? AssociationValidationError,
                .duplicateAppID(
                    field: "ios.bundleId", appID: "ABCDE12345.com.example.app", domain: "a.example.com",
                    otherAppId: existing[0].id))
        }
    }

    func testValidateSaveIgnoresTheStoredVersionOfTheSameApp() throws {
        let stored = Fixtures.iosApp(1, bundle: "com.example.app")
        var edited = stored
        edited.name = "Renamed"
        XCTAssertNoThrow(try AssociationValidator.validateSave(edited, otherApps: [stored], links: [:]))
    }

    func testValidateSaveReturnsTheNormalisedApp() throws {
        let app = Fixtures.androidApp(1, fingerprints: [Fixtures.fingerprintA.lowercased()])
        let saved = try AssociationValidator.validateSave(app, otherApps: [], links: [:])
        XCTAssertEqual(saved.android?.sha256CertFingerprints, [Fixtures.fingerprintA])
    }

    func testValidateSaveReportsFieldErrorsBeforeAttachmentErrors() {
        let existing = [Fixtures.iosApp(1, bundle: "com.example.app")]
        let candidate = Fixtures.iosApp(2, team: "bad", bundle: "com.example.app")
        XCTAssertThrowsError(try AssociationValidator.validateSave(candidate, otherApps: existing, links: [:])) {
            error in
            XCTAssertEqual((error as? AssociationValidationError)?.field, "ios.teamId")
        }
    }
}
