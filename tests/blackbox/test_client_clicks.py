"""Client-side click tracking (issue 25 item 3, decision 0027), black-box on the real binary:
workspace browser keys (CLI and API), the workspace's settings (enabled, allowed hostnames),
`POST /api/v1/track/click` and its CORS preflight with every refusal code, a durable click
that a lead then names (`conversions_client.py`), and the rate limits of the track calls
(track/click per address and per browser key, track/lead|sale per secret key) with
Retry-After. Runs on both backends. The browser's half: test_client_clicks_browser.py."""
import glob, json, os, re

import pytest

import backend
from conversions_client import ApiError, Conversions
from edge import request
from fixtures_data import (
    LINK_IDS, UA_ANDROID, UA_DESKTOP, api, click, clicks, start_demo, update_domain, update_link)
from management_api import cli
from test_resolver import ROOMY

SHOP = "https://shop.example.test"
PATH = "/api/v1/track/click"
BROWSER_KEY = re.compile(r"^biqli_pk_[A-Za-z0-9_-]{43}$")
CLICK_ID = re.compile(r"^biq_clk_[0-7][0-9A-HJKMNP-TV-Z]{25}$")


@pytest.fixture
def demo(edge_factory):
    return start_demo(edge_factory, env=ROOMY)


def browser_key(edge, name="shop"):
    out = cli(["keys", "create", "--browser", "--name", name], edge.dir)
    assert out.returncode == 0, out.stderr
    key = out.stdout.strip()
    assert BROWSER_KEY.match(key), key
    return key


def configure(edge, enabled=True, hostnames=("shop.example.test",)):
    return api(edge, "PATCH", "/client-click-tracking", {"enabled": enabled, "hostnames": list(hostnames)})


def ready(edge, link="docs"):
    """Tracking on, the shop's hostname allowed, `link` tracking conversions; a browser key."""
    configure(edge)
    update_link(edge, link, trackConversions=True)
    return browser_key(edge)


def track(edge, key, body=None, origin=SHOP, ua=UA_DESKTOP, headers=None, raw=None):
    h = {"User-Agent": ua, "Content-Type": "application/json"}
    if key is not None:
        h["Authorization"] = "Bearer " + key
    if origin is not None:
        h["Origin"] = origin
    h.update(headers or {})
    if body is None and raw is None:
        body = {"domain": "go.example.test", "key": "docs", "url": SHOP + "/?via=docs"}
    data = raw if raw is not None else json.dumps(body).encode()
    status, answer_headers, payload = request(edge.http_port, PATH, method="POST", headers=h, body=data)
    return status, answer_headers, json.loads(payload) if payload else None


def preflight(edge, origin=SHOP, method="POST", headers="authorization,content-type"):
    h = {}
    if origin is not None:
        h["Origin"] = origin
    if method is not None:
        h["Access-Control-Request-Method"] = method
    if headers is not None:
        h["Access-Control-Request-Headers"] = headers
    status, answer_headers, payload = request(edge.http_port, PATH, method="OPTIONS", headers=h)
    return status, answer_headers, json.loads(payload) if payload else None


def refused(answer, status, code, origin=SHOP):
    got_status, headers, body = answer
    assert (got_status, body["error"]["code"]) == (status, code), body
    assert body["request_id"] == headers["x-biq-request-id"]
    assert headers["cache-control"] == "no-store" and "Origin" in headers["vary"]
    # Errors carry CORS too, so that the page's script can read them.
    if origin is not None:
        assert headers["access-control-allow-origin"] == origin
        assert "X-Biq-Request-Id" in headers["access-control-expose-headers"]
    else:
        assert "access-control-allow-origin" not in headers
    return body


# ---------------------------------------------------------------- keys


