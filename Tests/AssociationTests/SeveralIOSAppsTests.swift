import Core
import Model
import XCTest

@testable import Association

/// Several iOS apps on one domain (issue 14, item 8; decision 0012): iOS gives a link to
/// the first entry whose components match, so each app's entry claims only its own
/// links' keys, after the shared exclusions; one app alone keeps the wildcard.
final class SeveralIOSAppsTests: XCTestCase {
    private let exclusions =
        #"{"/":"/m/*","exclude":true,"comment":"Edge pages such as /m/handoff stay in the browser"},"#
        + #"{"/":"/.well-known/*","exclude":true,"comment":"Association files and other well-known resources"},"#
        + #"{"/":"/_biqli/*","exclude":true,"comment":"Static assets of the edge's pages"},"#
        + #"{"/":"/apple-app-site-association","exclude":true,"comment":"This file, at its legacy path"},"#
        + #"{"/":"/*/*","exclude":true,"comment":"Short links are one path segment; deeper paths are not links"}"#

    private let one = Fixtures.iosApp(1)
    private let two = Fixtures.iosApp(2)

    private func claim(_ key: String, _ app: MobileApp, enabled: Bool = true) -> LinkClaim {
        LinkClaim(key: key, appId: app.id, enabled: enabled)
    }

    private func details(_ doc: AssociationDocument?) throws -> [JSONValue] {
        let body = try XCTUnwrap(doc).body
        return try XCTUnwrap(JSONParser.parse(body)["applinks"]?["details"]?.arrayValue)
    }

