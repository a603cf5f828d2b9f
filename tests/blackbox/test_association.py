"""Black-box tests of the association files (issue 6) against the real binary: HTTPS with SNI on
two domains with different apps (go.example.test: the demo app; links.example.test: a second
app with another team, bundle, package and certificate), and plain HTTP."""
import fnmatch, json, re, sqlite3, tempfile, time
import pytest
from edge import Conn
from fixtures_data import (
    DEMO_APP_ID, DEMO_FINGERPRINT, DEMO_HOST, DEMO_TEAM, LINK_IDS, SECOND_HOST, UA_IPHONE, android_platform, api,
    create_app, delete_app, demo_ios, ios_platform, put_domain, start_demo, update_app, visit, write_behind)
from management_api import cli

AASA = "/.well-known/apple-app-site-association"
AASA_LEGACY = "/apple-app-site-association"
ASSETLINKS = "/.well-known/assetlinks.json"
PATHS = (AASA, AASA_LEGACY, ASSETLINKS)

SECOND_TEAM = "ZYXWV98765"
SECOND_BUNDLE = "com.example.second"
SECOND_PACKAGE = "com.example.second"
SECOND_FINGERPRINT = ":".join(f"{b:02X}" for b in range(0xA0, 0xC0))
MAX_BYTES = 128 * 1024

CLIENTS = {
    "aasa-bot": "AASA-Bot/1.0.0",
    "swcd": "swcd (unknown version) CFNetwork/1410.0.3 Darwin/22.6.0",
    "curl": "curl/8.5.0",
    "empty": "",
    "absent": None,
    "iphone": UA_IPHONE,
    "android-verifier": "Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP1A.240305.019)",
    "facebook": "facebookexternalhit/1.1",
}


@pytest.fixture
def edge(edge_factory):
    """The demo app on go.example.test only, a second app (`edge.second`) on links.example.test only."""
    e = start_demo(edge_factory)
    update_app(e, DEMO_APP_ID, domains=[DEMO_HOST])
    e.second = create_app(e, "Second", ios=ios_platform(SECOND_TEAM, SECOND_BUNDLE, app_store_id="9876543210"),
                          android=android_platform(SECOND_PACKAGE, [SECOND_FINGERPRINT]), domains=[SECOND_HOST])
    return e


def get(edge, host, path, ua=None, method="GET", headers=None, tls=True):
    return visit(edge, path, ua=ua, host=host, method=method, headers=headers, tls=tls)


def app_ids(body):
    return [i for d in json.loads(body)["applinks"]["details"] for i in d["appIDs"]]


def packages(body):
    return [s["target"]["package_name"] for s in json.loads(body)]


def max_age(cache_control):
    m = re.search(r"(?:^|,)\s*max-age=(\d+)", cache_control)
    assert m, cache_control
    return int(m.group(1))


def first_component(components, path):
    """Apple's rule: components are tried in order, the first whose `/` pattern matches wins
    (`*` any run of characters, `?` one character)."""
    for c in components:
        if fnmatch.fnmatchcase(path, c["/"]):
            return c
    return None


def claims(components, path):
    c = first_component(components, path)
    return c is not None and not c.get("exclude", False)


# ---------------------------------------------------------------- status, headers, document


def assert_served(status, headers, body):
    assert status == 200, status
    assert headers["content-type"].split(";")[0].strip() == "application/json", headers["content-type"]
    assert 1800 <= max_age(headers["cache-control"]) <= 7200, headers["cache-control"]
    assert "no-store" not in headers["cache-control"] and "private" not in headers["cache-control"]
    assert re.fullmatch(r'"[\x21\x23-\x7e]+"', headers["etag"]), headers["etag"]  # strong: no W/
    assert "location" not in headers and "set-cookie" not in headers
    assert int(headers["content-length"]) == len(body) <= MAX_BYTES


@pytest.mark.parametrize("host,expected", [(DEMO_HOST, f"ABCDE12345.{'com.example.demo'}"),
                                           (SECOND_HOST, f"{SECOND_TEAM}.{SECOND_BUNDLE}")])
