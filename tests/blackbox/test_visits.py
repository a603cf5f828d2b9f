"""Black-box tests of short-link visits (issue 5) against the real binary, over HTTPS with SNI
go.example.test unless a test says otherwise. Data: `serve --demo` plus `fixtures_data`."""
import base64, os, re, signal, sqlite3, threading, time, urllib.parse
from concurrent.futures import ThreadPoolExecutor
import pytest
from edge import request
from fixtures_data import (
    DEMO_APP_ID, DEMO_HOST, HANDOFF_URL_RE, LINK_IDS, TOKEN_RE, UA_ANDROID, UA_DESKTOP, UA_INSTAGRAM_IOS,
    UA_IPHONE, UA_MAC_SAFARI, android_token, barrier, click, clicks, deep_view_token, delete_app, demo_android,
    demo_ios, handoff, handoffs, referrer_token, resolve_android, start_demo, update_app, update_domain,
    update_link, visit)


@pytest.fixture
def demo(edge_factory):
    return start_demo(edge_factory)


PLAY_PREFIX = "https://play.google.com/store/apps/details?id=com.example.demo&referrer="

# ---------------------------------------------------------------- Android


def test_android_visit_redirects_to_play_with_the_token_nested_once_in_referrer(demo):
    status, headers, body = visit(demo, "/invite?ref=BOB", ua=UA_ANDROID)
    assert status == 302 and body == b""
    location = headers["location"]
    assert location.startswith(PLAY_PREFIX), location
    assert headers["cache-control"] == "no-store"
    assert "referrer-policy" in headers
    assert "#" not in location
    # Exactly two query items: a raw `&` inside the value would have split it into more.
    items = urllib.parse.urlsplit(location).query.split("&")
    assert [i.split("=", 1)[0] for i in items] == ["id", "referrer"]
    raw = items[1].split("=", 1)[1]
    assert "&" not in raw and "#" not in raw and "=" not in raw
    decoded = urllib.parse.unquote(raw)  # Play decodes once
    assert re.fullmatch(r"biqli_token=.{48}", decoded), decoded
    token = urllib.parse.parse_qs(decoded)["biqli_token"][0]
    assert TOKEN_RE.match(token), token
    assert decoded == "biqli_token=" + token
    assert raw == "biqli_token%3D" + token  # encoded exactly once, not twice
    stored = handoff(demo, token)
    assert stored is not None and stored["platform"] == "android" and stored["app_id"] == DEMO_APP_ID
    assert stored["link_id"] == LINK_IDS["invite"] and stored["short_url"] == "https://go.example.test/invite"
    c = click(demo, stored["click_id"])
    assert (c["kind"], c["platform"], c["link_id"], c["app_id"]) == (
        "android_redirect", "android", LINK_IDS["invite"], DEMO_APP_ID)


def test_the_handoff_is_durable_when_the_play_redirect_arrives(demo):
    # No barrier, no wait: the row must be there the moment the response is read.
    for _ in range(5):
        token = android_token(demo)
        assert handoff(demo, token) is not None


# In-app web views on Android get intents instead (issue 36): test_in_app_android.py.


def test_a_biqli_token_in_the_visit_query_never_reaches_the_referrer(demo):
    evil = "bqmh_" + "A" * 43
    status, headers, _ = visit(demo, f"/invite?biqli_token={evil}&ref=BOB", ua=UA_ANDROID)
    assert status == 302
    decoded = urllib.parse.unquote(urllib.parse.urlsplit(headers["location"]).query.split("referrer=", 1)[1])
    token = urllib.parse.parse_qs(decoded)["biqli_token"]
    assert len(token) == 1 and token[0] != evil and decoded == "biqli_token=" + token[0]


def test_an_operator_play_url_keeps_its_items_and_referrer_and_nests_the_token_once(demo):
    update_app(demo, DEMO_APP_ID, android=demo_android(playStoreUrl=(
        "https://play.google.com/store/apps/details?id=com.example.demo&hl=de"
        "&referrer=utm_source%3Dnewsletter%26utm_medium%3Demail#frag")))
    status, headers, _ = visit(demo, "/invite", ua=UA_ANDROID)
    assert status == 302
    location = headers["location"]
    assert location.startswith("https://play.google.com/store/apps/details?id=com.example.demo&hl=de&referrer=")
    assert "#" not in location
    raw = location.split("referrer=", 1)[1]
    assert "&" not in raw
    decoded = urllib.parse.unquote(raw)
    token = urllib.parse.parse_qs(decoded)["biqli_token"][0]
    assert TOKEN_RE.match(token)
    assert decoded == "utm_source=newsletter&utm_medium=email&biqli_token=" + token
    assert len(decoded.encode()) < 200
    assert handoff(demo, token) is not None


def test_the_handoff_lives_as_long_as_the_app_says(demo):
    stored = handoff(demo, android_token(demo))
    assert stored["expires_at"] - stored["created_at"] == 86_400 * 1000
    update_app(demo, DEMO_APP_ID, handoffLifetimeSeconds=600)
    stored = handoff(demo, deep_view_token(demo))
    assert stored["expires_at"] - stored["created_at"] == 600 * 1000


# ---------------------------------------------------------------- iOS Deep View


