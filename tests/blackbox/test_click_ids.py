"""Conversion tracking, the visit's half (issue 25 items 1 and 2): a link (or its domain)
turns it on, and a web redirect then hands the click's id to the destination as
`bq_id=<click id>`, after the click is durable; the browser script that keeps it is served
at /_biqli/analytics-v1.js. The browser's half (the script on another site): test_click_ids_browser.py."""
import base64, gzip, hashlib, os, re
import pytest
from fixtures_data import (
    UA_ANDROID, UA_DESKTOP, UA_IPHONE, api, click, referrer_token, start_demo, update_domain, update_link, visit)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CLICK_ID = r"biq_clk_[0-7][0-9A-HJKMNP-TV-Z]{25}"
LANDING = "https://shop.example.com/landing?x=1&y=%20a+b#top"


@pytest.fixture
def demo(edge_factory):
    return start_demo(edge_factory)


def location_id(location, url=LANDING):
    """The click id a redirect carries, after checking that the rest of `url` is intact."""
    base, _, fragment = url.partition("#")
    m = re.fullmatch(re.escape(base) + r"&bq_id=(" + CLICK_ID + ")" + (re.escape("#" + fragment) if fragment else ""),
                     location)
    assert m, location
    return m.group(1)


def test_a_tracked_links_web_redirect_carries_its_durable_click_id(demo):
    link = update_link(demo, "docs", url=LANDING, trackConversions=True)
    assert link["trackConversions"] is True
    ids = []
    for _ in range(5):
        status, headers, _ = visit(demo, "/docs", ua=UA_DESKTOP)
        assert status == 302
        ids.append(location_id(headers["location"]))
        # No barrier, no wait: the click must be stored when the answer arrives.
        stored = click(demo, ids[-1])
        assert stored is not None, ids[-1]
        assert (stored["kind"], stored["platform"], stored["link_id"]) == ("desktop", "desktop", link["id"])
    assert len(set(ids)) == 5


def test_links_without_tracking_redirect_exactly_as_before(demo):
    update_link(demo, "docs", url=LANDING)
    status, headers, _ = visit(demo, "/docs", ua=UA_DESKTOP)
    assert (status, headers["location"]) == (302, LANDING)
    assert api(demo, "GET", "/domains/go.example.test")["trackConversions"] is False
    assert api(demo, "GET", "/links/" + update_link(demo, "docs")["id"])["trackConversions"] is None


def test_the_link_says_else_its_domain(demo):
    update_link(demo, "docs", url=LANDING)
    assert update_domain(demo, "go.example.test", trackConversions=True)["trackConversions"] is True
    location_id(visit(demo, "/docs", ua=UA_DESKTOP)[1]["location"])
    update_link(demo, "docs", trackConversions=False)
    assert visit(demo, "/docs", ua=UA_DESKTOP)[1]["location"] == LANDING
    update_link(demo, "docs", trackConversions=None)  # back to the domain's default
    location_id(visit(demo, "/docs", ua=UA_DESKTOP)[1]["location"])
    update_domain(demo, "go.example.test", trackConversions=False)
    assert visit(demo, "/docs", ua=UA_DESKTOP)[1]["location"] == LANDING


def test_urls_without_a_query_or_fragment_get_one_query_item(demo):
    update_link(demo, "docs", url="https://shop.example.com/", trackConversions=True)
    location = visit(demo, "/docs", ua=UA_DESKTOP)[1]["location"]
    assert re.fullmatch(r"https://shop\.example\.com/\?bq_id=" + CLICK_ID, location), location


def test_mobile_visitors_sent_to_the_web_carry_it_and_store_bound_ones_do_not(demo):
    update_link(demo, "docs", url=LANDING, trackConversions=True)  # web only
    update_link(demo, "invite", trackConversions=True)  # mobile: Play, Deep View
    for ua, platform in ((UA_ANDROID, "android"), (UA_IPHONE, "ios")):
        status, headers, _ = visit(demo, "/docs", ua=ua)
        stored = click(demo, location_id(headers["location"]))
        assert (stored["kind"], stored["platform"]) == ("desktop", platform)
    status, headers, _ = visit(demo, "/invite", ua=UA_ANDROID)
    assert status == 302 and "bq_id" not in headers["location"]
    assert referrer_token(headers["location"])
    status, _, body = visit(demo, "/invite", ua=UA_IPHONE)
    assert status == 200 and b"bq_id" not in body