def test_aasa_is_json_cached_for_about_an_hour_with_a_strong_etag(edge, host, expected):
    status, headers, body = get(edge, host, AASA, ua=CLIENTS["swcd"])
    assert_served(status, headers, body)
    doc = json.loads(body)
    [details] = doc["applinks"]["details"]
    assert details["appIDs"] == [expected]
    assert re.fullmatch(r"[A-Z0-9]{10}\.[A-Za-z0-9.-]+", expected)
    assert "appID" not in details and "paths" not in details  # never the legacy form, never mixed
    components = details["components"]
    assert components and all(set(c) <= {"/", "?", "#", "exclude", "comment", "caseSensitive",
                                          "percentEncoded"} for c in components)
    # Exclusions come first, then the claim.
    flags = [bool(c.get("exclude")) for c in components]
    assert flags == sorted(flags, reverse=True) and flags[0] and not flags[-1], components
    # What Apple's matching makes of it: short links open the app, the edge's own paths stay in Safari.
    for path in ("/invite", "/promo", "/x", "/A-b_9"):
        assert claims(components, path), path
    for path in ("/m/handoff", "/m/x", "/.well-known/assetlinks.json", "/.well-known/apple-app-site-association",
                 "/_biqli/assets/biqli.7e3ae8b1f5b5.css", "/_biqli/assets/deepview.8b427868971c.js",
                 "/apple-app-site-association", "/"):
        assert not claims(components, path), path


def test_the_pages_static_assets_are_excluded_from_the_aasa(edge):
    """Whatever prefix the edge's pages use for assets, the AASA keeps it in the browser."""
    _, _, page = get(edge, DEMO_HOST, "/invite", ua=UA_IPHONE)
    assets = re.findall(r'(?:href|src)="(/[^"]+)"', page.decode())
    assert assets
    _, _, body = get(edge, DEMO_HOST, AASA)
    components = json.loads(body)["applinks"]["details"][0]["components"]
    for path in assets:
        assert not claims(components, path), path


@pytest.mark.parametrize("host,package,fingerprint", [(DEMO_HOST, "com.example.demo", DEMO_FINGERPRINT),
                                                      (SECOND_HOST, SECOND_PACKAGE, SECOND_FINGERPRINT)])
def test_assetlinks_is_an_array_of_handle_all_urls_statements(edge, host, package, fingerprint):
    status, headers, body = get(edge, host, ASSETLINKS, ua=CLIENTS["android-verifier"])
    assert_served(status, headers, body)
    assert json.loads(body) == [{
        "relation": ["delegate_permission/common.handle_all_urls"],
        "target": {"namespace": "android_app", "package_name": package, "sha256_cert_fingerprints": [fingerprint]},
    }]
    assert re.fullmatch(r"([0-9A-F]{2}:){31}[0-9A-F]{2}", fingerprint)


def test_each_domain_lists_only_its_own_apps(edge):
    docs = {(h, p): get(edge, h, p) for h in (DEMO_HOST, SECOND_HOST) for p in (AASA, ASSETLINKS)}
    assert app_ids(docs[DEMO_HOST, AASA][2]) == ["ABCDE12345.com.example.demo"]
    assert app_ids(docs[SECOND_HOST, AASA][2]) == [f"{SECOND_TEAM}.{SECOND_BUNDLE}"]
    assert packages(docs[DEMO_HOST, ASSETLINKS][2]) == ["com.example.demo"]
    assert packages(docs[SECOND_HOST, ASSETLINKS][2]) == [SECOND_PACKAGE]
    assert SECOND_TEAM.encode() not in docs[DEMO_HOST, AASA][2]
    assert b"ABCDE12345" not in docs[SECOND_HOST, AASA][2]
    assert docs[DEMO_HOST, AASA][1]["etag"] != docs[SECOND_HOST, AASA][1]["etag"]


# ---------------------------------------------------------------- the same answer for everyone


