"""Black-box tests of visits of links with options (issue 35, decision 0032): rules by
country (a test GeoIP file), language, device and platform, `skipApp`, A/B variants and their
cookie over 1,000 visits, UTM and the visitor's query, expiry. The links are made through the
workspace API's fields as decision 0032 names them; clicks are read from the store."""
import math, os, subprocess, tempfile, time, urllib.parse

import pytest

from fixtures_data import (
    DEMO_HOST, UA_ANDROID, UA_DESKTOP, UA_IPHONE, api, barrier, clicks, start_demo, update_domain, visit)

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE_MMDB = os.path.join(HERE, "..", "geoip", "make-mmdb.pl")
UA_IPAD = ("Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
           "Version/17.4 Mobile/15E148 Safari/604.1")
UA_ANDROID_TABLET = ("Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) "
                     "Chrome/123.0.0.0 Safari/537.36")
DEMO_APP_LINK = "invite"


@pytest.fixture
def demo(edge_factory):
    return start_demo(edge_factory)


def new_link(edge, key, url="https://www.example.com/landing", **fields):
    return api(edge, "POST", "/links", {"domain": DEMO_HOST, "key": key, "url": url, **fields})


def app_id(edge):
    links = api(edge, "GET", f"/links?domain={DEMO_HOST}")["data"]
    return next(l["mobile"]["appId"] for l in links if l["key"] == DEMO_APP_LINK)


def location(edge, path, ua=UA_DESKTOP, headers=None):
    status, h, _ = visit(edge, path, ua=ua, headers=headers)
    assert status == 302, (path, status, h)
    return h["location"]


# ---------------------------------------------------------------- rules


def test_countries_come_from_the_geoip_file_and_no_country_matches_no_country_rule(edge_factory):
    if subprocess.run(["perl", "-MMaxMind::DB::Writer::Tree", "-e", "1"], capture_output=True).returncode != 0:
        pytest.skip("libmaxmind-db-writer-perl is missing (BIQLI_SETUP_TEST=1 scripts/setup)")
    db = os.path.join(tempfile.mkdtemp(prefix="edge-rules-geoip-"), "country.mmdb")
    subprocess.run(["perl", MAKE_MMDB, db, "203.0.113.0/24=BR", "198.51.100.0/24=DE"], check=True,
                   capture_output=True)
    edge = start_demo(edge_factory, env={"BIQLI_EDGE_GEOIP_DB": db, "BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1"})
    new_link(edge, "geo", rules=[
        {"if": {"countries": ["BR", "PT"]}, "url": "https://br.example.com/"},
        {"if": {"countries": ["DE"]}, "url": "https://de.example.com/"},
    ])
    assert location(edge, "/geo", headers={"X-Forwarded-For": "203.0.113.7"}) == "https://br.example.com/"
    assert location(edge, "/geo", headers={"X-Forwarded-For": "198.51.100.7"}) == "https://de.example.com/"
    # Not in the file, and no address at all: the link's own URL.
    assert location(edge, "/geo", headers={"X-Forwarded-For": "192.0.2.1"}) == "https://www.example.com/landing"
    assert location(edge, "/geo") == "https://www.example.com/landing"
    barrier(edge)
    assert [c["country"] for c in clicks(edge)][:2] == ["BR", "DE"]


def test_languages_take_the_first_preferred_tag_and_a_prefix_covers_its_regions(demo):
    new_link(demo, "lang", rules=[
        {"if": {"languages": ["pt"]}, "url": "https://pt.example.com/"},
        {"if": {"languages": ["en-GB"]}, "url": "https://gb.example.com/"},
    ])
    assert location(demo, "/lang", headers={"Accept-Language": "pt-BR,en;q=0.8"}) == "https://pt.example.com/"
    assert location(demo, "/lang", headers={"Accept-Language": "en-GB,pt;q=0.9"}) == "https://gb.example.com/"
    assert location(demo, "/lang", headers={"Accept-Language": "en-US,pt;q=0.9"}) == "https://www.example.com/landing"
    assert location(demo, "/lang", headers={"Accept-Language": "fr;q=0.2, pt-PT;q=0.7"}) == "https://pt.example.com/"
    assert location(demo, "/lang") == "https://www.example.com/landing"


def test_devices_and_platforms(demo):
    new_link(demo, "dev", rules=[
        {"if": {"devices": ["tablet"]}, "url": "https://tablet.example.com/"},
        {"if": {"platforms": ["ios", "android"]}, "url": "https://phone.example.com/"},
        {"if": {}, "url": "https://rest.example.com/"},
    ])
    assert location(demo, "/dev", ua=UA_IPAD) == "https://tablet.example.com/"
    assert location(demo, "/dev", ua=UA_ANDROID_TABLET) == "https://tablet.example.com/"
    assert location(demo, "/dev", ua=UA_IPHONE) == "https://phone.example.com/"
    assert location(demo, "/dev", ua=UA_ANDROID) == "https://phone.example.com/"
    assert location(demo, "/dev", ua=UA_DESKTOP) == "https://rest.example.com/"


def test_skip_app_sends_mobile_visitors_of_an_app_link_to_the_rule_and_others_to_the_store(demo):
    new_link(demo, "skip", mobile={"appId": app_id(demo), "route": "/skip"}, rules=[
        {"if": {"languages": ["zh"]}, "url": "https://cn.example.com/", "skipApp": True},
    ])
    assert location(demo, "/skip", ua=UA_ANDROID, headers={"Accept-Language": "zh-CN"}) == "https://cn.example.com/"
    assert location(demo, "/skip", ua=UA_ANDROID).startswith("https://play.google.com/")
    barrier(demo)
    first = clicks(demo)[0]
    assert (first["kind"], first["platform"]) == ("desktop", "android")