def test_head_and_bots_make_no_click_and_get_no_id(demo):
    update_link(demo, "docs", url=LANDING, trackConversions=True)
    status, headers, _ = visit(demo, "/docs", ua=UA_DESKTOP, method="HEAD")
    assert (status, headers["location"]) == (302, LANDING)
    status, _, body = visit(demo, "/docs", ua="Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)")
    assert b"bq_id" not in body


def test_the_switches_must_be_booleans(demo):
    link = update_link(demo, "docs")
    for bad in ("yes", 1, [], {}):
        answer = api(demo, "PATCH", f"/links/{link['id']}", {"trackConversions": bad}, expect=(422,))
        assert answer["error"]["code"] == "validation_error"
        assert answer["error"]["details"]["field"] == "trackConversions", answer
        answer = api(demo, "PATCH", "/domains/go.example.test", {"trackConversions": bad}, expect=(422,))
        assert answer["error"]["code"] == "validation_error"
    # The domain's default is a plain switch: null is not "unset" there.
    api(demo, "PATCH", "/domains/go.example.test", {"trackConversions": None}, expect=(422,))


# ---------------------------------------------------------------- the script


def readme_integrity(version="v1"):
    text = open(os.path.join(ROOT, "README.md")).read()
    m = re.search(r'src="https://go\.example\.com/_biqli/analytics-' + version
                  + r'\.js"\s+integrity="(sha384-[A-Za-z0-9+/=]+)"', text)
    assert m, "the README's snippet names the script with its integrity hash"
    return m.group(1)


@pytest.mark.parametrize("version", ["v1", "v2", "v3"])
def test_the_script_is_served_for_other_sites_with_the_readmes_integrity(demo, version):
    name = f"analytics-{version}.js"
    status, headers, body = visit(demo, "/_biqli/" + name, ua=UA_DESKTOP)
    assert status == 200
    assert headers["content-type"] == "text/javascript; charset=utf-8"
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    assert headers["access-control-allow-origin"] == "*"
    assert headers["cross-origin-resource-policy"] == "cross-origin"
    assert headers["x-content-type-options"] == "nosniff"
    digest = "sha384-" + base64.b64encode(hashlib.sha384(body).digest()).decode()
    assert digest == readme_integrity(version)
    assert body == open(os.path.join(ROOT, "public", name), "rb").read()
    status, headers, zipped = visit(demo, "/_biqli/" + name, ua=UA_DESKTOP, headers={"Accept-Encoding": "gzip"})
    assert headers.get("content-encoding") == "gzip" and gzip.decompress(zipped) == body
    # On every link domain, and no other version exists.
    assert visit(demo, "/_biqli/" + name, host="links.example.test", ua=UA_DESKTOP)[0] == 200
    assert visit(demo, "/_biqli/analytics-v4.js", ua=UA_DESKTOP)[0] == 404


def test_v1_is_frozen():
    """analytics-v1.js must not change a byte: pages pin it by the README's integrity hash,
    which is the hash of the script as it shipped with version 1."""
    body = open(os.path.join(ROOT, "public", "analytics-v1.js"), "rb").read()
    assert "sha384-" + base64.b64encode(hashlib.sha384(body).digest()).decode() == (
        "sha384-yEm4Mvoo8078/S1gGTBVlZ7uWJHvhscA910xgQBjgUWXYlPTtdOL0g32Sq2KQ3Zw")


def test_v2_is_frozen():
    """analytics-v2.js must not change a byte either: v3 is beside it (issue 33 item 9), and
    pages keep the integrity hash v2 shipped with."""
    body = open(os.path.join(ROOT, "public", "analytics-v2.js"), "rb").read()
    assert "sha384-" + base64.b64encode(hashlib.sha384(body).digest()).decode() == (
        "sha384-flXYxir66z9h7vJGHy3eDe5MQMhdHZwB02yRBKS0DeWEeOMlkZ7/RKXSPne9kDHn")
