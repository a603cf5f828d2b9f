import Core
import Model
import XCTest

@testable import Association

final class AssociationRendererTests: XCTestCase {
    private let components =
        #"[{"/":"/m/*","exclude":true,"comment":"Edge pages such as /m/handoff stay in the browser"},"#
        + #"{"/":"/.well-known/*","exclude":true,"comment":"Association files and other well-known resources"},"#
        + #"{"/":"/_biqli/*","exclude":true,"comment":"Static assets of the edge's pages"},"#
        + #"{"/":"/apple-app-site-association","exclude":true,"comment":"This file, at its legacy path"},"#
        + #"{"/":"/*/*","exclude":true,"comment":"Short links are one path segment; deeper paths are not links"},"#
        + #"{"/":"/?*","comment":"Short links"}]"#

    func testSingleIOSAppRendersTheExactModernDocument() throws {
        let doc = try XCTUnwrap(AssociationRenderer.appleAppSiteAssociation(apps: [Fixtures.iosApp(1)], links: []))
        XCTAssertEqual(doc.kind, .appleAppSiteAssociation)
        XCTAssertEqual(
            Fixtures.text(doc.body),
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app1"],"components":"# + components + "}]}}")
    }

    func testExclusionsComeBeforeTheClaimAndCoverTheReservedPaths() throws {
        let doc = try XCTUnwrap(AssociationRenderer.appleAppSiteAssociation(apps: [Fixtures.iosApp(1)], links: []))
        let json = try JSONParser.parse(doc.body)
        let comps = try XCTUnwrap(json["applinks"]?["details"]?.arrayValue?.first?["components"]?.arrayValue)
        let patterns = comps.compactMap { $0["/"]?.stringValue }
        XCTAssertEqual(patterns, ["/m/*", "/.well-known/*", "/_biqli/*", "/apple-app-site-association", "/*/*", "/?*"])
        // Every exclusion precedes the only claim.
        let excluded = comps.map { $0["exclude"]?.boolValue == true }
        XCTAssertEqual(excluded, [true, true, true, true, true, false])
        XCTAssertFalse(patterns.contains("/"), "the bare root stays on the web")
    }

    func testNeverMixesLegacyKeysWithComponents() throws {
        let doc = try XCTUnwrap(
            AssociationRenderer.appleAppSiteAssociation(apps: [Fixtures.iosApp(1), Fixtures.iosApp(2)], links: []))
        let details = try XCTUnwrap(JSONParser.parse(doc.body)["applinks"]?["details"]?.arrayValue)
        for entry in details {
            XCTAssertNil(entry["appID"])
            XCTAssertNil(entry["paths"])
            XCTAssertNotNil(entry["appIDs"])
            XCTAssertNotNil(entry["components"])
        }
        XCTAssertNil(try JSONParser.parse(doc.body)["applinks"]?["apps"])
    }

    func testSeveralIOSAppsGetOneEntryEachSortedByAppId() throws {
        let apps = [Fixtures.iosApp(3), Fixtures.iosApp(1, team: "ZZZZZ99999"), Fixtures.iosApp(2)]
        let doc = try XCTUnwrap(AssociationRenderer.appleAppSiteAssociation(apps: apps, links: []))
        let details = try XCTUnwrap(JSONParser.parse(doc.body)["applinks"]?["details"]?.arrayValue)
        XCTAssertEqual(
            details.map { $0["appIDs"] },
            [["ZZZZZ99999.com.example.app1"], ["ABCDE12345.com.example.app2"], ["ABCDE12345.com.example.app3"]])
    }

    func testRenderingIsDeterministicWhateverTheInputOrder() throws {
        let apps = (1...6).map { $0 % 2 == 0 ? Fixtures.iosApp($0, webCredentials: true) : Fixtures.bothApp($0) }
        let a = try XCTUnwrap(AssociationRenderer.appleAppSiteAssociation(apps: apps, links: []))
        let b = try XCTUnwrap(AssociationRenderer.appleAppSiteAssociation(apps: apps.reversed(), links: []))
        let c = try XCTUnwrap(AssociationRenderer.appleAppSiteAssociation(apps: apps.shuffled(), links: []))
        XCTAssertEqual(a.body, b.body)
        XCTAssertEqual(a.body, c.body)
        XCTAssertEqual(a.etag, c.etag)
        let l1 = try XCTUnwrap(AssociationRenderer.assetLinks(apps: apps))
        let l2 = try XCTUnwrap(AssociationRenderer.assetLinks(apps: apps.shuffled()))
        XCTAssertEqual(l1.body, l2.body)
    }

    func testWebCredentialsAndAppClipsAppearOnlyWhenConfigured() throws {
        let plain = try XCTUnwrap(AssociationRenderer.appleAppSiteAssociation(apps: [Fixtures.iosApp(1)], links: []))
        let plainJSON = try JSONParser.parse(plain.body)
        XCTAssertNil(plainJSON["webcredentials"])
        XCTAssertNil(plainJSON["appclips"])

        let apps = [
            Fixtures.iosApp(1, webCredentials: true, appClip: "com.example.app1.Clip"),
            Fixtures.iosApp(2),
            Fixtures.iosApp(3, webCredentials: true),
        ]
        let doc = try XCTUnwrap(AssociationRenderer.appleAppSiteAssociation(apps: apps, links: []))
        let json = try JSONParser.parse(doc.body)
        XCTAssertEqual(json.objectValue?.map(\.0), ["applinks", "webcredentials", "appclips"])
        XCTAssertEqual(
            json["webcredentials"], ["apps": ["ABCDE12345.com.example.app1", "ABCDE12345.com.example.app3"]])
        XCTAssertEqual(json["appclips"], ["apps": ["ABCDE12345.com.example.app1.Clip"]])
        XCTAssertTrue(
            Fixtures.text(doc.body).hasSuffix(
                #""webcredentials":{"apps":["ABCDE12345.com.example.app1","ABCDE12345.com.example.app3"]},"#
                    + #""appclips":{"apps":["ABCDE12345.com.example.app1.Clip"]}}"#))
    }

    func testNoIOSAppMeansNoAASA() {
        XCTAssertNil(AssociationRenderer.appleAppSiteAssociation(apps: [], links: []))
        XCTAssertNil(AssociationRenderer.appleAppSiteAssociation(apps: [Fixtures.androidApp(1)], links: []))
    }

    func testDisabledAndInvalidAppsAreLeftOut() throws {
        XCTAssertNil(AssociationRenderer.appleAppSiteAssociation(apps: [Fixtures.iosApp(1, enabled: false)], links: []))
        XCTAssertNil(
            AssociationRenderer.appleAppSiteAssociation(apps: [Fixtures.iosApp(1, team: "abcde12345")], links: []))
        XCTAssertNil(AssociationRenderer.assetLinks(apps: [Fixtures.androidApp(1, enabled: false)]))
        XCTAssertNil(AssociationRenderer.assetLinks(apps: [Fixtures.androidApp(1, package: "nodots")]))

        let doc = try XCTUnwrap(
            AssociationRenderer.appleAppSiteAssociation(
                apps: [
                    Fixtures.iosApp(1, enabled: false), Fixtures.iosApp(2), Fixtures.iosApp(3, bundle: ".bad"),
                ], links: []))
        XCTAssertEqual(
            try JSONParser.parse(doc.body)["applinks"]?["details"]?.arrayValue?.first?["appIDs"],
            ["ABCDE12345.com.example.app2"])
    }

    func testDuplicateAppIDsAreServedOnceFirstAppWins() throws {
        let apps = [
            Fixtures.iosApp(2, bundle: "com.example.App"), Fixtures.iosApp(1, bundle: "com.example.app"),
        ]
        let doc = try XCTUnwrap(AssociationRenderer.appleAppSiteAssociation(apps: apps, links: []))
        XCTAssertEqual(
            try JSONParser.parse(doc.body)["applinks"]?["details"]?.arrayValue?.first?["appIDs"],
            ["ABCDE12345.com.example.app"])
    }

    func testSingleAndroidAppRendersTheExactStatement() throws {
        let doc = try XCTUnwrap(AssociationRenderer.assetLinks(apps: [Fixtures.androidApp(1)]))
        XCTAssertEqual(doc.kind, .assetLinks)
        XCTAssertEqual(
            Fixtures.text(doc.body),
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","#
                + #""package_name":"com.example.app1","sha256_cert_fingerprints":[""# + Fixtures.fingerprintA
                + #""]}}]"#)
    }

    func testOneStatementPerAndroidAppWithNormalisedFingerprints() throws {
        let lower = String(Fixtures.fingerprintB.lowercased().filter { $0 != ":" })
        let apps = [
            Fixtures.androidApp(2, fingerprints: [lower, Fixtures.fingerprintB, "not-a-fingerprint"]),
            Fixtures.androidApp(1, fingerprints: [Fixtures.fingerprintA, Fixtures.fingerprintB]),
            Fixtures.androidApp(3, fingerprints: []),
        ]
        let doc = try XCTUnwrap(AssociationRenderer.assetLinks(apps: apps))
        let statements = try XCTUnwrap(JSONParser.parse(doc.body).arrayValue)
        XCTAssertEqual(statements.count, 2, "the app without fingerprints has no statement")
        XCTAssertEqual(statements.map { $0["target"]?["package_name"] }, ["com.example.app1", "com.example.app2"])
        XCTAssertEqual(
            statements[0]["target"]?["sha256_cert_fingerprints"],
            .array([.string(Fixtures.fingerprintA), .string(Fixtures.fingerprintB)]))
        XCTAssertEqual(
            statements[1]["target"]?["sha256_cert_fingerprints"], .array([.string(Fixtures.fingerprintB)]),
            "normalised, deduplicated, malformed left out")
    }

    func testAnAppWithBothPlatformsAppearsInBothDocuments() throws {
        let apps = [Fixtures.bothApp(1)]
        XCTAssertNotNil(AssociationRenderer.appleAppSiteAssociation(apps: apps, links: []))
        XCTAssertNotNil(AssociationRenderer.assetLinks(apps: apps))
        XCTAssertNil(AssociationRenderer.assetLinks(apps: [Fixtures.iosApp(1)]))
        XCTAssertNil(AssociationRenderer.assetLinks(apps: []))
    }

    func testDocumentKindPaths() {
        XCTAssertEqual(
            AssociationDocumentKind.appleAppSiteAssociation.paths,
            ["/.well-known/apple-app-site-association", "/apple-app-site-association"])
        XCTAssertEqual(AssociationDocumentKind.assetLinks.paths, ["/.well-known/assetlinks.json"])
        XCTAssertEqual(AssociationDocumentKind(path: "/apple-app-site-association"), .appleAppSiteAssociation)
        XCTAssertEqual(AssociationDocumentKind(path: "/.well-known/assetlinks.json"), .assetLinks)
        XCTAssertNil(AssociationDocumentKind(path: "/.well-known/apple-app-site-association.json"))
        XCTAssertNil(AssociationDocumentKind(path: "/assetlinks.json"))
    }
}