def on_one_connection(edge, host, requests, tls=True):
    """[(method, path, headers)] sent in order on one keep-alive connection; the responses."""
    c = Conn(edge.https_port if tls else edge.http_port, tls=tls, sni=host)
    try:
        out = []
        for method, path, headers in requests:
            h = {"Host": host, **headers}
            c.send(f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items()) + "\r\n")
            out.append(c.response(head_only=(method == "HEAD")))
        return out
    finally:
        c.close()


@pytest.mark.parametrize("host", [DEMO_HOST, SECOND_HOST])
def test_the_same_bytes_on_both_paths_for_every_client_address_and_scheme(edge, host):
    for kind, paths in (("aasa", (AASA, AASA_LEGACY)), ("assetlinks", (ASSETLINKS,))):
        variants = []
        for path in paths:
            for ua in CLIENTS.values():
                for extra in ({}, {"Cookie": "session=abc"}, {"X-Forwarded-For": "203.0.113.9"},
                              {"Accept": "text/html"}, {"Accept-Encoding": "gzip, br"}):
                    variants.append(("GET", path, {**({} if ua is None else {"User-Agent": ua}), **extra}))
        seen = set()
        for tls in (True, False):
            responses = on_one_connection(edge, host, variants, tls=tls)
            # A fresh connection per request, as Apple's CDN and devices make them, gives the same.
            responses += [get(edge, host, path, ua=ua, tls=tls) for path in paths for ua in CLIENTS.values()]
            for status, headers, body in responses:
                assert_served(status, headers, body)
                assert "content-encoding" not in headers and "vary" not in headers
                seen.add((body, headers["etag"], headers["content-type"], headers["cache-control"]))
        assert len(seen) == 1, (kind, len(seen))


def test_never_rate_limited_or_bot_filtered(edge):
    # 300 requests from one address on one connection, as a crawler would.
    c = Conn(edge.https_port, tls=True, sni=DEMO_HOST)
    try:
        for batch in range(3):
            c.send("".join(f"GET {PATHS[i % 3]} HTTP/1.1\r\nHost: {DEMO_HOST}\r\nUser-Agent: AASA-Bot/1.0.0\r\n\r\n"
                           for i in range(100)))
            for i in range(100):
                assert c.response()[0] == 200, (batch, i)
    finally:
        c.close()


def test_plain_http_serves_the_files_and_never_redirects(edge):
    assert visit(edge, "/invite", tls=False)[0] == 308  # HTTPS redirects are on
    for host in (DEMO_HOST, SECOND_HOST):
        for path in PATHS:
            for method in ("GET", "HEAD"):
                http = get(edge, host, path, method=method, tls=False)
                https = get(edge, host, path, method=method)
                assert http[0] == 200 and "location" not in http[1], (host, path, method, http[0])
                assert http[2] == https[2] and http[1]["etag"] == https[1]["etag"]


def test_head_gives_the_headers_of_get_and_no_body(edge):
    for host in (DEMO_HOST, SECOND_HOST):
        for path in PATHS:
            g = get(edge, host, path)
            h = get(edge, host, path, method="HEAD")
            assert h[0] == 200 and h[2] == b""
            for name in ("content-type", "cache-control", "etag", "content-length"):
                assert h[1].get(name) == g[1].get(name), (host, path, name)
    # And no body bytes follow the HEAD head on the wire: the next response starts right after it.
    c = Conn(edge.https_port, tls=True, sni=DEMO_HOST)
    try:
        c.send(f"HEAD {AASA} HTTP/1.1\r\nHost: {DEMO_HOST}\r\n\r\nGET /healthz HTTP/1.1\r\nHost: {DEMO_HOST}\r\n\r\n")
        assert c.response(head_only=True)[0] == 200
        status, _, body = c.response()
        assert status == 200 and json.loads(body) == {"status": "ok"}
    finally:
        c.close()


