import HTTPMessages
import Model
import Store
import XCTest

@testable import Console

/// The console's handlers over a real store: sign-in and its refusals, the session's
/// expiry on the server, CSRF, the one-time link, link writes through the API's rules.
final class ConsoleFlowTests: XCTestCase {
    var h: ConsoleHarness!

    override func setUpWithError() throws { h = try ConsoleHarness() }
    override func tearDown() { h?.close() }

    func testEveryPageWithoutASessionGoesToSignIn() {
        for target in [
            "/console/", "/console/links", "/console/links/new", "/console/apps", "/console/domains",
            "/console/links/\(ConsoleHarness.linkId)", "/console/links/\(ConsoleHarness.linkId)/qr.svg",
        ] {
            let answer = h.send(.get, target)
            XCTAssertEqual(answer.status, 303, target)
            XCTAssertEqual(answer.headers["location"], "/console/sign-in", target)
        }
        XCTAssertEqual(h.send(.get, "/console/sign-in").status, 200)
        XCTAssertEqual(h.send(.get, "/console/nowhere").status, 404)
        XCTAssertEqual(h.send(.get, "/healthz").status, 404)
        XCTAssertEqual(h.send(.get, "/console").status, 308)
        XCTAssertEqual(h.send(.delete, "/console/links").headers["allow"], "GET, POST, HEAD")
    }

    func testARightKeyMakesASessionThatExpiresOnTheServer() throws {
        h.signIn()
        let token = try XCTUnwrap(h.jar["biqli_console"])
        XCTAssertNil(h.jar["biqli_console_form"], "the form's cookie is done with")
        let row = try XCTUnwrap(h.store.reader(loop: 0).consoleSession(tokenHash: SessionToken(token)!.hash))
        XCTAssertEqual(row.secretKeyId, ConsoleHarness.keyId)
        XCTAssertEqual(row.expiresAt - row.createdAt, 12 * 3_600_000)
        XCTAssertEqual(h.send(.get, "/console/").status, 200)
        XCTAssertEqual(h.send(.get, "/console/sign-in").status, 303, "signed in: to the overview")
        // The cookie outlives nothing: past the expiry the server refuses it, even if a browser still sends it.
        h.advance(seconds: 12 * 3_600)
        let late = h.send(.get, "/console/links")
        XCTAssertEqual(late.status, 303)
        XCTAssertTrue(late.headers.values("set-cookie").contains { $0.hasPrefix("biqli_console=;") })
    }

    func testARevokedKeyEndsItsSessions() throws {
        h.signIn()
        try h.store.writeAndWait { tx in
            try tx.putSecretKey(
                SecretKeyRecord(
                    id: ConsoleHarness.keyId, name: "ops", keyHash: [0], hint: "AAAA", createdAt: 0, revokedAt: 1))
        }
        XCTAssertEqual(h.send(.get, "/console/").status, 303)
    }

    func testAWrongKeyIs401AndTheSixthIs429WithRetryAfter() {
        let token = h.csrf(of: "/console/sign-in")
        for n in 0..<5 {
            let answer = h.send(.post, "/console/sign-in", form: [("csrf", token), ("key", "biqli_sk_wrong\(n)")])
            XCTAssertEqual(answer.status, 401)
            XCTAssertTrue(h.text(answer).contains("id=\"key-error\""))
            XCTAssertTrue(h.text(answer).contains("aria-invalid=\"true\" aria-describedby=\"key-error\""))
        }
        let limited = h.send(.post, "/console/sign-in", form: [("csrf", token), ("key", "biqli_sk_wrong5")])
        XCTAssertEqual(limited.status, 429)
        XCTAssertEqual(limited.headers["retry-after"], "60")
        XCTAssertNil(h.jar["biqli_console"])
        // The right key is looked at before the allowance: the others' wrong keys from the
        // same address (an SSH tunnel's 127.0.0.1) never lock the operator out.
        let right = h.send(.post, "/console/sign-in", form: [("csrf", token), ("key", ConsoleHarness.key)])
        XCTAssertEqual(right.status, 303)
        XCTAssertNotNil(h.jar["biqli_console"])
    }

    func testRequestsAnotherSitesPageCanSendSpendNoAllowance() throws {
        // A one-time link that is unknown, malformed or missing: what `<img src=...>` on
        // another origin sends, cookies or not.
        for n in 0..<20 {
            for target in [
                "/console/sign-in/once?token=junk\(n)", "/console/sign-in/once",
                "/console/sign-in/once?token=\(SessionToken.random().text)",
            ] {
                XCTAssertEqual(h.send(.get, target).status, 401, target)
            }
            // A sign-in form posted without its token (another origin cannot read it).
            XCTAssertEqual(h.send(.post, "/console/sign-in", form: [("key", "biqli_sk_wrong\(n)")]).status, 403)
        }
        let token = h.csrf(of: "/console/sign-in")
        let wrong = h.send(.post, "/console/sign-in", form: [("csrf", token), ("key", "biqli_sk_wrong")])
        XCTAssertEqual(wrong.status, 401, "the address's allowance is whole")
        let link = try h.console.makeSignInLink(secretKeyId: ConsoleHarness.keyId)
        XCTAssertEqual(h.send(.get, link).status, 303, "and a real one-time link works")
    }