def test_browser_keys_from_the_cli_and_the_api_grant_only_track_click(demo):
    key = browser_key(demo, "cli-key")
    listed = cli(["keys", "list", "--json"], demo.dir)
    rows = {r["name"]: r for r in json.loads(listed.stdout)}
    assert rows["cli-key"]["type"] == "browser" and rows["cli-key"]["hint"] == key[-4:]
    assert rows["cli-key"]["id"].startswith("bk_") and key not in listed.stdout
    assert rows["demo"]["type"] == "secret"
    assert "browser" in cli(["keys", "list"], demo.dir).stdout
    assert cli(["keys", "create", "--browser", "--name", "x", "--scope", "links.read"], demo.dir).returncode == 2

    made = api(demo, "POST", "/browser-keys", {"name": "api-key"})
    assert BROWSER_KEY.match(made["key"]) and made["name"] == "api-key" and made["revokedAt"] is None
    page = api(demo, "GET", "/browser-keys")["data"]
    assert {k["name"] for k in page} == {"cli-key", "api-key"}
    assert all(k["key"] is None for k in page)  # shown once, at creation
    assert api(demo, "POST", "/browser-keys", {"name": ""}, expect=(422,))["error"]["code"] == "validation_error"
    assert api(demo, "POST", "/browser-keys", {"name": "a", "x": 1}, expect=(422,))["error"]["details"]

    # A browser key is refused everywhere else, and other keys are refused on track/click.
    ready(demo)
    for path, method in (("/api/v1/links", "GET"), ("/api/v1/track/lead", "POST"), ("/api/v1/browser-keys", "GET")):
        status, _, body = request(demo.http_port, path, method=method, headers={"Authorization": "Bearer " + key},
                                  body=b"{}" if method == "POST" else b"")
        assert (status, json.loads(body)["error"]["code"]) == (401, "invalid_token"), path
    for other in (demo.secret_key, demo.publishable_key, key + "x", "biqli_pk_short", None):
        refused(track(demo, other), 401, "invalid_token")
    assert track(demo, key)[0] == 200 and track(demo, made["key"])[0] == 200

    # Revoked (API, then CLI): refused at once.
    revoked = api(demo, "DELETE", f"/browser-keys/{made['id']}")
    assert revoked["revokedAt"] is not None and revoked["key"] is None
    refused(track(demo, made["key"]), 401, "invalid_token")
    assert api(demo, "DELETE", "/browser-keys/bk_nope", expect=(404,))["error"]["code"] == "resource_not_found"
    assert cli(["keys", "revoke", rows["cli-key"]["id"]], demo.dir).returncode == 0
    refused(track(demo, key), 401, "invalid_token")


# ---------------------------------------------------------------- settings


def test_the_settings_are_validated_and_scoped(demo):
    assert api(demo, "GET", "/client-click-tracking") == {"enabled": False, "hostnames": [], "updatedAt": None}
    good = configure(demo, hostnames=["shop.example.com", "*.example.org", "localhost", "xn--bcher-kva.example"])
    assert good["enabled"] is True and good["hostnames"][1] == "*.example.org" and good["updatedAt"]
    # A merge: enabled alone keeps the hostnames.
    assert api(demo, "PATCH", "/client-click-tracking", {"enabled": False})["hostnames"] == good["hostnames"]

    def problems(body):
        answer = api(demo, "PATCH", "/client-click-tracking", body, expect=(422,))
        assert answer["error"]["code"] == "validation_error"
        return {e["field"] for e in answer["error"]["details"]["errors"]}

    assert problems({"hostnames": ["Shop.example.com"]}) == {"hostnames[0]"}
    assert problems({"hostnames": ["ok.example.com", "10.0.0.1", "*.com", "a..b", "*", "shop"]}) == {
        "hostnames[1]", "hostnames[2]", "hostnames[3]", "hostnames[4]", "hostnames[5]"}
    assert problems({"hostnames": ["a.example.com", "a.example.com"]}) == {"hostnames[1]"}
    assert problems({"hostnames": [f"h{i}.example.com" for i in range(51)]}) == {"hostnames"}
    assert problems({"hostnames": ["a" * 63 + "." + "b" * 63 + "." + "c" * 63 + "." + "d" * 63 + ".example"]}) == {
        "hostnames[0]"}
    assert problems({"hostnames": "shop.example.com"}) == {"hostnames"}
    assert problems({"hostnames": [1]}) == {"hostnames[0]"}
    assert problems({"enabled": "yes"}) == {"enabled"}
    assert problems({"other": 1}) == {"other"}
    assert api(demo, "GET", "/client-click-tracking")["hostnames"] == good["hostnames"]  # nothing changed
    assert len(configure(demo, hostnames=[f"h{i}.example.com" for i in range(50)])["hostnames"]) == 50

    out = cli(["keys", "create", "--name", "reader", "--scope", "client_clicks.read"], demo.dir)
    reader = out.stdout.strip()
    h = {"Authorization": "Bearer " + reader, "Content-Type": "application/json"}
    assert request(demo.http_port, "/api/v1/client-click-tracking", headers=h)[0] == 200
    status, _, body = request(demo.http_port, "/api/v1/client-click-tracking", method="PATCH", headers=h, body=b"{}")
    assert (status, json.loads(body)["error"]["details"]["requiredScope"]) == (403, "client_clicks.write")