@pytest.mark.parametrize("ua,in_app", [(UA_IPHONE, None), (UA_INSTAGRAM_IOS, "instagram")],
                         ids=["iphone-safari", "instagram-ios"])
def test_ios_visit_gets_the_deep_view_with_exactly_one_handoff_url(demo, ua, in_app):
    status, headers, body = visit(demo, "/invite", ua=ua)
    assert status == 200
    assert headers["content-type"].startswith("text/html")
    html = body.decode()
    found = HANDOFF_URL_RE.findall(html)
    assert len(found) == 1 and found[0][0] == DEMO_HOST, found
    token = found[0][1]
    assert html.count("biqli_token") == 1 and html.count(token) == 1
    assert '<meta name="apple-itunes-app" content="app-id=1234567890">' in html
    assert 'href="https://apps.apple.com/app/id1234567890"' in html

    csp = headers["content-security-policy"]
    nonce = re.search(r"script-src 'nonce-([A-Za-z0-9_+/=-]+)'", csp)
    assert nonce, csp
    raw = nonce.group(1)
    assert len(base64.urlsafe_b64decode(raw.replace("+", "-").replace("/", "_") + "=" * (-len(raw) % 4))) >= 16
    assert "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert f'nonce="{raw}"' in html  # the page's script carries this response's nonce
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["cache-control"] == "no-store"
    assert headers["strict-transport-security"].startswith("max-age=")

    stored = handoff(demo, token)
    assert stored is not None and stored["platform"] == "ios" and stored["route"] == "/invite/accepted"
    c = click(demo, stored["click_id"])
    # In an in-app browser the Deep View has its in-app part (issue 36): test_in_app_ios.py.
    kind = "in_app_page" if in_app else "deep_view"
    assert (c["kind"], c["platform"], c["in_app_browser"]) == (kind, "ios", in_app)

    # A fresh nonce per response.
    _, again, _ = visit(demo, "/invite", ua=ua)
    assert again["content-security-policy"] != csp


UA_FACEBOOK_IOS = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                   "Mobile/15E148 [FBAN/FBIOS;FBAV/449.0.0.34.109;FBBV/567034473;FBDV/iPhone14,5;FBMD/iPhone;"
                   "FBSN/iOS;FBSV/17.3.1;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/568785539]")
UA_IPAD = ("Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
           "Version/17.4 Mobile/15E148 Safari/604.1")
UA_CHROME_IOS = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                 "CriOS/123.0.6312.52 Mobile/15E148 Safari/604.1")


@pytest.mark.parametrize("ua,in_app,os_version", [
    (UA_FACEBOOK_IOS, "facebook", "17.3.1"), (UA_IPAD, None, "17.4"), (UA_CHROME_IOS, None, "17.4")],
    ids=["facebook-ios", "ipad-safari", "chrome-ios"])
def test_other_ios_browsers_get_the_deep_view_too(demo, ua, in_app, os_version):
    stored = handoff(demo, deep_view_token(demo, ua=ua))
    c = click(demo, stored["click_id"])
    kind = "in_app_page" if in_app else "deep_view"
    assert (c["kind"], c["platform"], c["in_app_browser"], c["os_version"]) == (kind, "ios", in_app, os_version)


def test_a_testflight_app_gets_the_deep_view_without_the_smart_banner(demo):
    update_app(demo, DEMO_APP_ID, ios=demo_ios(appStoreId=None,
                                               testFlightUrl="https://testflight.apple.com/join/AbCdEf12"))
    status, _, body = visit(demo, "/invite", ua=UA_IPHONE)
    html = body.decode()
    assert status == 200 and len(HANDOFF_URL_RE.findall(html)) == 1
    assert 'href="https://testflight.apple.com/join/AbCdEf12"' in html
    assert "apple-itunes-app" not in html and "apps.apple.com" not in html


def test_configured_text_is_html_escaped_on_the_deep_view_and_preview(demo):
    nasty = '"><script>alert(1)</script><img src=x onerror=alert(2)>'
    update_link(demo, "invite", preview={"title": nasty, "description": nasty})
    for ua in (UA_IPHONE, BOTS["facebook"]):
        status, _, body = visit(demo, "/invite", ua=ua)
        html = body.decode()
        assert status == 200
        assert "<script>alert" not in html and "<img src=x" not in html, ua
        assert "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in html, ua


@pytest.mark.parametrize("switch", ["domain", "link"])
def test_deep_view_switched_off_sends_ios_to_the_fallback_without_a_handoff(demo, switch):
    if switch == "domain":
        update_domain(demo, DEMO_HOST, deepViewEnabled=False)
    else:
        update_link(demo, "invite", mobile={"deepView": False})
    status, headers, body = visit(demo, "/invite?ref=BOB", ua=UA_IPHONE)
    assert (status, headers.get("location")) == (302, "https://www.example.com/ios")
    assert headers["cache-control"] == "no-store" and b"biqli_token" not in body
    barrier(demo)
    assert handoffs(demo) == []
    assert [(c["kind"], c["platform"], c["link_id"]) for c in clicks(demo)] == [
        ("ios_fallback", "ios", LINK_IDS["invite"])]
    # Android is not affected by the Deep View switches.
    assert visit(demo, "/invite", ua=UA_ANDROID)[1]["location"].startswith(PLAY_PREFIX)


