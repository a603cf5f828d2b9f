"""Black-box tests of the association files (issue 6) against the real binary: HTTPS with SNI on
two domains with different apps (go.example.test: the demo app; links.example.test: a second
app with another team, bundle, package and certificate), and plain HTTP."""
import fnmatch, json, re
import pytest
from edge import Conn
from fixtures_data import (
    DEMO_APP_ID, DEMO_FINGERPRINT, DEMO_HOST, SECOND_HOST, UA_IPHONE, android_platform, api, create_app,
    delete_app, demo_ios, ios_platform, put_domain, start_demo, update_app, visit)

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