@pytest.mark.parametrize("path", [AASA, ASSETLINKS])
def test_if_none_match_with_the_etag_gives_304(edge, path):
    _, headers, body = get(edge, DEMO_HOST, path)
    etag = headers["etag"]
    for value in (etag, "W/" + etag, f'"nope", {etag}', f'W/"x",W/{etag}', "*"):
        for tls in (True, False):
            status, h, b = get(edge, DEMO_HOST, path, headers={"If-None-Match": value}, tls=tls)
            assert status == 304 and b == b"", (value, status)
            assert h["etag"] == etag and "location" not in h
            assert max_age(h["cache-control"]) == max_age(headers["cache-control"])
    for value in ('"nope"', 'W/"nope", "other"', etag[:-2] + '"', "garbage"):
        status, h, b = get(edge, DEMO_HOST, path, headers={"If-None-Match": value})
        assert (status, b) == (200, body), value
    # Another domain's tag does not match this domain's document.
    other = get(edge, SECOND_HOST, path)[1]["etag"]
    assert get(edge, DEMO_HOST, path, headers={"If-None-Match": other})[0] == 200


# ---------------------------------------------------------------- hosts without apps


def test_unconfigured_hosts_get_404_never_a_redirect(edge):
    put_domain(edge, "plain.example.test")  # a domain with no app attached
    for host in ("unknown.example.test", "plain.example.test"):
        for path in PATHS:
            for tls in (True, False):
                for method in ("GET", "HEAD"):
                    status, headers, _ = get(edge, host, path, method=method, tls=tls)
                    assert status == 404 and "location" not in headers, (host, path, tls, method, status)


def test_a_deleted_domain_serves_no_documents(edge):
    before = get(edge, DEMO_HOST, AASA)
    api(edge, "DELETE", f"/domains/{SECOND_HOST}")
    for path in PATHS:
        status, headers, _ = get(edge, SECOND_HOST, path)
        assert status == 404 and "location" not in headers, path
    after = get(edge, DEMO_HOST, AASA)
    assert (after[0], after[2], after[1]["etag"]) == (200, before[2], before[1]["etag"])


def test_a_domain_with_one_platform_serves_only_that_document(edge):
    update_app(edge, edge.second, ios=None)
    assert get(edge, SECOND_HOST, AASA)[0] == 404
    assert get(edge, SECOND_HOST, AASA_LEGACY)[0] == 404
    assert packages(get(edge, SECOND_HOST, ASSETLINKS)[2]) == [SECOND_PACKAGE]
    update_app(edge, edge.second, ios=ios_platform(SECOND_TEAM, SECOND_BUNDLE), android=None)
    assert app_ids(get(edge, SECOND_HOST, AASA)[2]) == [f"{SECOND_TEAM}.{SECOND_BUNDLE}"]
    assert get(edge, SECOND_HOST, ASSETLINKS)[0] == 404


# ---------------------------------------------------------------- changes


def test_an_app_change_is_visible_on_the_next_request(edge):
    before = {(h, p): get(edge, h, p) for h in (DEMO_HOST, SECOND_HOST) for p in (AASA, ASSETLINKS)}
    new_fingerprint = ":".join(f"{b:02X}" for b in range(0x10, 0x30))
    update_app(edge, edge.second, ios=ios_platform(SECOND_TEAM, "com.example.second.v2"),
               android=android_platform(SECOND_PACKAGE, [new_fingerprint]))
    status, headers, body = get(edge, SECOND_HOST, AASA)
    assert_served(status, headers, body)
    assert app_ids(body) == [f"{SECOND_TEAM}.com.example.second.v2"]
    assert get(edge, SECOND_HOST, AASA_LEGACY)[2] == body
    assert headers["etag"] != before[SECOND_HOST, AASA][1]["etag"]
    old = before[SECOND_HOST, AASA][1]["etag"]
    assert get(edge, SECOND_HOST, AASA, headers={"If-None-Match": old})[0] == 200

    status, headers, body = get(edge, SECOND_HOST, ASSETLINKS)
    assert json.loads(body)[0]["target"]["sha256_cert_fingerprints"] == [new_fingerprint]
    assert headers["etag"] != before[SECOND_HOST, ASSETLINKS][1]["etag"]
    # The other domain did not change.
    for p in (AASA, ASSETLINKS):
        now = get(edge, DEMO_HOST, p)
        assert (now[2], now[1]["etag"]) == (before[DEMO_HOST, p][2], before[DEMO_HOST, p][1]["etag"])