def test_the_cli_shows_and_sets_the_settings_through_the_apis_rules(demo):
    out = cli(["client-clicks", "show", "--json"], demo.dir)
    assert out.returncode == 0 and json.loads(out.stdout) == {"enabled": False, "hostnames": [], "updatedAt": None}
    out = cli(["client-clicks", "set", "--enabled", "on", "--hostnames", "shop.example.test,*.example.org"], demo.dir)
    assert out.returncode == 0, out.stderr
    assert "shop.example.test *.example.org" in out.stdout
    # The serving edge sees it (the next track/click).
    key = browser_key(demo)
    update_link(demo, "docs", trackConversions=True)
    assert track(demo, key)[0] == 200
    assert cli(["client-clicks", "set", "--enabled", "off"], demo.dir).returncode == 0
    assert api(demo, "GET", "/client-click-tracking")["hostnames"] == ["shop.example.test", "*.example.org"]
    refused(track(demo, key), 403, "client_click_tracking_disabled")
    # Refusals: nothing changed, the API's rule named; usage errors.
    out = cli(["client-clicks", "set", "--hostnames", "ok.example.com 10.0.0.1"], demo.dir)
    assert out.returncode == 2 and "hostnames[1]" in out.stderr and "nothing changed" in out.stderr
    assert api(demo, "GET", "/client-click-tracking")["hostnames"] == ["shop.example.test", "*.example.org"]
    assert cli(["client-clicks", "set", "--enabled", "maybe"], demo.dir).returncode == 2
    assert cli(["client-clicks", "set"], demo.dir).returncode == 2
    assert cli(["client-clicks", "nope"], demo.dir).returncode == 2
    assert cli(["client-clicks", "set", "--hostnames", ""], demo.dir).returncode == 0
    assert api(demo, "GET", "/client-click-tracking")["hostnames"] == []
    assert "Usage" in cli(["client-clicks", "--help"], demo.dir).stdout


# ---------------------------------------------------------------- track/click


def test_every_refusal_of_track_click_has_its_code_and_cors_headers(demo):
    key = browser_key(demo)
    refused(track(demo, key), 403, "client_click_tracking_disabled")  # the workspace's switch is off
    configure(demo, hostnames=[])
    refused(track(demo, key), 403, "hostname_not_configured")
    configure(demo, hostnames=["shop.example.test", "*.example.net"])
    refused(track(demo, key, origin=None), 403, "origin_required", origin=None)
    refused(track(demo, key, origin="https://evil.example"), 403, "origin_not_allowed", origin="https://evil.example")
    refused(track(demo, key, origin="https://example.net"), 403, "origin_not_allowed", origin="https://example.net")
    refused(track(demo, key, origin="null"), 403, "origin_not_allowed", origin=None)
    refused(track(demo, key, origin="https://shop.example.test/path"), 403, "origin_not_allowed", origin=None)
    # The link must track conversions (itself or through its domain).
    body = refused(track(demo, key), 403, "client_click_tracking_disabled")
    assert "trackConversions" in body["error"]["message"]
    refused(track(demo, key, {"domain": "go.example.test", "key": "nope"}), 404, "resource_not_found")
    refused(track(demo, key, {"domain": "other.example.test", "key": "docs"}), 404, "resource_not_found")
    # Bad bodies.
    refused(track(demo, key, raw=b""), 400, "validation_error")
    refused(track(demo, key, raw=b"{nope"), 400, "validation_error")
    for bad, field in (({"domain": "go.example.test"}, "key"), ({"key": "docs"}, "domain"),
                       ({"domain": "go.example.test", "key": "do cs"}, "key"),
                       ({"domain": "GO", "key": "docs"}, "domain"),
                       ({"domain": "go.example.test", "key": "docs", "url": "javascript:alert(1)"}, "url"),
                       ({"domain": "go.example.test", "key": "docs", "url": "https://x/" + "a" * 2048}, "url"),
                       ({"domain": "go.example.test", "key": "docs", "referrer": "x"}, "referrer")):
        answer = refused(track(demo, key, bad), 422, "validation_error")
        assert field in {e["field"] for e in answer["error"]["details"]["errors"]}, (bad, answer)
    # Other methods: 405 in the envelope.
    status, headers, payload = request(demo.http_port, PATH, method="GET", headers={"Origin": SHOP})
    assert (status, headers["allow"]) == (405, "OPTIONS, POST")
    assert json.loads(payload)["error"]["code"] == "method_not_allowed"
    # A wildcard lets a subdomain in (at any depth), and the domain's default turns the link on.
    update_domain(demo, "go.example.test", trackConversions=True)
    status, headers, answer = track(demo, key, origin="https://a.b.example.net:8443")
    assert status == 200 and headers["access-control-allow-origin"] == "https://a.b.example.net:8443"
    update_domain(demo, "go.example.test", trackConversions=False)
    # A disabled link makes no click.
    update_link(demo, "docs", trackConversions=True, enabled=False)
    refused(track(demo, key), 404, "resource_not_found")


