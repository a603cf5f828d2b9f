"""Black-box tests of Android visits from in-app web views (issue 36, decision 0033): the
Play redirect becomes an `intent:` URI that the Play Store app opens with the same referrer,
behind the app's own intent carrying the short link when the app's App Links are set up;
regular browsers keep today's 302. The intent URIs are read back here by Android's rules
(`Intent.parseUri`: the fragment from the last `#`, items to `;`, values `Uri.decode`d once,
`+` kept), and the token they carry is resolved as the Android SDK sends it."""
import urllib.parse

import pytest

from fixtures_data import (
    DEMO_APP_ID, DEMO_HOST, DEMO_PACKAGE, UA_ANDROID, click, demo_android, handoff, referrer_token, resolve_android,
    start_demo, update_app, visit)

UA_INSTAGRAM_ANDROID = (
    "Mozilla/5.0 (Linux; Android 13; SM-S918B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Version/4.0 Chrome/120.0.6099.144 Mobile Safari/537.36 Instagram 312.0.0.32.112 Android (33/13; 480dpi; "
    "1080x2340; samsung; SM-S918B; dm3q; qcom; en_US; 548323757)")
UA_FACEBOOK_ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 7 Build/AP1A.240305.019; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/453.0.0.40.108;]")
PLAY = "https://play.google.com/store/apps/details?"


@pytest.fixture
def demo(edge_factory):
    return start_demo(edge_factory)


def parse_intent(uri):
    """`intent://<data>#Intent;scheme=...;package=...;S.k=v;end` as Intent.parseUri reads it:
    (the data URI with its scheme put back, the package, the string extras)."""
    assert uri.startswith("intent:"), uri
    cut = uri.rindex("#")
    data, fragment = uri[len("intent:"):cut], uri[cut + 1:]
    items = fragment.split(";")
    assert items[0] == "Intent" and items[-1] == "end", fragment
    fields, extras = {}, {}
    for item in items[1:-1]:
        key, value = item.split("=", 1)
        value = urllib.parse.unquote(value)  # Uri.decode: %XX as UTF-8, '+' stays '+'
        if key.startswith("S."):
            extras[key[2:]] = value
        else:
            fields[key] = value
    return fields["scheme"] + ":" + data, fields.get("package"), extras


def test_an_in_app_visit_of_an_app_with_app_links_gets_the_apps_intent_then_the_play_apps(demo):
    status, headers, _ = visit(demo, "/invite?ref=ig&x=a%20b", ua=UA_INSTAGRAM_ANDROID)
    assert status == 302
    data, package, extras = parse_intent(headers["location"])
    # The app opens with the short link an App Link would have given it.
    assert (data, package) == (f"https://{DEMO_HOST}/invite?ref=ig&x=a%20b", DEMO_PACKAGE)
    # Without the app: the Play Store app, with the referrer of today's Play redirect.
    play_data, play_package, play_extras = parse_intent(extras["browser_fallback_url"])
    assert play_package == "com.android.vending" and play_data.startswith(f"market://details?id={DEMO_PACKAGE}&")
    token = referrer_token(play_data)
    assert play_extras["browser_fallback_url"].startswith(PLAY)
    assert referrer_token(play_extras["browser_fallback_url"]) == token
    # The token rides once in each route (the Play app's data, the https fallback), and
    # resolves as the SDK sends it from the referrer.
    assert headers["location"].count(token) == 2
    row = handoff(demo, token)
    c = click(demo, row["click_id"])
    assert (c["kind"], c["platform"], c["in_app_browser"]) == ("app_intent", "android", "instagram")
    status, body = resolve_android(demo, token)
    assert status == 200 and body["open"]["matchedBy"] == "exact_install_referrer", body


def test_an_in_app_visit_of_an_app_without_app_links_gets_the_play_apps_intent(demo):
    update_app(demo, DEMO_APP_ID, android=demo_android(sha256CertFingerprints=[]))
    status, headers, _ = visit(demo, "/invite", ua=UA_FACEBOOK_ANDROID)
    assert status == 302
    data, package, extras = parse_intent(headers["location"])
    assert package == "com.android.vending" and data.startswith(f"market://details?id={DEMO_PACKAGE}&")
    token = referrer_token(data)
    assert referrer_token(extras["browser_fallback_url"]) == token
    c = click(demo, handoff(demo, token)["click_id"])
    assert (c["kind"], c["platform"], c["in_app_browser"]) == ("play_intent", "android", "facebook")


def test_an_operators_play_url_is_kept_inside_the_intent(demo):
    own = "https://play.google.com/store/apps/details?id=com.example.demo&hl=pt_BR&utm_source=edge"
    update_app(demo, DEMO_APP_ID, android=demo_android(sha256CertFingerprints=[], playStoreUrl=own))
    _, headers, _ = visit(demo, "/invite", ua=UA_INSTAGRAM_ANDROID)
    data, _, extras = parse_intent(headers["location"])
    assert "&hl=pt_BR&utm_source=edge&" in data
    assert extras["browser_fallback_url"].startswith(own + "&referrer=")


def test_chrome_keeps_todays_play_redirect(demo):
    status, headers, _ = visit(demo, "/invite", ua=UA_ANDROID)
    assert status == 302 and headers["location"].startswith(PLAY)
    c = click(demo, handoff(demo, referrer_token(headers["location"]))["click_id"])
    assert (c["kind"], c["in_app_browser"]) == ("android_redirect", None)