def test_without_an_ios_fallback_url_the_switched_off_deep_view_goes_to_the_app_store(demo):
    update_app(demo, DEMO_APP_ID, ios=demo_ios(fallbackUrl=None))
    update_link(demo, "invite", mobile={"deepView": False})
    status, headers, _ = visit(demo, "/invite", ua=UA_IPHONE)
    assert (status, headers.get("location")) == (302, "https://apps.apple.com/app/id1234567890")


# ---------------------------------------------------------------- desktop, web-only links


@pytest.mark.parametrize("ua", [UA_DESKTOP, UA_MAC_SAFARI], ids=["linux-firefox", "mac-safari-or-ipados"])
def test_desktop_visit_redirects_to_the_web_url(demo, ua):
    status, headers, _ = visit(demo, "/invite?ref=BOB", ua=ua)
    assert (status, headers["location"], headers["cache-control"]) == (302, "https://www.example.com/invite",
                                                                       "no-store")
    barrier(demo)
    assert handoffs(demo) == []
    recorded = clicks(demo)
    assert [(c["kind"], c["platform"]) for c in recorded] == [("desktop", "desktop")]


@pytest.mark.parametrize("ua", [UA_ANDROID, UA_IPHONE], ids=["android", "iphone"])
def test_web_only_link_sends_phones_to_the_web_url(demo, ua):
    status, headers, _ = visit(demo, "/docs", ua=ua)
    assert (status, headers["location"], headers["cache-control"]) == (302, "https://www.example.com/docs",
                                                                       "no-store")
    barrier(demo)
    assert handoffs(demo) == []
    assert [c["link_id"] for c in clicks(demo)] == [LINK_IDS["docs"]]


def test_a_disabled_or_deleted_app_turns_its_links_into_web_links(demo):
    update_app(demo, DEMO_APP_ID, enabled=False)
    for ua in (UA_ANDROID, UA_IPHONE):
        status, headers, body = visit(demo, "/invite?ref=BOB", ua=ua)
        assert (status, headers.get("location")) == (302, "https://www.example.com/invite"), ua
    update_app(demo, DEMO_APP_ID, enabled=True)
    assert visit(demo, "/invite", ua=UA_ANDROID)[1]["location"].startswith(PLAY_PREFIX)
    before = len(handoffs(demo))
    delete_app(demo, DEMO_APP_ID)
    for ua in (UA_ANDROID, UA_IPHONE):
        status, headers, _ = visit(demo, "/promo", ua=ua)
        assert (status, headers.get("location")) == (302, "https://www.example.com/promo"), ua
    assert len(handoffs(demo)) == before


def test_an_app_without_a_platform_sends_that_platform_to_the_web_url(demo):
    update_app(demo, DEMO_APP_ID, android=None)
    status, headers, _ = visit(demo, "/invite", ua=UA_ANDROID)
    assert (status, headers.get("location")) == (302, "https://www.example.com/invite")
    assert visit(demo, "/invite", ua=UA_IPHONE)[0] == 200
    update_app(demo, DEMO_APP_ID, android=demo_android(), ios=None)
    status, headers, _ = visit(demo, "/invite", ua=UA_IPHONE)
    assert (status, headers.get("location")) == (302, "https://www.example.com/invite")
    barrier(demo)
    assert [h["platform"] for h in handoffs(demo)] == ["ios"]  # the Deep View visit in between


# ---------------------------------------------------------------- bots and HEAD

IMESSAGE = ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) "
            "Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0")
BOTS = {
    "facebook": "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "twitter": "Twitterbot/1.0",
    "slack": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "discord": "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
    "whatsapp": "WhatsApp/2.23.20.0 A",
    "imessage": IMESSAGE,
    "curl": "curl/8.5.0",
    "empty": "",
    "absent": None,
}


def test_link_preview_bots_get_open_graph_html_and_leave_no_click_or_handoff(demo):
    for name, ua in BOTS.items():
        for key in ("invite", "promo"):
            status, headers, body = visit(demo, f"/{key}?ref=BOB", ua=ua)
            assert status == 200, (name, key, status, headers.get("location"))
            assert headers["content-type"].startswith("text/html"), name
            html = body.decode()
            assert b"biqli_token" not in body and "bqmh_" not in html, name
            for tag in ('property="og:title"', 'property="og:description"', 'property="og:url"',
                        'name="twitter:card"'):
                assert tag in html, (name, key, tag)
        # The invite link's own preview, exactly.
        status, _, body = visit(demo, "/invite", ua=ua)
        html = body.decode()
        assert '<meta property="og:title" content="Join me on Biqli Demo">' in html, name
        assert ('<meta property="og:description" content="Accept the invite and get a welcome bonus.">'
                in html), name
        assert '<meta property="og:image" content="https://www.example.com/og/invite.png">' in html, name
        assert '<meta property="og:url" content="https://go.example.test/invite">' in html, name
        assert '<meta name="twitter:card" content="summary_large_image">' in html, name
    barrier(demo)
    assert clicks(demo) == [] and handoffs(demo) == []