def test_deleting_an_app_removes_its_entries(edge):
    update_app(edge, edge.second, domains=[DEMO_HOST, SECOND_HOST])
    assert app_ids(get(edge, DEMO_HOST, AASA)[2]) == ["ABCDE12345.com.example.demo", f"{SECOND_TEAM}.{SECOND_BUNDLE}"]
    assert packages(get(edge, DEMO_HOST, ASSETLINKS)[2]) == ["com.example.demo", SECOND_PACKAGE]
    delete_app(edge, edge.second)
    assert app_ids(get(edge, DEMO_HOST, AASA)[2]) == ["ABCDE12345.com.example.demo"]
    assert app_ids(get(edge, DEMO_HOST, AASA_LEGACY)[2]) == ["ABCDE12345.com.example.demo"]
    assert packages(get(edge, DEMO_HOST, ASSETLINKS)[2]) == ["com.example.demo"]
    for path in PATHS:  # no app left on this domain
        status, headers, _ = get(edge, SECOND_HOST, path)
        assert status == 404 and "location" not in headers, path
    delete_app(edge, DEMO_APP_ID)
    for path in PATHS:
        assert get(edge, DEMO_HOST, path)[0] == 404, path


def test_webcredentials_and_appclips_appear_only_when_configured(edge):
    update_app(edge, DEMO_APP_ID, ios=demo_ios(webCredentials=True, appClipBundleId="com.example.demo.Clip"))
    doc = json.loads(get(edge, DEMO_HOST, AASA)[2])
    assert doc["webcredentials"] == {"apps": ["ABCDE12345.com.example.demo"]}
    assert doc["appclips"] == {"apps": ["ABCDE12345.com.example.demo.Clip"]}
    assert doc["applinks"]["details"][0]["appIDs"] == ["ABCDE12345.com.example.demo"]
    other = json.loads(get(edge, SECOND_HOST, AASA)[2])
    assert set(other) == {"applinks"}


def test_many_apps_are_all_listed_within_128_kib(edge):
    # Few apps (each write rebuilds the whole catalog), many fingerprints: a big document quickly.
    for i in range(30):
        fingerprints = [":".join(f"{(i * 7 + j * 13 + k) % 256:02X}" for k in range(32)) for j in range(16)]
        create_app(edge, f"App {i}", ios=ios_platform(f"TEAM{i:06d}", f"com.example.many.app{i:04d}.with.a.longer.id"),
                   android=android_platform(f"com.example.many.app{i:04d}.with.a.longer.package", fingerprints),
                   domains=[SECOND_HOST])
    status, headers, body = get(edge, SECOND_HOST, AASA)
    assert_served(status, headers, body)
    assert len(app_ids(body)) == 31  # all of them, nothing truncated
    status, headers, body = get(edge, SECOND_HOST, ASSETLINKS)
    assert_served(status, headers, body)
    assert len(packages(body)) == 31 and all(len(s["target"]["sha256_cert_fingerprints"]) == 16
                                             for s in json.loads(body)[1:])
    assert len(body) > 48 * 1024  # large enough to matter, still under the limit


# ---------------------------------------------------------------- several iOS apps on one domain (issue 14, item 8)

EXCLUDED = ["/m/*", "/.well-known/*", "/_biqli/*", "/apple-app-site-association", "/*/*"]
KEY_BYTES = 74  # what one 64-character key adds to a several-apps AASA: {"/":"/<key>"} and a comma


def opens(body, path):
    """The app iOS opens `path` in: the first entry whose components claim it (None: Safari)."""
    for entry in json.loads(body)["applinks"]["details"]:
        if claims(entry["components"], path):
            return entry["appIDs"][0]
    return None


def long_key(i, prefix="k"):
    n = str(i)
    return prefix + "x" * (64 - len(prefix) - len(n)) + n


