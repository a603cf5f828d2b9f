import Model
import XCTest

@testable import Association

final class AssociationCheckerTests: XCTestCase {
    private let domain = Domain(hostname: "go.example.com", verified: true)
    private let https: Set<String> = ["go.example.com"]

    private func codes(_ problems: [AssociationProblem]) -> [AssociationProblem.Code] { problems.map(\.code) }

    func testHealthyConfigurationHasNoProblems() {
        let problems = AssociationChecker.check(
            apps: [Fixtures.bothApp(1)], domains: [domain], links: [:], httpsActiveHosts: https)
        XCTAssertEqual(problems, [])
    }

    func testInvalidIdentifiersAreErrorsWithFixes() {
        var app = Fixtures.bothApp(1)
        app.ios?.teamId = "abc"
        app.ios?.bundleId = "bad bundle"
        app.android?.packageName = "nodots"
        app.android?.sha256CertFingerprints = ["zz", Fixtures.fingerprintA.lowercased()]
        let problems = AssociationChecker.check(apps: [app], domains: [domain], links: [:], httpsActiveHosts: https)
        XCTAssertEqual(
            codes(problems),
            [
                .teamIdInvalid, .bundleIdInvalid, .packageNameInvalid, .fingerprintMalformed,
                .fingerprintNotNormalized, .noIOSApp, .noAndroidApp,
            ])
        XCTAssertEqual(problems.filter { $0.severity == .warning }.map(\.code), [.fingerprintNotNormalized])
        for p in problems { XCTAssertFalse(p.fix.isEmpty, "\(p.code)") }
        XCTAssertTrue(problems[3].message.contains("[0]"), problems[3].message)
    }

    func testAppClipOutsideTheAppsBundleIsAWarning() {
        let app = Fixtures.iosApp(1, bundle: "com.example.app", appClip: "com.example.clip")
        let problems = AssociationChecker.check(apps: [app], domains: [domain], links: [:], httpsActiveHosts: https)
        XCTAssertEqual(codes(problems), [.appClipNotUnderApp, .noAndroidApp])
        XCTAssertEqual(problems[0].severity, .warning)
        let good = Fixtures.iosApp(1, bundle: "com.example.app", appClip: "com.example.app.Clip")
        XCTAssertEqual(
            codes(AssociationChecker.check(apps: [good], domains: [domain], links: [:], httpsActiveHosts: https)),
            [.noAndroidApp])
    }

    func testAndroidAppWithoutFingerprints() {
        let app = Fixtures.androidApp(1, fingerprints: [])
        let problems = AssociationChecker.check(apps: [app], domains: [domain], links: [:], httpsActiveHosts: https)
        XCTAssertEqual(codes(problems), [.noFingerprints, .noIOSApp, .noAndroidApp])
        XCTAssertEqual(problems.map(\.severity), [.error, .warning, .error])
    }

    func testDisabledAttachedAppIsReportedAndItsDocumentsGo() {
        let app = Fixtures.iosApp(1, enabled: false)
        let problems = AssociationChecker.check(apps: [app], domains: [domain], links: [:], httpsActiveHosts: https)
        XCTAssertEqual(codes(problems), [.appDisabled, .noIOSApp, .noAndroidApp])
        XCTAssertEqual(problems[1].severity, .error, "an iOS app exists but nothing is served")
    }

    func testDomainWithoutCertificateOrVerification() {
        let unverified = Domain(hostname: "go.example.com", verified: false)
        let problems = AssociationChecker.check(
            apps: [Fixtures.bothApp(1)], domains: [unverified], links: [:], httpsActiveHosts: [])
        XCTAssertEqual(codes(problems), [.httpsInactive, .domainUnverified])
        XCTAssertEqual(problems.map(\.domain), ["go.example.com", "go.example.com"])
        XCTAssertTrue(problems.allSatisfy { $0.severity == .error })
    }

    func testDomainWithoutAppsIsOneWarning() {
        let other = Domain(hostname: "web.example.com", verified: true)
        let problems = AssociationChecker.check(
            apps: [Fixtures.bothApp(1)], domains: [domain, other], links: [:], httpsActiveHosts: https)
        XCTAssertEqual(codes(problems), [.noAppAttached])
        XCTAssertEqual(problems[0].domain, "web.example.com")
        XCTAssertEqual(problems[0].severity, .warning)
    }

    func testAppsAttachedToUnknownOrNoDomains() {
        let stray = Fixtures.iosApp(1, domains: ["missing.example.com"])
        let lonely = Fixtures.iosApp(2, domains: [])
        let problems = AssociationChecker.check(apps: [stray, lonely], domains: [], links: [:], httpsActiveHosts: [])
        XCTAssertEqual(codes(problems), [.unknownDomain, .appNotAttached])
        XCTAssertEqual(problems[0].domain, "missing.example.com")
        XCTAssertEqual(problems[1].appId, lonely.id)
    }

    func testEveryDuplicateIsReported() {
        let apps = [
            Fixtures.iosApp(1, bundle: "com.example.app"), Fixtures.iosApp(2, bundle: "com.example.app"),
            Fixtures.iosApp(3, bundle: "COM.example.app"), Fixtures.androidApp(4, package: "com.x.y"),
            Fixtures.androidApp(5, package: "com.x.y"),
        ]
        let problems = AssociationChecker.check(apps: apps, domains: [domain], links: [:], httpsActiveHosts: https)
        XCTAssertEqual(codes(problems), [.duplicateAppID, .duplicateAppID, .duplicateAppID])
        XCTAssertEqual(problems.map(\.appId), [apps[1].id, apps[2].id, apps[4].id])
    }

    func testOversizedAASAIsReported() {
        let many = (1...3000).map {
            Fixtures.iosApp($0, bundle: "com.example.a-rather-long-bundle-identifier.app\($0)")
        }
        let problems = AssociationChecker.check(apps: many, domains: [domain], links: [:], httpsActiveHosts: https)
        XCTAssertEqual(codes(problems).filter { $0 != .iosAppWithoutLinks }, [.documentTooLarge, .noAndroidApp])
        XCTAssertTrue(problems[0].message.contains("131072"), problems[0].message)
        XCTAssertEqual(problems[0].fix, "Attach fewer iOS apps to this domain.", "the apps alone are too many")
    }

    func testProblemDescriptionIsOneReadableLine() {
        let p = AssociationProblem(
            severity: .error, code: .httpsInactive, domain: "go.example.com", message: "No certificate.",
            fix: "Add one.")
        XCTAssertEqual(p.description, "error domain_https_inactive [go.example.com]: No certificate. Fix: Add one.")
        XCTAssertLessThan(AssociationProblem.Severity.error, .warning)
    }
}