@pytest.mark.parametrize("ua", [UA_ANDROID, UA_IPHONE, UA_DESKTOP, BOTS["facebook"]],
                         ids=["android", "iphone", "desktop", "bot"])
def test_head_records_no_click_and_no_handoff(demo, ua):
    for key in ("invite", "promo", "docs"):
        status, headers, body = visit(demo, f"/{key}?ref=BOB", ua=ua, method="HEAD")
        assert status in (200, 302) and body == b""
        assert "bqmh_" not in headers.get("location", "") and "biqli_token" not in headers.get("location", "")
    barrier(demo)
    assert clicks(demo) == [] and handoffs(demo) == []


# ---------------------------------------------------------------- clicks and dynamic values


def test_clicks_keep_only_the_allowed_dynamic_values(demo):
    token = android_token(demo, "invite", "?ref=BOB&utm_source=x&evil=1")
    stored = handoff(demo, token)
    assert stored["dynamic"] == [("ref", "BOB"), ("utm_source", "x")]
    assert click(demo, stored["click_id"])["dynamic"] == [("ref", "BOB"), ("utm_source", "x")]


def test_a_value_longer_than_256_characters_is_dropped_not_cut(demo):
    token = android_token(demo, "invite", "?ref=" + "a" * 257 + "&utm_source=" + "b" * 256)
    stored = handoff(demo, token)
    assert stored["dynamic"] == [("utm_source", "b" * 256)]
    assert click(demo, stored["click_id"])["dynamic"] == [("utm_source", "b" * 256)]


def test_repeated_keys_take_the_first_acceptable_value_and_query_order_is_kept(demo):
    token = android_token(demo, "invite", "?ref=&ref=bob&ref=carol&utm_source=a%20b%E2%82%AC&utm_source=z")
    assert handoff(demo, token)["dynamic"] == [("ref", "bob"), ("utm_source", "a b\u20ac")]
    keys = [f"k{i:02d}" for i in range(20)]  # the most a link may allow
    update_link(demo, "promo", mobile={"dynamicKeys": keys})
    query = "&".join(f"{k}=v{k}" for k in reversed(keys)) + "&k00=again&other=1&k05_x=2"
    token = android_token(demo, "promo", "?" + query)
    assert handoff(demo, token)["dynamic"] == [(k, "v" + k) for k in reversed(keys)]


def test_desktop_clicks_record_dynamic_values_too(demo):
    assert visit(demo, "/promo?campaign=spring&evil=1", ua=UA_DESKTOP)[0] == 302
    barrier(demo)
    [c] = clicks(demo)
    assert (c["link_id"], c["dynamic"]) == (LINK_IDS["promo"], [("campaign", "spring")])


def test_a_static_referral_code_wins_over_ref(demo):
    token = android_token(demo, "invite", "?ref=BOB&utm_source=x&evil=1")
    assert handoff(demo, token)["referral_code"] == "PARTNER_42"
    status, body = resolve_android(demo, token)
    assert status == 200, body
    assert body["open"]["matchedBy"] == "exact_install_referrer"
    assert body["link"]["route"] == "/invite/accepted"
    assert body["attribution"]["referralCode"] == "PARTNER_42"
    assert body["attribution"]["dynamic"] == {"ref": "BOB", "utm_source": "x"}
    assert body["attribution"]["metadata"] == {"campaign": "spring_launch"}


def test_ref_supplies_the_referral_code_when_the_link_has_none(demo):
    token = android_token(demo, "promo", "?ref=ALICE&campaign=spring&utm_source=dropped")
    assert handoff(demo, token)["referral_code"] == "ALICE"
    status, body = resolve_android(demo, token)
    assert status == 200, body
    assert body["open"]["matchedBy"] == "exact_install_referrer"
    assert body["link"] == {"id": LINK_IDS["promo"], "shortUrl": "https://go.example.test/promo",
                            "route": "/promo/spring"}
    assert body["attribution"]["referralCode"] == "ALICE"
    assert body["attribution"]["dynamic"] == {"ref": "ALICE", "campaign": "spring"}
    # Without a ref there is no referral code.
    token = android_token(demo, "promo", "?campaign=spring")
    assert handoff(demo, token)["referral_code"] is None
    # A ref longer than a referral code may be (128) stays a dynamic value only.
    token = android_token(demo, "promo", "?ref=" + "r" * 129)
    assert (handoff(demo, token)["referral_code"], handoff(demo, token)["dynamic"]) == (None, [("ref", "r" * 129)])
    token = android_token(demo, "promo", "?ref=" + "r" * 128)
    assert handoff(demo, token)["referral_code"] == "r" * 128


# ---------------------------------------------------------------- tokens and snapshots


def test_two_clicks_give_two_different_tokens(demo):
    android = {android_token(demo) for _ in range(3)}
    ios = {deep_view_token(demo) for _ in range(3)}
    assert len(android) == 3 and len(ios) == 3 and not android & ios
    assert len(handoffs(demo)) == 6
    assert len({h["click_id"] for h in handoffs(demo)}) == 6


