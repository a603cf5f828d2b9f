"""A link's analytics, countries and QR codes (issue 19, items 4 to 6), on the real binary:
visits with different user agents counted by UTC day, platform, kind and in-app browser;
opens by match type; the `days` rule; countries from a GeoIP database written here with
Debian's libmaxmind-db-writer-perl (the client address taken through a trusted proxy's
X-Forwarded-For), the file reloaded when it changes, and the address itself never stored;
QR codes that zbar (Debian's zbar-tools) reads back as the short URL, the SVG drawn to PNG
by rsvg-convert first."""
import json, os, shutil, subprocess, tempfile, time, uuid

import backend
import pytest
from edge import request
from fixtures_data import (DEMO_APP_ID, DEMO_HOST, LINK_IDS, UA_ANDROID, UA_DESKTOP, UA_INSTAGRAM_IOS, UA_IPHONE,
                           _rows, android_token, api, barrier, clicks, deep_view_token, resolve_android, start_demo,
                           visit)
from test_resolver import Device

INVITE = LINK_IDS["invite"]
HERE = os.path.dirname(os.path.abspath(__file__))
MAKE_MMDB = os.path.join(HERE, "..", "geoip", "make-mmdb.pl")


def today():
    return time.strftime("%Y-%m-%d", time.gmtime())


def analytics(edge, link=INVITE, days=1):
    return api(edge, "GET", f"/links/{link}/analytics?days={days}")


def raw_get(edge, path):
    """A workspace API GET answered with bytes: (status, headers, body)."""
    return request(edge.https_port, "/api/v1" + path, headers={"Authorization": "Bearer " + edge.secret_key},
                   tls=True, sni=DEMO_HOST, host=DEMO_HOST)


# ---------------------------------------------------------------- counts


def test_visits_are_counted_by_day_platform_kind_and_in_app_browser(edge_factory):
    edge = start_demo(edge_factory)
    for ua, expected in ((UA_DESKTOP, 302), (UA_DESKTOP, 302), (UA_ANDROID, 302), (UA_IPHONE, 200),
                         (UA_INSTAGRAM_IOS, 200), (UA_INSTAGRAM_IOS, 200), ("facebookexternalhit/1.1", 200)):
        assert visit(edge, "/invite", ua=ua)[0] == expected, ua
    assert visit(edge, "/promo", ua=UA_DESKTOP)[0] == 302  # another link
    barrier(edge, key="promo")  # everything queued before it is committed, counts included (one Android click)
    body = analytics(edge)
    c = body["clicks"]
    assert c["total"] == 7
    assert c["byPlatform"] == {"ios": 3, "android": 1, "desktop": 2, "bot": 1}
    # Instagram's iOS visits get the Deep View with its in-app part (issue 36).
    assert c["byKind"] == {"android_redirect": 1, "deep_view": 1, "ios_fallback": 0, "desktop": 2, "preview_bot": 1,
                          "play_intent": 0, "app_intent": 0, "in_app_page": 2}
    assert c["byInAppBrowser"] == {"none": 5, "instagram": 2}
    assert c["byCountry"] == {"unknown": 7}, "no GeoIP database: every country unknown"
    assert c["daily"] == [{"day": today(), "total": 7, "byPlatform": c["byPlatform"]}]
    assert body["since"] == today() + "T00:00:00.000Z" and body["shortUrl"] == "https://go.example.test/invite"
    # The app's own analytics saw the same visits (its hourly counts are kept apart).
    assert api(edge, "GET", f"/mobile-apps/{DEMO_APP_ID}/analytics?days=1")["clicks"]["byKind"]["in_app_page"] == 2
    promo = analytics(edge, LINK_IDS["promo"], days=7)["clicks"]
    assert promo["total"] == 2 and promo["byPlatform"]["desktop"] == promo["byPlatform"]["android"] == 1
    assert [d["total"] for d in promo["daily"]] == [0, 0, 0, 0, 0, 0, 2]