def test_a_valid_preflight_is_answered_and_every_other_one_refused(demo):
    refused(preflight(demo), 403, "client_click_tracking_disabled", origin=None)
    configure(demo, hostnames=[])
    refused(preflight(demo), 403, "hostname_not_configured", origin=None)
    configure(demo, hostnames=["shop.example.test"])
    status, headers, body = preflight(demo)
    assert (status, body) == (204, None)
    assert headers["access-control-allow-origin"] == SHOP
    assert headers["access-control-allow-methods"] == "POST"
    assert {h.strip().lower() for h in headers["access-control-allow-headers"].split(",")} == {
        "authorization", "content-type"}
    assert headers["access-control-max-age"] == "600"
    assert "Origin" in headers["vary"]
    assert preflight(demo, headers=None)[0] == 204  # no headers asked for
    assert preflight(demo, headers="Content-Type")[0] == 204
    refused(preflight(demo, origin=None), 403, "origin_required", origin=None)
    refused(preflight(demo, origin="https://evil.example"), 403, "origin_not_allowed", origin=None)
    refused(preflight(demo, method=None), 400, "invalid_preflight", origin=None)
    refused(preflight(demo, method="GET"), 400, "invalid_preflight", origin=None)
    refused(preflight(demo, method="post"), 400, "invalid_preflight", origin=None)
    refused(preflight(demo, headers="authorization,x-custom"), 400, "invalid_preflight", origin=None)


def test_a_durable_click_then_a_lead_attributed_to_it(demo):
    key = ready(demo, "invite")
    landing = SHOP + "/?via=invite&ref=BOB&utm_source=news&other=1#top"
    status, headers, answer = track(demo, key, {"domain": "go.example.test", "key": "invite", "url": landing})
    assert status == 200, answer
    assert headers["access-control-allow-origin"] == SHOP and headers["cache-control"] == "no-store"
    assert CLICK_ID.match(answer["clickId"])
    assert answer["link"] == {"id": LINK_IDS["invite"], "domain": "go.example.test", "key": "invite",
                              "shortUrl": "https://go.example.test/invite"}
    assert answer["request_id"] == headers["x-biq-request-id"]
    # Durable before the answer: no barrier, no wait.
    stored = click(demo, answer["clickId"])
    assert stored is not None and stored["link_id"] == LINK_IDS["invite"]
    assert (stored["kind"], stored["platform"]) == ("desktop", "desktop")
    assert stored["dynamic"] == [("ref", "BOB"), ("utm_source", "news")]  # the link's dynamic keys only
    # A phone's call is a click on its platform; each call is a new click.
    second = track(demo, key, {"domain": "go.example.test", "key": "invite"}, ua=UA_ANDROID)[2]["clickId"]
    assert second != answer["clickId"] and click(demo, second)["platform"] == "android"
    # The site's server then sends the lead with the cookie's id.
    server = Conversions(demo.secret_key, f"http://127.0.0.1:{demo.http_port}/api")
    lead = server.lead(click_id=answer["clickId"], event_name="Sign up", customer_external_id="client_1").body
    assert lead["click"] == {"id": answer["clickId"]}
    assert lead["link"] == {"id": LINK_IDS["invite"], "shortUrl": "https://go.example.test/invite"}