def test_concurrent_visits_each_get_their_own_durable_handoff(demo):
    def one(i):
        if i % 2:
            return "android", android_token(demo, "promo", f"?ref=R{i}")
        return "ios", deep_view_token(demo, "promo", f"?ref=R{i}")
    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(one, range(48)))
    tokens = [t for _, t in results]
    assert len(set(tokens)) == 48
    for i, (platform, token) in enumerate(results):
        stored = handoff(demo, token)
        assert stored is not None, i
        assert (stored["platform"], stored["referral_code"], stored["dynamic"]) == (platform, f"R{i}",
                                                                                     [("ref", f"R{i}")])


def test_an_edit_after_a_click_leaves_that_clicks_handoff_unchanged(demo):
    old_android = android_token(demo, "invite", "?ref=BOB")
    old_ios = deep_view_token(demo, "invite")
    update_link(demo, "invite", url="https://www.example.com/invite-v2",
                mobile={"route": "/invite/v2", "referralCode": "NEWCODE", "metadata": {"campaign": "autumn"}})
    assert visit(demo, "/invite", ua=UA_DESKTOP)[1]["location"] == "https://www.example.com/invite-v2"

    assert handoff(demo, old_ios)["route"] == "/invite/accepted"
    assert handoff(demo, old_ios)["referral_code"] == "PARTNER_42"
    status, body = resolve_android(demo, old_android)
    assert status == 200, body
    assert body["link"]["route"] == "/invite/accepted"
    assert body["attribution"]["referralCode"] == "PARTNER_42"
    assert body["attribution"]["metadata"] == {"campaign": "spring_launch"}
    assert body["attribution"]["dynamic"] == {"ref": "BOB"}

    new_android = android_token(demo, "invite", "?ref=CAROL")
    status, body = resolve_android(demo, new_android)
    assert status == 200, body
    assert body["link"]["route"] == "/invite/v2"
    assert body["attribution"]["referralCode"] == "NEWCODE"
    assert body["attribution"]["metadata"] == {"campaign": "autumn"}
    assert handoff(demo, deep_view_token(demo, "invite"))["route"] == "/invite/v2"


# ---------------------------------------------------------------- iOS probabilistic signals


def test_ios_clicks_store_a_source_hash_and_the_os_version_others_none(demo):
    ios = click(demo, handoff(demo, deep_view_token(demo))["click_id"])
    assert isinstance(ios["source_hash"], bytes) and len(ios["source_hash"]) == 32
    assert b"127.0.0.1" not in ios["source_hash"]
    assert ios["os_version"] == "17.4"
    point = click(demo, handoff(demo, deep_view_token(demo, ua=UA_IPHONE.replace("17_4", "17_4_1")))["click_id"])
    assert point["os_version"] == "17.4.1" and point["source_hash"] == ios["source_hash"]

    android = click(demo, handoff(demo, android_token(demo))["click_id"])
    assert android["source_hash"] is None and android["os_version"] is None
    visit(demo, "/invite", ua=UA_DESKTOP)
    barrier(demo)
    [desktop] = [c for c in clicks(demo) if c["platform"] == "desktop"]
    assert desktop["source_hash"] is None and desktop["os_version"] is None
    # The raw address is stored nowhere in the click rows.
    for c in clicks(demo):
        assert "127.0.0.1" not in repr(c)


# ---------------------------------------------------------------- not found, disabled, root


def test_the_host_is_matched_without_case_port_or_trailing_dot(demo):
    for host in ("GO.Example.Test", f"go.example.test:{demo.https_port}", "go.example.test."):
        status, headers, _ = request(demo.https_port, "/invite", headers={"User-Agent": UA_DESKTOP}, tls=True,
                                     sni=DEMO_HOST, host=host)
        assert (status, headers.get("location")) == (302, "https://www.example.com/invite"), host


def test_unknown_host_gets_a_404_page(demo):
    for path in ("/invite", "/", "/m/handoff?biqli_token=x", "/a/b"):
        status, headers, body = visit(demo, path, ua=UA_IPHONE, host="unknown.example.test")
        assert status == 404, (path, status)
        assert headers["content-type"].startswith("text/html") and "location" not in headers


def test_unknown_key_gets_a_404_page_or_the_not_found_url(demo):
    for path in ("/nope", "/nope?ref=1", "/a/b", "/" + "x" * 65):
        status, headers, body = visit(demo, path, ua=UA_ANDROID)
        assert status == 404 and "location" not in headers, (path, status)
        assert headers["content-type"].startswith("text/html")
    update_domain(demo, DEMO_HOST, notFoundUrl="https://www.example.com/missing")
    for path in ("/nope", "/a/b"):
        status, headers, _ = visit(demo, path, ua=UA_ANDROID)
        assert (status, headers.get("location")) == (302, "https://www.example.com/missing"), path
    assert visit(demo, "/invite", ua=UA_DESKTOP)[1]["location"] == "https://www.example.com/invite"
    barrier(demo)
    assert handoffs(demo) == []


@pytest.mark.parametrize("path", [
    "/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "/%3Cscript%3Ealert(1)%3C/script%3E",
    "/x%22%3E%3Cscript%3Ealert(1)%3C/script%3E",
    "/%3Cimg%20src=x%20onerror=alert(1)%3E",
])
def test_a_key_with_markup_is_never_echoed_unescaped(demo, path):
    for ua in (UA_IPHONE, UA_DESKTOP, BOTS["facebook"]):
        status, headers, body = visit(demo, path, ua=ua)
        assert 400 <= status < 500, (status, path)
        text = body.decode("utf-8", "replace").lower()
        assert "<script>alert" not in text and "<img src=x" not in text and "alert(1)" not in text