def test_referring_sites_are_counted_by_host_alone(edge_factory):
    """The Referer's host, lowercased and without www., per link and day; the page, its
    query and anything that is not an http(s) URL are never kept; client-side clicks and
    bots count as none."""
    edge = start_demo(edge_factory)
    sent = [("https://t.co/AbC123", 302), ("https://t.co/other", 302),
            ("https://WWW.News.Example.org/p?secret=s3cr3t", 302), ("android-app://com.google.android.gm/", 302),
            (None, 302)]
    for referer, expected in sent:
        headers = {"Referer": referer} if referer else {}
        assert visit(edge, "/invite", ua=UA_DESKTOP, headers=headers)[0] == expected, referer
    assert visit(edge, "/invite", ua=UA_IPHONE, headers={"Referer": "https://l.instagram.com/?u=x"})[0] == 200
    assert visit(edge, "/invite", ua="facebookexternalhit/1.1", headers={"Referer": "https://t.co/"})[0] == 200
    barrier(edge, key="promo")
    c = analytics(edge)["clicks"]
    assert c["total"] == 7
    assert c["byReferrer"] == {"none": 3, "t.co": 2, "l.instagram.com": 1, "news.example.org": 1}, c["byReferrer"]
    assert analytics(edge, LINK_IDS["promo"])["clicks"]["byReferrer"] == {"none": 1}
    # Only hosts were stored (no page, no query), and only for clicks that had one.
    stored = [r["referrer"] for r in _rows(edge, "SELECT referrer FROM link_referrer_counts")]
    assert sorted(stored) == ["l.instagram.com", "news.example.org", "t.co"], stored
    assert not any("s3cr3t" in str(v) for row in _rows(edge, "SELECT * FROM clicks") for v in row.values())


def test_opens_of_a_link_are_counted_by_match_type(edge_factory):
    edge = start_demo(edge_factory)
    status, answer = resolve_android(edge, android_token(edge))
    assert status == 200 and answer["open"]["matchedBy"] == "exact_install_referrer", answer
    token = deep_view_token(edge)
    phone = Device(edge, "ios")
    assert phone.open(handoff=token).json["open"]["matchedBy"] == "exact_handoff"
    assert phone.open(deep_link="https://go.example.test/invite", first_open=False).json["open"]["matchedBy"] \
        == "exact_app_link"
    # An open of another link counts there, not here.
    assert Device(edge, "ios").open(deep_link="https://go.example.test/promo").json["open"]["matchedBy"] \
        == "exact_app_link"
    opens = analytics(edge)["opens"]
    assert opens["byMatchType"] == {"exact_app_link": 1, "exact_install_referrer": 1, "exact_handoff": 1,
                                    "probabilistic": 0, "none": 0}
    assert opens["total"] == 3 and opens["firstOpens"] == 2
    assert opens["daily"] == [{"day": today(), "total": 3, "byMatchType": opens["byMatchType"]}]
    assert analytics(edge, LINK_IDS["promo"])["opens"]["total"] == 1


def test_days_are_1_to_365_and_an_unknown_link_is_404_with_the_envelope(edge_factory):
    edge = start_demo(edge_factory)
    for days in ("0", "366", "-3", "seven", "1.5"):
        status, _, raw = raw_get(edge, f"/links/{INVITE}/analytics?days={days}")
        body = json.loads(raw)
        assert status == 400 and body["error"]["code"] == "validation_error", (days, body)
        assert body["error"]["details"]["field"] == "days" and body["request_id"]
    year = analytics(edge, days=365)
    assert len(year["clicks"]["daily"]) == 365 and len(year["opens"]["daily"]) == 365
    assert year["clicks"]["daily"][-1]["day"] == today()
    assert all(d["total"] == 0 for d in year["clicks"]["daily"])
    assert len(api(edge, "GET", f"/links/{INVITE}/analytics")["clicks"]["daily"]) == 30
    status, headers, raw = raw_get(edge, "/links/biq_lnk_01ARZ3NDEKTSV4RRFFQ69G5FAV/analytics")
    assert status == 404 and json.loads(raw)["error"]["code"] == "resource_not_found"
    assert headers["cache-control"] == "no-store"