def stored_bytes(edge):
    """Everything the store holds: the SQLite files (the WAL too), or every row of every table."""
    if edge.database_url:
        tables = backend.rows(edge.database_url,
                              "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
        return "\n".join(repr(r) for t in tables
                         for r in backend.rows(edge.database_url, f'SELECT * FROM "{t["table_name"]}"')).encode()
    return b"".join(open(p, "rb").read() for p in glob.glob(os.path.join(edge.dir, "edge.sqlite3*")))


def test_of_a_v2_pages_whole_address_the_edge_keeps_only_the_links_dynamic_values(demo):
    # analytics-v2.js sends location.href: path, every query value, fragment (issue 33 item 9).
    key = ready(demo, "invite")
    marks = ("qpathmark7f3a9", "qmailmark7f3a9", "qtokenmark7f3a9", "qfragmark7f3a9")
    landing = (SHOP + "/account-qpathmark7f3a9/orders?via=invite&ref=qrefkept7f3a9&email=zoe.qmailmark7f3a9%40"
               "example.com&token=qtokenmark7f3a9&utm_source=news#qfragmark7f3a9")
    status, _, answer = track(demo, key, {"domain": "go.example.test", "key": "invite", "url": landing})
    assert status == 200, answer
    assert click(demo, answer["clickId"])["dynamic"] == [("ref", "qrefkept7f3a9"), ("utm_source", "news")]
    stored = stored_bytes(demo)
    assert b"qrefkept7f3a9" in stored  # the search below reads what is stored
    for mark in marks + ("shop.example.test/",):
        assert mark.encode() not in stored, mark
    logged = "\n".join(demo.lines + demo.stderr_lines)
    for mark in marks + ("qrefkept7f3a9",):
        assert mark not in logged, mark


def test_a_v3_body_names_only_the_query_values_the_page_forwards(demo):
    key = ready(demo, "invite")
    status, _, answer = track(demo, key, {"domain": "go.example.test", "key": "invite",
                                          "query": "ref=ALICE&utm_source=mail&campaign=x"})
    assert status == 200, answer
    assert click(demo, answer["clickId"])["dynamic"] == [("ref", "ALICE"), ("utm_source", "mail")]
    # One or the other, and query values only.
    for bad in ({"query": "ref=A", "url": SHOP + "/?ref=A"}, {"query": "?ref=A"}, {"query": "ref=A#top"},
                {"query": ""}):
        answer = refused(track(demo, key, {"domain": "go.example.test", "key": "invite", **bad}), 422,
                         "validation_error")
        assert {e["field"] for e in answer["error"]["details"]["errors"]} == {"query"}, (bad, answer)


def test_a_bots_rendering_makes_no_click(demo):
    key = ready(demo)
    before = len(clicks(demo))
    status, _, answer = track(demo, key, ua="Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
    assert status == 200 and answer["clickId"] is None and answer["link"]["id"] == LINK_IDS["docs"]
    assert track(demo, key)[2]["clickId"]  # a person's call, for comparison
    assert len(clicks(demo)) == before + 1


# ---------------------------------------------------------------- rate limits


def retry_after(answer):
    status, headers, body = answer
    assert (status, body["error"]["code"]) == (429, "rate_limit_exceeded"), body
    seconds = int(headers["retry-after"])
    assert 1 <= seconds <= 60 and body["error"]["details"]["retryAfter"] == seconds
    return seconds


def test_track_click_is_limited_per_address_then_per_key(edge_factory):
    demo = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_RATE_CLICK_PER_ADDRESS": "6",
                                         "BIQLI_EDGE_RATE_CLICK_PER_KEY": "4"})
    key = ready(demo)
    other = browser_key(demo, "other")
    assert [track(demo, key)[0] for _ in range(4)] == [200] * 4
    # The key's bucket is spent (4 a minute: 15 s a request); another key is not.
    answer = track(demo, key)
    assert answer[1]["access-control-allow-origin"] == SHOP
    assert 10 <= retry_after(answer) <= 15
    assert track(demo, other)[0] == 200
    # The address's bucket (6 a minute) is spent by now, whatever the key; even a request
    # without Origin is refused before anything else.
    assert 5 <= retry_after(track(demo, other)) <= 10
    assert retry_after(track(demo, other, origin=None))
    # The preflight is not limited (no store, nothing recorded).
    assert preflight(demo)[0] == 204