    /// The `/` patterns of each entry, by appID.
    private func patterns(_ doc: AssociationDocument?) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for entry in try details(doc) {
            let id = try XCTUnwrap(entry["appIDs"]?.arrayValue?.first?.stringValue)
            out[id] = entry["components"]?.arrayValue?.compactMap { $0["/"]?.stringValue } ?? []
        }
        return out
    }

    func testEachAppClaimsOnlyItsOwnKeysAfterTheSharedExclusions() throws {
        let links = [
            claim("summer", two), claim("invite", one), claim("Promo", one), claim("docs", two),
            LinkClaim(key: "elsewhere", appId: Fixtures.appId(9)),
        ]
        let doc = AssociationRenderer.appleAppSiteAssociation(apps: [two, one], links: links)
        XCTAssertEqual(
            Fixtures.text(try XCTUnwrap(doc).body),
            #"{"applinks":{"details":["#
                + #"{"appIDs":["ABCDE12345.com.example.app1"],"components":["# + exclusions
                + #",{"/":"/Promo"},{"/":"/invite"}]},"#
                + #"{"appIDs":["ABCDE12345.com.example.app2"],"components":["# + exclusions
                + #",{"/":"/docs"},{"/":"/summer"}]}]}}"#)
    }

    func testOneIOSAppKeepsTheWildcardWhateverItsLinks() throws {
        let links = [claim("invite", one), claim("promo", two)]
        let single = AssociationRenderer.appleAppSiteAssociation(apps: [one], links: links)
        XCTAssertEqual(single, AssociationRenderer.appleAppSiteAssociation(apps: [one], links: []))
        XCTAssertEqual(try patterns(single)["ABCDE12345.com.example.app1"]?.last, "/?*")
        XCTAssertFalse(AssociationRenderer.claimsLinksByKey(apps: [one]))
        // An Android-only app, a disabled or an invalid iOS app is not a second iOS entry.
        for other in [
            Fixtures.androidApp(2), Fixtures.iosApp(2, enabled: false), Fixtures.iosApp(2, team: "bad"),
            Fixtures.iosApp(2, bundle: "com.example.app1"),
        ] {
            XCTAssertFalse(AssociationRenderer.claimsLinksByKey(apps: [one, other]), "\(other)")
            XCTAssertEqual(
                try details(AssociationRenderer.appleAppSiteAssociation(apps: [one, other], links: links)).count, 1)
        }
        XCTAssertTrue(AssociationRenderer.claimsLinksByKey(apps: [one, two]))
    }

    func testLinksOfNoListedAppAndDisabledLinksAreNotClaimed() throws {
        let links = [
            claim("on", one), claim("off", one, enabled: false), claim("mine", two),
            LinkClaim(key: "stranger", appId: Fixtures.appId(9)),
        ]
        let disabledTwo = Fixtures.iosApp(2, enabled: false)
        let three = Fixtures.iosApp(3)
        let found = try patterns(
            AssociationRenderer.appleAppSiteAssociation(apps: [one, disabledTwo, three], links: links))
        XCTAssertEqual(found.count, 2)
        XCTAssertEqual(found["ABCDE12345.com.example.app1"]?.suffix(1), ["/on"])
        XCTAssertEqual(found["ABCDE12345.com.example.app3"]?.count, 5, "exclusions only: it has no link here")
        XCTAssertFalse(found.values.joined().contains("/mine"), "its app is disabled")
        XCTAssertFalse(found.values.joined().contains("/stranger"))
        XCTAssertFalse(found.values.joined().contains("/?*"), "no entry keeps the wildcard")
    }

    func testKeysThatAreNotPlainSegmentsAreNeverClaimed() throws {
        let links = ["ok_key-1", "a*", "?x", "a/b", "", "é", String(repeating: "k", count: 65), "with space"].map {
            claim($0, one)
        }
        let found = try patterns(AssociationRenderer.appleAppSiteAssociation(apps: [one, two], links: links))
        XCTAssertEqual(found["ABCDE12345.com.example.app1"]?.suffix(1), ["/ok_key-1"])
        XCTAssertEqual(found["ABCDE12345.com.example.app1"]?.count, 6)
        XCTAssertTrue(AssociationValidator.isClaimableKey(String(repeating: "K", count: 64)))
        XCTAssertFalse(AssociationValidator.isClaimableKey("a?"))
    }

    func testRenderingIsDeterministicWhateverTheOrderOfAppsAndLinks() throws {
        let apps = [one, two, Fixtures.iosApp(3, webCredentials: true, appClip: "com.example.app3.Clip")]
        let links = (0..<50).map { claim("k\($0)", apps[$0 % 3], enabled: $0 % 7 != 0) }
        let a = try XCTUnwrap(AssociationRenderer.appleAppSiteAssociation(apps: apps, links: links))
        let b = try XCTUnwrap(
            AssociationRenderer.appleAppSiteAssociation(apps: apps.reversed(), links: links.shuffled()))
        XCTAssertEqual(Fixtures.text(a.body), Fixtures.text(b.body))
        XCTAssertEqual(a.etag, b.etag)
        let c = try XCTUnwrap(
            AssociationRenderer.appleAppSiteAssociation(apps: apps, links: links + [claim("k3", one)]))
        XCTAssertEqual(Fixtures.text(a.body), Fixtures.text(c.body), "a key is claimed once")
    }

    func testWebCredentialsAndAppClipsAreUnchangedBySeveralApps() throws {
        let apps = [Fixtures.iosApp(1, webCredentials: true, appClip: "com.example.app1.Clip"), Fixtures.iosApp(2)]
        let doc = try XCTUnwrap(AssociationRenderer.appleAppSiteAssociation(apps: apps, links: [claim("a", one)]))
        let json = try JSONParser.parse(doc.body)
        XCTAssertEqual(json.objectValue?.map(\.0), ["applinks", "webcredentials", "appclips"])
        XCTAssertEqual(json["webcredentials"], ["apps": ["ABCDE12345.com.example.app1"]])
        XCTAssertEqual(json["appclips"], ["apps": ["ABCDE12345.com.example.app1.Clip"]])
    }

    // MARK: the size limit

    /// 64-character keys: 74 bytes each in the document, so 1,800 pass 128 KiB.
    private func longKeys(_ count: Int, app: MobileApp, enabled: Bool = true) -> [LinkClaim] {
        (0..<count).map { i in
            let n = String(i)
            return claim(String(repeating: "k", count: 64 - n.count) + n, app, enabled: enabled)
        }
    }

    func testALinkThatPushesTheDocumentOverTheLimitIsRefusedRecommendingOneDomainPerApp() throws {
        XCTAssertNoThrow(
            try AssociationValidator.validateLinks(
                domain: "go.example.com", apps: [one, two], links: longKeys(1_700, app: one)))
        XCTAssertThrowsError(
            try AssociationValidator.validateLinks(
                domain: "go.example.com", apps: [one, two], links: longKeys(1_800, app: one))
        ) { error in
            guard
                case .tooManyLinkKeys(let field, let domain, let bytes, let limit)? = error
                    as? AssociationValidationError
            else { return XCTFail("\(error)") }
            XCTAssertEqual(field, "domain")
            XCTAssertEqual(domain, "go.example.com")
            XCTAssertGreaterThan(bytes, limit)
            let e = error as! AssociationValidationError
            XCTAssertEqual(e.code, "validation_error")
            XCTAssertTrue(e.message.contains("one domain per app"), e.message)
        }
        // One app: the wildcard, whatever the number of links.
        XCTAssertNoThrow(
            try AssociationValidator.validateLinks(
                domain: "go.example.com", apps: [one], links: longKeys(5_000, app: one)))
    }

    func testTheLimitCountsDisabledLinksAndAppsAsIfEnabled() throws {
        let served = AssociationRenderer.appleAppSiteAssociation(
            apps: [one, two], links: longKeys(1_800, app: one, enabled: false))
        XCTAssertTrue(try XCTUnwrap(served).isWithinSizeLimit)
        XCTAssertThrowsError(
            try AssociationValidator.validateLinks(
                domain: "go.example.com", apps: [one, two], links: longKeys(1_800, app: one, enabled: false)))
        let disabledTwo = Fixtures.iosApp(2, enabled: false)
        XCTAssertTrue(AssociationValidator.sizeDependsOnLinks(apps: [one, disabledTwo]))
        XCTAssertThrowsError(
            try AssociationValidator.validateLinks(
                domain: "go.example.com", apps: [one, disabledTwo], links: longKeys(1_800, app: one)))
    }

    func testAttachingASecondIOSAppToADomainWithManyLinksIsRefused() throws {
        let links = ["go.example.com": longKeys(1_800, app: one)]
        XCTAssertNoThrow(try AssociationValidator.validateSave(one, otherApps: [], links: links))
        XCTAssertThrowsError(try AssociationValidator.validateSave(two, otherApps: [one], links: links)) { error in
            guard case .tooManyLinkKeys(let field, _, _, _)? = error as? AssociationValidationError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(field, "domains")
        }
        // Without an iOS platform the second app adds no entry.
        XCTAssertNoThrow(try AssociationValidator.validateSave(Fixtures.androidApp(2), otherApps: [one], links: links))
    }

    // MARK: check

    private let domain = Domain(hostname: "go.example.com", verified: true)

    private func check(_ apps: [MobileApp], _ links: [LinkClaim]) -> [AssociationProblem] {
        AssociationChecker.check(
            apps: apps, domains: [domain], links: ["go.example.com": links], httpsActiveHosts: ["go.example.com"]
        ).filter { $0.code != .noAndroidApp }
    }

    func testCheckReportsADocumentOverTheLimitBecauseOfLinkKeys() throws {
        let problems = check([one, two], longKeys(1_800, app: one) + [claim("b", two)])
        XCTAssertEqual(problems.map(\.code), [.documentTooLarge])
        XCTAssertEqual(problems.first?.severity, .error)
        XCTAssertTrue(problems[0].fix.contains("one domain per app"), problems[0].fix)
        XCTAssertEqual(check([one, two], longKeys(1_700, app: one) + [claim("b", two)]), [])
    }

    func testCheckWarnsWhenEnablingWouldPassTheLimit() throws {
        let problems = check(
            [one, two], longKeys(1_800, app: one, enabled: false) + [claim("a", one), claim("b", two)])
        XCTAssertEqual(problems.map(\.code), [.documentTooLarge])
        XCTAssertEqual(problems.first?.severity, .warning)
        XCTAssertTrue(problems[0].message.contains("once the disabled"), problems[0].message)
    }

    func testCheckWarnsAboutAnIOSAppThatNoLinkOpens() throws {
        let problems = check(
            [one, two, Fixtures.iosApp(3, enabled: false)], [claim("a", one), claim("b", two, enabled: false)])
        XCTAssertEqual(problems.map(\.code), [.appDisabled, .iosAppWithoutLinks])
        XCTAssertEqual(problems.last?.appId, two.id)
        XCTAssertEqual(check([one], []), [], "one app claims every link with the wildcard")
    }
}