    func testASignInWithoutTheFormsTokenIsRefused() {
        _ = h.send(.get, "/console/sign-in")
        XCTAssertEqual(h.send(.post, "/console/sign-in", form: [("key", ConsoleHarness.key)]).status, 403)
        h.jar["biqli_console_form"] = nil
        XCTAssertEqual(
            h.send(.post, "/console/sign-in", form: [("csrf", "x"), ("key", ConsoleHarness.key)]).status, 403)
        XCTAssertNil(h.jar["biqli_console"])
    }

    func testAPostWithoutItsTokenChangesNothing() throws {
        h.signIn()
        let disable = "/console/links/\(ConsoleHarness.linkId)/disable"
        XCTAssertEqual(h.send(.post, disable, form: []).status, 403)
        XCTAssertEqual(h.send(.post, disable, form: [("csrf", SessionToken.random().csrf)]).status, 403)
        XCTAssertEqual(try h.store.reader(loop: 0).link(id: ConsoleHarness.linkId)?.enabled, true)
        let token = h.csrf(of: "/console/links")
        XCTAssertEqual(h.send(.post, disable, form: [("csrf", token)]).status, 303)
        XCTAssertEqual(try h.store.reader(loop: 0).link(id: ConsoleHarness.linkId)?.enabled, false)
        XCTAssertEqual(h.send(.post, "/console/sign-out", form: []).status, 403)
        XCTAssertEqual(h.send(.get, "/console/").status, 200, "still signed in")
    }

    func testSignOutDeletesTheSession() throws {
        h.signIn()
        let cookie = try XCTUnwrap(h.jar["biqli_console"])
        let out = h.send(.post, "/console/sign-out", form: [("csrf", h.csrf(of: "/console/"))])
        XCTAssertEqual(out.status, 303)
        XCTAssertEqual(out.headers["location"], "/console/sign-in")
        XCTAssertNil(h.jar["biqli_console"])
        XCTAssertNil(try h.store.reader(loop: 0).consoleSession(tokenHash: SessionToken(cookie)!.hash))
        h.jar["biqli_console"] = cookie
        XCTAssertEqual(h.send(.get, "/console/").status, 303, "the old cookie is worth nothing")
    }

    func testAOneTimeLinkSignsInOnceWithinItsLifetime() throws {
        let link = try h.console.makeSignInLink(secretKeyId: ConsoleHarness.keyId)
        XCTAssertTrue(link.hasPrefix("/console/sign-in/once?token="))
        XCTAssertEqual(h.send(.get, link).status, 303)
        XCTAssertNotNil(h.jar["biqli_console"])
        h.jar = [:]
        let again = h.send(.get, link)
        XCTAssertEqual(again.status, 401)
        XCTAssertTrue(h.text(again).contains("id=\"key-error\""))
        XCTAssertNil(h.jar["biqli_console"])
        let late = try h.console.makeSignInLink(secretKeyId: ConsoleHarness.keyId)
        h.advance(seconds: 601)
        XCTAssertEqual(h.send(.get, late).status, 401)
        XCTAssertEqual(h.send(.get, "/console/sign-in/once?token=nonsense").status, 401)
    }

    func testALinkIsCreatedThroughTheAPIsRulesWithItsMessagesNextToTheFields() throws {
        h.signIn()
        let token = h.csrf(of: "/console/links/new")
        let refused = h.send(
            .post, "/console/links",
            form: [
                ("csrf", token), ("domain", ConsoleHarness.host), ("key", "spring"), ("url", "javascript:alert(1)"),
                ("app", ConsoleHarness.appId), ("route", ""), ("title", ""),
            ])
        XCTAssertEqual(refused.status, 422)
        let page = h.text(refused)
        XCTAssertTrue(page.contains("<p class=\"field-error\" id=\"url-error\">url uses the javascript: scheme"))
        XCTAssertTrue(page.contains("id=\"url\" name=\"url\" type=\"url\" value=\"javascript:alert(1)\""))
        XCTAssertTrue(page.contains("aria-invalid=\"true\" aria-describedby=\"url-error\""))
        XCTAssertTrue(page.contains("id=\"route-error\">mobile.route is required"))
        XCTAssertFalse(page.contains("id=\"key-error\""))
        XCTAssertEqual(try h.store.reader(loop: 0).link(host: ConsoleHarness.host, key: "spring"), nil)

        let created = h.send(
            .post, "/console/links",
            form: [
                ("csrf", token), ("domain", ConsoleHarness.host), ("key", "spring"), ("url", "https://example.com/s"),
                ("app", ""), ("route", ""), ("title", "Spring"),
            ])
        XCTAssertEqual(created.status, 303)
        let link = try XCTUnwrap(h.store.reader(loop: 0).link(host: ConsoleHarness.host, key: "spring"))
        XCTAssertEqual(created.headers["location"], "/console/links/" + link.id)
        XCTAssertNil(link.mobile)
        XCTAssertEqual(link.preview?.title, "Spring")
        // The same key again: the API's conflict, next to the key.
        let taken = h.send(
            .post, "/console/links",
            form: [("csrf", token), ("domain", ConsoleHarness.host), ("key", "spring"), ("url", "https://x.test/")])
        XCTAssertEqual(taken.status, 422)
        XCTAssertTrue(h.text(taken).contains("id=\"key-error\""))
    }