# ---------------------------------------------------------------- countries


def make_mmdb(path, *networks):
    """A MaxMind DB mapping each `NETWORK=CC` (see tests/geoip/make-mmdb.pl), swapped in by a rename."""
    subprocess.run(["perl", MAKE_MMDB, path, *networks], check=True, capture_output=True)


def needs_mmdb_writer():
    if subprocess.run(["perl", "-MMaxMind::DB::Writer::Tree", "-e", "1"], capture_output=True).returncode != 0:
        pytest.skip("libmaxmind-db-writer-perl is missing (BIQLI_SETUP_TEST=1 scripts/setup)")


def wait_for_log(edge, message, count, timeout=15):
    deadline = time.time() + timeout
    while time.time() < deadline:
        seen = [json.loads(l) for l in list(edge.lines) if message in l]
        if len(seen) >= count:
            return seen
        time.sleep(0.05)
    raise AssertionError(f"no {count} x {message!r} in {edge.lines[-10:]}")


def stored_text(edge):
    """Every byte the store keeps that a client address could hide in: the SQLite file and its
    WAL, or on PostgreSQL every row of the tables a visit writes, as text."""
    if edge.database_url:
        rows = []
        for table in ("clicks", "handoffs", "click_counts", "link_click_counts", "link_open_counts"):
            rows += [json.dumps(r, default=str) for r in backend.rows(edge.database_url, f"SELECT * FROM {table}")]
        return "\n".join(rows).encode()
    data = b""
    for suffix in ("", "-wal"):
        path = os.path.join(edge.dir, "edge.sqlite3" + suffix)
        if os.path.exists(path):
            data += open(path, "rb").read()
    return data


def test_countries_come_from_the_geoip_database_and_the_address_is_never_stored(edge_factory):
    needs_mmdb_writer()
    folder = tempfile.mkdtemp(prefix="edge-geoip-")
    db = os.path.join(folder, "country.mmdb")
    make_mmdb(db, "127.0.0.0/8=DE", "203.0.113.0/24=FR", "2001:db8::/32=JP")
    edge = start_demo(edge_factory, env={"BIQLI_EDGE_GEOIP_DB": db, "BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1"})
    loaded = wait_for_log(edge, "GeoIP database loaded", 1)[0]
    assert loaded["path"] == db and loaded["type"] == "biqli-Test-Country"

    def go(forwarded, ua=UA_DESKTOP, key="/promo"):
        headers = {"X-Forwarded-For": forwarded} if forwarded else None
        assert visit(edge, key, ua=ua, headers=headers)[0] in (200, 302)

    go("203.0.113.77")
    go("198.18.0.1, 203.0.113.78")  # the rightmost untrusted address counts
    go("2001:db8::7", ua=UA_ANDROID)
    go("127.0.0.5")  # a client on this machine (not a trusted proxy)
    go(None)  # the trusted proxy named nobody: the client is unknown, so is its country
    go("192.0.2.55", ua=UA_IPHONE)  # not in the file
    barrier(edge)
    counts = analytics(edge, LINK_IDS["promo"])["clicks"]
    assert counts["byCountry"] == {"unknown": 2, "FR": 2, "DE": 1, "JP": 1}, counts
    stored = [c["country"] for c in clicks(edge) if c["link_id"] == LINK_IDS["promo"]]
    assert sorted(stored, key=str) == ["DE", "FR", "FR", "JP", None, None], stored
    # Only the country: no address in any stored byte, and none in the log.
    text = stored_text(edge)
    for address in (b"203.0.113.77", b"203.0.113.78", b"198.18.0.1", b"2001:db8::7", b"192.0.2.55"):
        assert address not in text, address
        assert not any(address.decode() in line for line in edge.lines), address

    # A new file (renamed over the old one) is used without a restart...
    make_mmdb(db, "203.0.113.0/24=IT")
    wait_for_log(edge, "GeoIP database loaded", 2)
    go("203.0.113.99")
    barrier(edge)
    assert [c["country"] for c in clicks(edge) if c["link_id"] == LINK_IDS["promo"]][-1] == "IT"
    # ...and a broken one is refused with an error, the last good one staying in use.
    broken = db + ".new"
    open(broken, "wb").write(b"this is not a MaxMind DB")
    os.rename(broken, db)
    failed = wait_for_log(edge, "GeoIP database unusable", 1)[0]
    assert failed["level"] == "error" and db in failed["detail"]
    go("203.0.113.100")
    barrier(edge)
    assert [c["country"] for c in clicks(edge) if c["link_id"] == LINK_IDS["promo"]][-1] == "IT"
    assert edge.proc.poll() is None
    shutil.rmtree(folder, ignore_errors=True)