def app_link(domain, key, app_id):
    return {"domain": domain, "key": key, "url": f"https://www.example.com/{key}",
            "mobile": {"appId": app_id, "route": f"/{key}"}}


def apply_file(edge, links):
    """`biqli-edge apply` on the running edge's data directory (the edge notices within 2 s)."""
    path = f"{edge.dir}/links-{len(links)}.json"
    with open(path, "w") as f:
        json.dump({"links": links}, f)
    return cli(["apply", path], edge.dir, timeout=120)


def wait_for(predicate, timeout=5):
    deadline = time.time() + timeout
    while not predicate():
        assert time.time() < deadline, "not seen in time"
        time.sleep(0.05)


DEMO_APP = f"{DEMO_TEAM}.com.example.demo"
SECOND_APP = f"{SECOND_TEAM}.{SECOND_BUNDLE}"


@pytest.fixture
def shared(edge):
    """The second app attached to the demo domain too, with one link of its own there."""
    update_app(edge, edge.second, domains=[DEMO_HOST, SECOND_HOST])
    api(edge, "POST", "/links", app_link(DEMO_HOST, "summer", edge.second))
    return edge


def test_several_ios_apps_on_one_domain_each_open_only_their_own_links(shared):
    status, headers, body = get(shared, DEMO_HOST, AASA)
    assert_served(status, headers, body)
    details = json.loads(body)["applinks"]["details"]
    assert [d["appIDs"] for d in details] == [[DEMO_APP], [SECOND_APP]]
    for d in details:
        patterns = [c["/"] for c in d["components"]]
        # The shared exclusions first, then the app's own keys; no wildcard claim.
        assert patterns[:len(EXCLUDED)] == EXCLUDED and all(c.get("exclude") for c in d["components"][:5])
        assert not any(c.get("exclude") for c in d["components"][5:]) and "/?*" not in patterns
    assert [c["/"] for c in details[0]["components"][5:]] == ["/invite", "/promo"]
    assert [c["/"] for c in details[1]["components"][5:]] == ["/summer"]
    assert opens(body, "/invite") == DEMO_APP and opens(body, "/promo") == DEMO_APP  # any query: no "?" component
    assert opens(body, "/summer") == SECOND_APP
    # A web-only link, an unknown key and the edge's own paths open in Safari.
    for path in ("/docs", "/unknown", "/", "/m/handoff", "/invite/x", "/.well-known/assetlinks.json"):
        assert opens(body, path) is None, path
    assert get(shared, DEMO_HOST, AASA_LEGACY)[2] == body
    # One iOS app on a domain keeps the one-segment wildcard.
    only = get(shared, SECOND_HOST, AASA)[2]
    assert app_ids(only) == [SECOND_APP] and opens(only, "/anything") == SECOND_APP
    # assetlinks is not about paths: one statement per app, as before.
    assert packages(get(shared, DEMO_HOST, ASSETLINKS)[2]) == ["com.example.demo", SECOND_PACKAGE]