def test_a_disabled_link_never_reaches_its_destination(demo):
    update_link(demo, "invite", enabled=False)
    for ua in (UA_ANDROID, UA_IPHONE, UA_DESKTOP):
        status, headers, body = visit(demo, "/invite?ref=BOB", ua=ua)
        assert status < 500 and status != 302 and "location" not in headers, (ua, status)
        assert b"biqli_token" not in body and b"www.example.com/invite" not in body
    update_domain(demo, DEMO_HOST, notFoundUrl="https://www.example.com/missing")
    status, headers, _ = visit(demo, "/invite", ua=UA_ANDROID)
    assert (status, headers.get("location")) == (302, "https://www.example.com/missing")
    barrier(demo, "promo")
    assert handoffs(demo) == [] and clicks(demo) == []


def test_root_gives_the_domain_page_or_the_root_url(demo):
    status, headers, body = visit(demo, "/", ua=UA_IPHONE)
    assert status == 200 and headers["content-type"].startswith("text/html") and "location" not in headers
    update_domain(demo, DEMO_HOST, rootUrl="https://www.example.com/")
    status, headers, _ = visit(demo, "/", ua=UA_IPHONE)
    assert (status, headers.get("location"), headers["cache-control"]) == (302, "https://www.example.com/",
                                                                           "no-store")


def test_the_handoff_url_opened_in_a_browser_explains_without_the_token(demo):
    token = deep_view_token(demo)
    status, headers, body = visit(demo, f"/m/handoff?biqli_token={token}", ua=UA_IPHONE)
    assert status == 200 and headers["content-type"].startswith("text/html")
    html = body.decode()
    assert token not in html and "bqmh_" not in html
    assert 'href="https://apps.apple.com/app/id1234567890"' in html
    assert headers["cache-control"] == "no-store" and headers["referrer-policy"] == "no-referrer"
    # Opening it does not spend or change the handoff, and records no click.
    before = handoff(demo, token)
    assert before["claimed_instance"] is None
    barrier(demo)
    assert len(clicks(demo)) == 1


# ---------------------------------------------------------------- plain HTTP


def test_plain_http_visits_are_redirected_to_https_with_308(demo):
    for path in ("/invite?ref=BOB&utm_source=x", "/promo", "/", "/m/handoff?biqli_token=abc", "/nope",
                 "/invite?ref=a%20b&x=%E2%82%AC&y=1+2"):
        status, headers, body = visit(demo, path, ua=UA_ANDROID, tls=False)
        assert status == 308, (path, status)
        assert headers["location"] == f"https://{DEMO_HOST}:{demo.https_port}{path}"
    barrier(demo)
    assert clicks(demo) == [] and handoffs(demo) == []


def test_an_absolute_form_request_keeps_its_path_and_query_in_the_308(demo):
    # RFC 9112 §3.2.2: servers accept absolute-form targets (what proxies send).
    for target, expected in ((f"http://{DEMO_HOST}/invite?ref=BOB", "/invite?ref=BOB"),
                             (f"http://{DEMO_HOST}/promo", "/promo"),
                             (f"http://{DEMO_HOST}?x=1", "/?x=1"),
                             (f"http://{DEMO_HOST}", "/")):
        status, headers, _ = request(demo.http_port, target, headers={"User-Agent": UA_ANDROID}, host=DEMO_HOST)
        assert (status, headers.get("location")) == (308, f"https://{DEMO_HOST}:{demo.https_port}{expected}"), target


def test_a_host_that_is_not_a_domain_gets_its_404_over_plain_http_not_a_redirect(demo):
    # edge-behaviour.md: unknown host -> 404; a 308 would send the visitor to a
    # certificate the edge does not have for that name.
    for host in ("unknown.example", "[::1]", f"[::1]:{demo.http_port}", "127.0.0.1"):
        for path in ("/invite?x=1", "/", "/m/handoff?biqli_token=abc"):
            status, headers, _ = request(demo.http_port, path, headers={"User-Agent": UA_DESKTOP}, host=host)
            assert status == 404 and "location" not in headers, (host, path, status)
    # The same request for the configured domain is redirected.
    status, headers, _ = request(demo.http_port, "/invite?x=1", headers={"User-Agent": UA_DESKTOP}, host=DEMO_HOST)
    assert (status, headers.get("location")) == (308, f"https://{DEMO_HOST}:{demo.https_port}/invite?x=1")


def test_with_https_redirect_off_visits_are_served_over_http(edge_factory):
    demo = start_demo(edge_factory, env={"BIQLI_EDGE_HTTPS_REDIRECT": "off"})
    status, headers, _ = visit(demo, "/invite?ref=BOB", ua=UA_ANDROID, tls=False)
    assert status == 302 and headers["location"].startswith(PLAY_PREFIX)
    assert TOKEN_RE.match(referrer_token(headers["location"]))
    status, _, body = visit(demo, "/invite", ua=UA_IPHONE, tls=False)
    assert status == 200 and len(HANDOFF_URL_RE.findall(body.decode())) == 1
    assert visit(demo, "/invite", ua=UA_DESKTOP, tls=False)[1]["location"] == "https://www.example.com/invite"