def test_track_lead_and_sale_are_limited_per_secret_key_and_the_client_honours_retry_after(edge_factory):
    demo = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_RATE_CONVERSIONS_PER_KEY": "3"})
    key = ready(demo)
    click_id = track(demo, key)[2]["clickId"]
    base = f"http://127.0.0.1:{demo.http_port}/api"
    server = Conversions(demo.secret_key, base, max_retries=0)
    for i in range(3):
        server.lead(click_id=click_id, event_name="Sign up", customer_external_id=f"limited_{i}")
    with pytest.raises(ApiError) as info:
        server.sale(customer_external_id="limited_0", amount=100)
    assert (info.value.status, info.value.code) == (429, "rate_limit_exceeded")
    assert info.value.body["request_id"] == info.value.request_id
    # Another key has its own bucket.
    out = cli(["keys", "create", "--name", "shop", "--scope", "conversions.create"], demo.dir)
    Conversions(out.stdout.strip(), base, max_retries=0).lead(
        click_id=click_id, event_name="Sign up", customer_external_id="limited_other")
    # The client retries after Retry-After (20 s here: 3 a minute), with the same request.
    waits = []
    patient = Conversions(demo.secret_key, base, max_retries=1, sleep=waits.append)
    with pytest.raises(ApiError) as again:
        patient.sale(customer_external_id="limited_0", amount=100, invoice_id="inv_limited")
    assert again.value.status == 429 and len(waits) == 1 and 15 <= waits[0] <= 20


def test_calls_from_origins_the_workspace_refuses_do_not_spend_the_keys_quota(edge_factory):
    # Issue 33 item 7: the key's bucket was charged before the Origin check, so anyone could
    # spend it and the shop's own pages got 429.
    demo = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_RATE_CLICK_PER_ADDRESS": "1000",
                                         "BIQLI_EDGE_RATE_CLICK_PER_KEY": "4"})
    key = ready(demo)
    for _ in range(8):
        refused(track(demo, key, origin="https://evil.example"), 403, "origin_not_allowed",
                origin="https://evil.example")
    for _ in range(4):
        refused(track(demo, key, origin=None), 403, "origin_required", origin=None)
    configure(demo, enabled=False)
    refused(track(demo, key), 403, "client_click_tracking_disabled")
    configure(demo)
    # The shop's pages still have the whole quota, and spend it.
    assert [track(demo, key)[0] for _ in range(4)] == [200] * 4
    assert retry_after(track(demo, key))


def test_the_addresses_of_one_ipv6_slash_64_share_the_address_bucket(edge_factory):
    # Issue 33 item 7: each IPv6 address had a bucket of its own, and a client chooses the
    # 64 low bits of its addresses. Behind a trusted proxy, X-Forwarded-For names the client.
    demo = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_RATE_CLICK_PER_ADDRESS": "3",
                                         "BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1"})
    key = ready(demo)

    def from_(address):
        return track(demo, key, headers={"X-Forwarded-For": address})

    assert [from_(f"2001:db8:1:2::{i}")[0] for i in (1, 2, 3)] == [200] * 3
    assert retry_after(from_("2001:db8:1:2:ffff:ffff:ffff:ffff"))
    assert retry_after(from_("[2001:db8:1:2::abcd]:443"))
    # The next /64, and IPv4 addresses, are other clients.
    assert from_("2001:db8:1:3::1")[0] == 200
    assert [from_(f"203.0.113.{i}")[0] for i in (1, 2, 3, 4)] == [200] * 4