def test_link_changes_on_a_several_apps_domain_are_served_on_the_next_request(shared):
    before = get(shared, DEMO_HOST, AASA)
    second_before = get(shared, SECOND_HOST, AASA)
    created = api(shared, "POST", "/links", app_link(DEMO_HOST, "autumn", shared.second))
    status, headers, body = get(shared, DEMO_HOST, AASA)
    assert opens(body, "/autumn") == SECOND_APP and headers["etag"] != before[1]["etag"]
    assert get(shared, DEMO_HOST, AASA, headers={"If-None-Match": before[1]["etag"]})[0] == 200
    # Handed to the other app.
    api(shared, "PATCH", f"/links/{created['id']}", {"mobile": {"appId": DEMO_APP_ID}})
    assert opens(get(shared, DEMO_HOST, AASA)[2], "/autumn") == DEMO_APP
    # A new key.
    api(shared, "PATCH", f"/links/{created['id']}", {"key": "winter"})
    body = get(shared, DEMO_HOST, AASA)[2]
    assert opens(body, "/winter") == DEMO_APP and opens(body, "/autumn") is None
    # Disabled: it behaves as unknown, so no app claims it; enabled again: claimed again.
    api(shared, "PATCH", f"/links/{created['id']}", {"enabled": False})
    assert opens(get(shared, DEMO_HOST, AASA)[2], "/winter") is None
    api(shared, "PATCH", f"/links/{created['id']}", {"enabled": True})
    assert opens(get(shared, DEMO_HOST, AASA)[2], "/winter") == DEMO_APP
    # Made a web-only link, then deleted.
    api(shared, "PATCH", f"/links/{created['id']}", {"mobile": None})
    assert opens(get(shared, DEMO_HOST, AASA)[2], "/winter") is None
    api(shared, "DELETE", f"/links/{created['id']}")
    after = get(shared, DEMO_HOST, AASA)
    assert (after[2], after[1]["etag"]) == (before[2], before[1]["etag"])
    # Moving a link to another domain changes both documents' claims.
    moved = api(shared, "POST", "/links", app_link(DEMO_HOST, "moving", shared.second))
    assert opens(get(shared, DEMO_HOST, AASA)[2], "/moving") == SECOND_APP
    api(shared, "PATCH", f"/links/{moved['id']}", {"domain": SECOND_HOST})
    assert opens(get(shared, DEMO_HOST, AASA)[2], "/moving") is None
    # The one-app domain's document never changed: it claims every key anyway.
    now = get(shared, SECOND_HOST, AASA)
    assert (now[2], now[1]["etag"]) == (second_before[2], second_before[1]["etag"])
    # Detaching the second app brings the wildcard back.
    update_app(shared, shared.second, domains=[SECOND_HOST])
    assert get(shared, DEMO_HOST, AASA)[2] == before_single(shared)


def before_single(edge):
    """The demo domain's document with the demo app alone (rendered by a fresh request)."""
    body = get(edge, DEMO_HOST, AASA)[2]
    assert app_ids(body) == [DEMO_APP] and opens(body, "/anything") == DEMO_APP
    return body


def test_a_link_that_would_push_a_several_apps_aasa_over_128_kib_is_refused(shared):
    base = len(get(shared, DEMO_HOST, AASA)[2])
    room = (MAX_BYTES - base) // KEY_BYTES
    assert 1500 < room < 1800, room
    # Most of them through apply, the last ones through the API.
    out = apply_file(shared, [app_link(DEMO_HOST, long_key(i), DEMO_APP_ID) for i in range(room - 3)])
    assert out.returncode == 0, out.stderr
    wait_for(lambda: opens(get(shared, DEMO_HOST, AASA)[2], "/" + long_key(0)) == DEMO_APP)
    for i in range(room - 3, room):
        api(shared, "POST", "/links", app_link(DEMO_HOST, long_key(i), shared.second))
    status, headers, body = get(shared, DEMO_HOST, AASA)
    assert_served(status, headers, body)
    assert MAX_BYTES - KEY_BYTES < len(body) <= MAX_BYTES
    assert opens(body, "/" + long_key(room - 1)) == SECOND_APP

    answer = api(shared, "POST", "/links", app_link(DEMO_HOST, long_key(room), DEMO_APP_ID), expect=(422,))
    error = answer["error"]
    assert error["code"] == "validation_error", answer
    assert error["details"]["field"] == "domain", answer
    message = error["details"]["rule"]
    assert "131072-byte limit" in message and "one domain per app" in message, message
    assert "one domain per app" in error["message"], answer
    # Not stored, and the document is unchanged.
    assert get(shared, DEMO_HOST, AASA)[2] == body
    # Giving a web-only link an app, or a disabled new app link: refused alike (enabling it later must not pass the limit).
    api(shared, "PATCH", f"/links/{LINK_IDS['docs']}", {"mobile": {"appId": DEMO_APP_ID, "route": "/docs"}},
        expect=(422,))
    disabled = {**app_link(DEMO_HOST, long_key(room), DEMO_APP_ID), "enabled": False}
    assert api(shared, "POST", "/links", disabled, expect=(422,))["error"]["code"] == "validation_error"
    # What cannot grow the document is still accepted: a web-only link, a deletion, a link elsewhere.
    api(shared, "POST", "/links", {"domain": DEMO_HOST, "key": "web-only", "url": "https://www.example.com/"})
    api(shared, "POST", "/links", app_link(SECOND_HOST, long_key(room), shared.second))
    api(shared, "DELETE", f"/links/{LINK_IDS['invite']}")
    api(shared, "POST", "/links", app_link(DEMO_HOST, "short", DEMO_APP_ID))