def test_association_files_over_http_are_never_redirected(demo):
    for path in ("/.well-known/apple-app-site-association", "/apple-app-site-association",
                 "/.well-known/assetlinks.json"):
        status, headers, _ = visit(demo, path, tls=False)
        assert status == 200 and "location" not in headers, (path, status)


# ---------------------------------------------------------------- logs


def _wait_for_log(edge, predicate, timeout=5):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if any(predicate(e) for e in edge.log_entries()):
            return
        time.sleep(0.02)
    raise AssertionError(f"no such log line: {edge.lines[-5:]}")


def test_the_token_never_appears_in_the_access_log(demo):
    tokens = [android_token(demo, "invite", "?ref=BOB"), deep_view_token(demo, "promo", "?ref=ALICE")]
    for t in tokens:
        assert visit(demo, f"/m/handoff?biqli_token={t}", ua=UA_IPHONE)[0] == 200
        assert visit(demo, f"/m/handoff?biqli_token={t}", ua=UA_IPHONE, tls=False)[0] == 308
    _wait_for_log(demo, lambda e: e.get("msg") == "request" and e.get("path") == "/m/handoff" and not e.get("tls"))
    _wait_for_log(demo, lambda e: e.get("msg") == "request" and e.get("path") == "/m/handoff" and e.get("tls"))
    everything = "\n".join(demo.lines + demo.stderr_lines)
    for t in tokens:
        assert t not in everything and t[5:] not in everything
    # The demo banner (plain text, on stderr) shows example URLs; the JSON log lines must not.
    logged = "\n".join(demo.lines)
    assert "biqli_token" not in logged and "bqmh_" not in logged
    assert "BOB" not in logged and "ALICE" not in logged  # nor the query's dynamic values


# ---------------------------------------------------------------- trusted proxies


def _ios_hash(edge, xff=None):
    headers = {"X-Forwarded-For": xff} if xff else None
    return click(edge, handoff(edge, deep_view_token(edge, headers=headers))["click_id"])["source_hash"]


def test_a_trusted_proxy_can_say_the_request_was_https(edge_factory):
    demo = start_demo(edge_factory, env={"BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1"})
    status, headers, _ = visit(demo, "/invite", ua=UA_ANDROID, tls=False, headers={"X-Forwarded-Proto": "https"})
    assert status == 302 and headers["location"].startswith(PLAY_PREFIX)
    assert visit(demo, "/invite", ua=UA_ANDROID, tls=False, headers={"X-Forwarded-Proto": "http"})[0] == 308
    assert visit(demo, "/invite", ua=UA_ANDROID, tls=False)[0] == 308


def test_a_trusted_proxys_forwarded_for_keys_the_ios_source_hash(edge_factory):
    demo = start_demo(edge_factory, env={"BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1"})
    a1 = _ios_hash(demo, "203.0.113.7")
    a2 = _ios_hash(demo, "203.0.113.7")
    b = _ios_hash(demo, "203.0.113.8")
    direct = _ios_hash(demo)
    assert a1 == a2
    assert len({a1, b, direct}) == 3
    # The rightmost untrusted address counts: a client cannot choose it by prepending one.
    assert _ios_hash(demo, "198.51.100.1, 203.0.113.7") == a1


def test_without_trusted_proxies_forwarded_headers_are_ignored(demo):
    direct = _ios_hash(demo)
    assert _ios_hash(demo, "203.0.113.7") == direct
    assert _ios_hash(demo, "203.0.113.8") == direct
    assert visit(demo, "/invite", ua=UA_ANDROID, tls=False, headers={"X-Forwarded-Proto": "https"})[0] == 308


# ---------------------------------------------------------------- store metrics


def metric(edge, name):
    status, _, body = request(edge.http_port, "/metrics")
    assert status == 200
    values = re.findall(rf"^{name} (\S+)$", body.decode(), re.M)
    assert len(values) == 1, (name, values)
    return float(values[0])