def test_a_geoip_database_that_cannot_be_read_stops_the_start(edge_factory):
    folder = tempfile.mkdtemp(prefix="edge-geoip-")
    path = os.path.join(folder, "missing.mmdb")
    edge = edge_factory(env={"BIQLI_EDGE_GEOIP_DB": path}, wait=False)
    assert edge.proc.wait(timeout=20) != 0
    time.sleep(0.2)
    assert any("BIQLI_EDGE_GEOIP_DB" in l and path in l for l in edge.stderr_lines + edge.lines), edge.stderr_lines


# ---------------------------------------------------------------- QR codes


def zbar(png_bytes):
    with tempfile.NamedTemporaryFile(suffix=".png") as f:
        f.write(png_bytes)
        f.flush()
        out = subprocess.run(["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", f.name],
                             capture_output=True, text=True)
    return out.stdout.strip()


def test_qr_codes_read_back_as_the_short_url_in_png_and_svg(edge_factory):
    if not shutil.which("zbarimg") or not shutil.which("rsvg-convert"):
        pytest.skip("zbar-tools and librsvg2-bin are missing (BIQLI_SETUP_TEST=1 scripts/setup)")
    edge = start_demo(edge_factory)
    url = "https://go.example.test/invite"
    for query in ("", "?size=128", "?size=300&margin=1&level=L", "?size=1024&margin=8&level=H", "?level=Q"):
        status, headers, png = raw_get(edge, f"/links/{INVITE}/qr.png{query}")
        assert status == 200, (query, png[:300])
        assert headers["content-type"] == "image/png" and headers["cache-control"] == "private, max-age=300"
        assert headers["content-disposition"] == 'inline; filename="qr-invite.png"' and headers["x-biq-request-id"]
        assert zbar(png) == url, query

        status, headers, svg = raw_get(edge, f"/links/{INVITE}/qr.svg{query}")
        assert status == 200 and headers["content-type"] == "image/svg+xml", (query, svg[:300])
        assert svg.startswith(b"<svg ") and b'shape-rendering="crispEdges"' in svg
        drawn = subprocess.run(["rsvg-convert", "--width", "600", "--format", "png"], input=svg,
                               capture_output=True, check=True).stdout
        assert zbar(drawn) == url, query

    # A link whose key changes gets a code of its new URL.
    other = api(edge, "POST", "/links", {"domain": DEMO_HOST, "key": "qr-" + uuid.uuid4().hex[:8],
                                          "url": "https://www.example.com/"})
    status, _, png = raw_get(edge, f"/links/{other['id']}/qr.png")
    assert status == 200 and zbar(png) == other["shortUrl"]
    for query, field in (("size=63", "size"), ("size=4096", "size"), ("margin=17", "margin"), ("level=Z", "level")):
        status, headers, raw = raw_get(edge, f"/links/{INVITE}/qr.png?{query}")
        body = json.loads(raw)
        assert status == 400 and body["error"]["details"]["field"] == field, (query, body)
        assert headers["content-type"] == "application/json"
    status, _, raw = raw_get(edge, "/links/biq_lnk_01ARZ3NDEKTSV4RRFFQ69G5FAV/qr.svg")
    assert status == 404 and json.loads(raw)["error"]["code"] == "resource_not_found"