def test_apply_cannot_push_a_several_apps_aasa_over_128_kib(shared):
    out = apply_file(shared, [app_link(DEMO_HOST, long_key(i), DEMO_APP_ID) for i in range(1800)])
    assert out.returncode == 1, out.stdout
    assert "links[1799].domain" in out.stderr and "one domain per app" in out.stderr, out.stderr
    time.sleep(0.3)
    body = get(shared, DEMO_HOST, AASA)[2]
    assert opens(body, "/" + long_key(0)) is None and len(body) < 4096  # nothing was written


def test_attaching_a_second_ios_app_to_a_domain_with_too_many_links_is_refused(edge):
    out = apply_file(edge, [app_link(DEMO_HOST, long_key(i), DEMO_APP_ID) for i in range(1800)])
    assert out.returncode == 0, out.stderr  # one iOS app: the wildcard claims them all
    single = get(edge, DEMO_HOST, AASA)[2]
    assert app_ids(single) == [DEMO_APP] and opens(single, "/" + long_key(5)) == DEMO_APP
    answer = api(edge, "PATCH", f"/mobile-apps/{edge.second}", {"domains": [DEMO_HOST, SECOND_HOST]},
                 expect=(422,))
    assert answer["error"]["code"] == "validation_error", answer
    assert answer["error"]["details"]["field"] == "domains", answer
    assert "one domain per app" in answer["error"]["details"]["rule"], answer
    assert get(edge, DEMO_HOST, AASA)[2] == single
    # An Android-only app adds no AASA entry, so it may join.
    create_app(edge, "Android only", android=android_platform("com.example.androidonly", [SECOND_FINGERPRINT]),
               domains=[DEMO_HOST])
    assert get(edge, DEMO_HOST, AASA)[2] == single


def test_check_reports_a_domain_whose_several_apps_aasa_is_over_128_kib():
    data = tempfile.mkdtemp(prefix="edge-aasa-")
    two = "biq_mapp_01JC0APP0000000000000000B2"
    catalog = {
        "domains": [{"hostname": "go.aasa.test", "verified": True}],
        "mobileApps": [
            {"id": "biq_mapp_01JC0APP0000000000000000A1", "name": "One", "domains": ["go.aasa.test"],
             "ios": {"teamId": "ABCDE12345", "bundleId": "com.example.one"}},
            {"id": two, "name": "Two", "domains": [], "ios": {"teamId": "ABCDE12345", "bundleId": "com.example.two"}},
        ],
        "links": [{**app_link("go.aasa.test", long_key(i), "biq_mapp_01JC0APP0000000000000000A1"),
                   "mobile": {"appName": "One", "route": "/"}} for i in range(1800)],
    }
    path = f"{data}/catalog.json"
    with open(path, "w") as f:
        json.dump(catalog, f)
    assert cli(["apply", path], data, timeout=120).returncode == 0

    def findings():
        out = cli(["check", "--json"], data)
        return [f for f in json.loads(out.stdout) if f["code"] == "document_too_large"]

    assert findings() == []  # one iOS app: the wildcard
    # A store from before this rule (or edited by hand): the second app attached behind the
    # API's back, which would refuse it. The only write a test makes to the store.
    write_behind(data, "INSERT INTO app_domains (app_id, hostname, position) VALUES (?, 'go.aasa.test', 0)", (two,))
    [finding] = findings()
    assert finding["severity"] == "error" and finding["subject"] == "go.aasa.test", finding
    assert "one domain per app" in finding["fix"], finding
    assert "several iOS apps" in finding["message"], finding