@pytest.mark.sqlite_only
def test_metrics_show_the_store_and_the_probabilistic_candidates(demo):
    # The demo app has probabilistic matching on: an iOS visit's click is a candidate.
    jobs, candidates = metric(demo, "biqli_store_jobs_total"), metric(demo, "biqli_probabilistic_candidates")
    assert visit(demo, "/invite", ua=UA_IPHONE)[0] == 200  # answered after its write committed
    assert metric(demo, "biqli_probabilistic_candidates") == candidates + 1
    assert metric(demo, "biqli_store_jobs_total") > jobs
    assert visit(demo, "/invite", ua=UA_ANDROID)[0] == 302  # no iOS click: no candidate
    assert metric(demo, "biqli_probabilistic_candidates") == candidates + 1
    for name in ("biqli_store_batches_total", "biqli_store_failed_jobs_total", "biqli_store_failed_commits_total",
                 "biqli_probabilistic_candidates_dropped_total", "biqli_store_writer_cpu_seconds_total",
                 "biqli_clicks_waiting"):
        assert metric(demo, name) >= 0
    assert metric(demo, "biqli_store_failed_jobs_total") == 0
    assert metric(demo, "biqli_clicks_dropped_total") == 0
    # A click written after its answer counts as waiting until its write is done.
    assert visit(demo, "/invite", ua=UA_DESKTOP)[0] == 302
    barrier(demo)  # committed after it, so its completion ran first
    assert metric(demo, "biqli_clicks_waiting") == 0
    # The database on disk and the space beside it, as the file system reports them.
    reported = metric(demo, "biqli_store_database_bytes")
    size = os.path.getsize(os.path.join(demo.dir, "edge.sqlite3"))  # a checkpoint may grow it meanwhile
    assert 0 < reported <= size < reported + 2**20, (reported, size)
    assert metric(demo, "biqli_store_wal_bytes") >= 0
    stats = os.statvfs(demo.dir)
    free = metric(demo, "biqli_store_disk_free_bytes")
    assert abs(free - stats.f_bavail * stats.f_frsize) < 256 * 2**20, (free, stats)
    assert metric(demo, "biqli_store_disk_size_bytes") == stats.f_blocks * stats.f_frsize


# ---------------------------------------------------------------- a write that cannot be made


@pytest.mark.sqlite_only
def test_a_visit_whose_write_fails_still_reaches_the_store_and_writes_nothing(edge_factory):
    """Another process holds the database's write lock (an operator's sqlite3 session) for
    longer than BIQLI_EDGE_STORE_LOCK_WAIT_MS: the durable visits answer without a token,
    neither their click nor their handoff is written, a desktop visit's click is written
    once the lock is gone, and visits work again afterwards."""
    demo = start_demo(edge_factory, env={"BIQLI_EDGE_STORE_LOCK_WAIT_MS": "300"})
    barrier(demo)
    before_clicks, before_handoffs = len(clicks(demo)), len(handoffs(demo))
    failed = metric(demo, "biqli_store_failed_jobs_total")
    holder = sqlite3.connect(os.path.join(demo.dir, "edge.sqlite3"), isolation_level=None, timeout=10)
    holder.execute("BEGIN IMMEDIATE")  # the write lock, as long as this transaction lasts
    try:
        # A desktop click is written after its answer: the answer comes at once, the click
        # is tried again until the lock is gone.
        status, headers, _ = visit(demo, "/invite", ua=UA_DESKTOP)
        assert (status, headers["location"]) == (302, "https://www.example.com/invite")
        started = time.monotonic()
        status, headers, body = visit(demo, "/invite?ref=BOB", ua=UA_ANDROID)
        assert (status, headers["location"]) == (302, "https://play.google.com/store/apps/details?id=com.example.demo")
        # Answered within the configured lock wait (the default, 5 s, would fail this); the
        # first write to meet the lock waits all of it, the next ones 100 ms (LockWaitTests).
        assert time.monotonic() - started < 3
        status, headers, body = visit(demo, "/invite", ua=UA_IPHONE)
        assert (status, headers["location"]) == (302, "https://www.example.com/ios")
        assert b"biqli_token" not in body and headers["cache-control"] == "no-store"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert metric(demo, "biqli_store_failed_jobs_total") >= failed + 2
    logged = demo.log_entries()
    # Two durable visits failed within 10 s: one line (a full disk would fail every visit).
    failures = [e for e in logged if e.get("msg") == "visit write failed"]
    assert len(failures) == 1 and "locked" in failures[0]["detail"], failures
    token = barrier(demo)  # the next visit is durable again, with its token
    assert handoff(demo, token) is not None
    # Barriers aside (the helpers leave them out): the desktop click, and nothing of the
    # durable visits, not half of one either.
    assert [c["kind"] for c in clicks(demo)[before_clicks:]] == ["desktop"]
    assert len(handoffs(demo)) == before_handoffs
    assert not any(e.get("msg") == "click write failed" for e in demo.log_entries())


# ---------------------------------------------------------------- shutdown


def test_every_click_answered_before_a_graceful_shutdown_is_stored(edge_factory):
    """Desktop clicks are written after their answer: SIGTERM under load must still
    write every one whose 302 went out (the loops flush, the writer drains)."""
    demo = start_demo(edge_factory, env={"BIQLI_EDGE_HTTPS_REDIRECT": "off"})
    before = len(clicks(demo))
    answered = []
    stop = threading.Event()

    def visitor():
        while not stop.is_set():
            try:
                status, _, _ = visit(demo, "/invite", ua=UA_DESKTOP, tls=False)
            except (OSError, EOFError):
                return  # shutdown has begun: refused, or closed before this request was read
            if status != 302:
                return
            answered.append(1)

    workers = [threading.Thread(target=visitor) for _ in range(4)]
    for w in workers:
        w.start()
    deadline = time.monotonic() + 10
    while len(answered) < 200 and time.monotonic() < deadline:
        time.sleep(0.01)
    demo.proc.send_signal(signal.SIGTERM)
    assert demo.proc.wait(timeout=30) == 0
    stop.set()
    for w in workers:
        w.join(timeout=10)
    assert len(answered) >= 200
    assert len(clicks(demo)) - before == len(answered)