    func testEditKeepsWhatTheFormDoesNotShowAndDeleteNeedsItsConfirmation() throws {
        try h.store.writeAndWait { tx in
            var link = try tx.link(id: ConsoleHarness.linkId)!
            link.mobile?.metadata = ["campaign": "spring"]
            link.preview?.description = "kept"
            try tx.putLink(link)
        }
        h.signIn()
        let edit = "/console/links/\(ConsoleHarness.linkId)/edit"
        let token = h.csrf(of: edit)
        let saved = h.send(
            .post, "/console/links/\(ConsoleHarness.linkId)",
            form: [
                ("csrf", token), ("domain", ConsoleHarness.host), ("key", "invite2"), ("url", "https://example.com/n"),
                ("app", ConsoleHarness.appId), ("route", "/new"), ("title", ""),
            ])
        XCTAssertEqual(saved.status, 303)
        let link = try XCTUnwrap(h.store.reader(loop: 0).link(id: ConsoleHarness.linkId))
        XCTAssertEqual(link.key, "invite2")
        XCTAssertEqual(link.mobile?.route, "/new")
        XCTAssertEqual(link.mobile?.metadata, ["campaign": "spring"])
        XCTAssertNil(link.preview?.title)
        XCTAssertEqual(link.preview?.description, "kept")

        let confirm = h.send(.get, "/console/links/\(ConsoleHarness.linkId)/delete")
        XCTAssertEqual(confirm.status, 200)
        XCTAssertTrue(h.text(confirm).contains("id=\"confirm-delete\""))
        XCTAssertNotNil(try h.store.reader(loop: 0).link(id: ConsoleHarness.linkId), "the GET deletes nothing")
        let deleted = h.send(.post, "/console/links/\(ConsoleHarness.linkId)/delete", form: [("csrf", token)])
        XCTAssertEqual(deleted.headers["location"], "/console/links")
        XCTAssertNil(try h.store.reader(loop: 0).link(id: ConsoleHarness.linkId))
        XCTAssertEqual(h.send(.get, "/console/links/\(ConsoleHarness.linkId)").status, 404)
    }

    func testRotatingShowsTheNewKeyOnceAndTheOverlap() throws {
        h.signIn()
        let page = "/console/apps/\(ConsoleHarness.appId)"
        let answer = h.send(.post, page + "/keys/rotate", form: [("csrf", h.csrf(of: page))])
        XCTAssertEqual(answer.status, 200)
        let text = h.text(answer)
        XCTAssertTrue(text.contains("<code id=\"new-key-value\">biqli_mobile_pk_"))
        XCTAssertFalse(h.text(h.send(.get, page)).contains("new-key-value"), "shown once")
        XCTAssertEqual(try h.store.reader(loop: 0).publishableKeys(app: ConsoleHarness.appId).count, 1)
    }

    func testTheLinksListSearchesKeysAndPages() throws {
        try h.store.writeAndWait { tx in
            for n in 0..<60 {
                try tx.putLink(
                    Link(
                        id: "biq_lnk_p" + String(format: "%03d", n), domain: ConsoleHarness.host, key: "promo-\(n)",
                        url: "https://example.com/\(n)"))
            }
        }
        h.signIn()
        let first = h.text(h.send(.get, "/console/links?q=promo-"))
        XCTAssertEqual(first.components(separatedBy: "<tr data-link-id=").count - 1, 50)
        let next = try XCTUnwrap(first.range(of: "id=\"next-page\" href=\"")).upperBound
        let href = String(first[next...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
        XCTAssertTrue(href.hasPrefix("/console/links?q=promo-&after="), href)
        let second = h.text(h.send(.get, href))
        XCTAssertEqual(second.components(separatedBy: "<tr data-link-id=").count - 1, 10)
        XCTAssertFalse(second.contains("id=\"next-page\""))
        XCTAssertTrue(h.text(h.send(.get, "/console/links?q=%3Cb%3E")).contains("id=\"q-error\""))
    }
}