# ---------------------------------------------------------------- variants


def test_variants_split_1000_visits_by_weight_and_keep_a_returning_visitor(demo):
    arms = [{"url": "https://a.example.com/", "weight": 70}, {"url": "https://b.example.com/", "weight": 30}]
    new_link(demo, "ab", variants=arms)
    n, seen, cookies = 1000, {0: 0, 1: 0}, {}
    for _ in range(n):
        status, h, _ = visit(demo, "/ab", ua=UA_DESKTOP)
        assert status == 302
        arm = [a["url"] for a in arms].index(h["location"])
        seen[arm] += 1
        cookie = h["set-cookie"]
        assert cookie.startswith(f"bq_v={arm}.") and "Path=/ab" in cookie and "HttpOnly" in cookie
        assert "SameSite=Lax" in cookie and "Secure" in cookie and "Max-Age=7776000" in cookie
        cookies[arm] = cookie.split(";")[0]
    # Binomial: sd = sqrt(n p (1 - p)) = 14.5 for p = 0.3; 4.5 sd misses a fair draw once in 150,000 runs.
    tolerance = 4.5 * math.sqrt(n * 0.3 * 0.7)
    assert abs(seen[1] - n * 0.3) < tolerance, seen
    # A returning visitor keeps the arm, and gets no new cookie.
    for arm in (0, 1):
        for _ in range(5):
            status, h, _ = visit(demo, "/ab", ua=UA_DESKTOP, headers={"Cookie": cookies[arm]})
            assert h["location"] == arms[arm]["url"] and "set-cookie" not in h
    barrier(demo)
    recorded = [c["variant"] for c in clicks(demo) if c["variant"] is not None]
    assert len(recorded) == n + 10
    assert recorded.count(1) == seen[1] + 5


def test_the_variant_cookie_is_secure_behind_a_trusted_proxy_that_says_https(edge_factory):
    edge = start_demo(edge_factory, env={"BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1"})
    new_link(edge, "abp", variants=[{"url": "https://a.example.com/", "weight": 50},
                                    {"url": "https://b.example.com/", "weight": 50}])
    # Plain HTTP to the edge, HTTPS to the proxy in front (which terminates TLS).
    status, h, _ = visit(edge, "/abp", ua=UA_DESKTOP, tls=False, headers={"X-Forwarded-Proto": "https"})
    assert status == 302 and h["set-cookie"].startswith("bq_v=")
    assert [a.strip() for a in h["set-cookie"].split(";")][-1] == "Secure", h["set-cookie"]


def test_an_edited_test_draws_every_visitor_afresh(demo):
    link = new_link(demo, "ab2", variants=[{"url": "https://a.example.com/", "weight": 50},
                                           {"url": "https://b.example.com/", "weight": 50}])
    old = visit(demo, "/ab2", ua=UA_DESKTOP)[1]["set-cookie"].split(";")[0]
    api(demo, "PATCH", f"/links/{link['id']}", {"variants": [{"url": "https://a.example.com/", "weight": 20},
                                                              {"url": "https://b.example.com/", "weight": 80}]})
    time.sleep(0.2)
    assert "set-cookie" in visit(demo, "/ab2", ua=UA_DESKTOP, headers={"Cookie": old})[1]


# ---------------------------------------------------------------- UTM and the visitor's query


def test_utm_and_pass_query_shape_the_destination(demo):
    new_link(demo, "utm", url="https://www.example.com/p?utm_source=old&x=1#top", passQuery=True,
             utm={"source": "news letter", "medium": "email", "campaign": None})
    got = location(demo, "/utm?x=2&ref=bob&bq_id=z&biqli_token=t")
    assert got == "https://www.example.com/p?x=1&utm_source=news%20letter&utm_medium=email&ref=bob#top"


def test_the_visitors_query_is_dropped_past_4096_bytes(demo):
    new_link(demo, "long", passQuery=True)
    assert location(demo, "/long?a=" + "x" * 5000) == "https://www.example.com/landing"
    assert location(demo, "/long?a=1") == "https://www.example.com/landing?a=1"


def test_the_domains_pass_query_is_the_default(demo):
    new_link(demo, "dq")
    assert location(demo, "/dq?a=1") == "https://www.example.com/landing"
    update_domain(demo, DEMO_HOST, passQuery=True)
    time.sleep(0.2)
    assert location(demo, "/dq?a=1") == "https://www.example.com/landing?a=1"


# ---------------------------------------------------------------- expiry


def rfc3339(ms):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + f".{ms % 1000:03d}Z"


def test_a_link_expires_at_its_instant(demo):
    at = int(time.time() * 1000) + 1500
    new_link(demo, "soon", expiresAt=rfc3339(at), expiredUrl="https://www.example.com/over")
    assert location(demo, "/soon") == "https://www.example.com/landing"
    time.sleep(max(0, at / 1000 - time.time()) + 0.05)
    for ua in (UA_DESKTOP, UA_ANDROID, UA_IPHONE):
        assert location(demo, "/soon", ua=ua) == "https://www.example.com/over"


def test_an_expired_link_without_an_expired_url_is_a_localized_410_and_records_nothing(demo):
    new_link(demo, "gone", expiresAt="2020-01-01T00:00:00Z")
    status, h, body = visit(demo, "/gone", ua=UA_DESKTOP, headers={"Accept-Language": "pt-BR"})
    assert status == 410 and "Este link expirou" in body.decode()
    barrier(demo)
    assert clicks(demo) == []
