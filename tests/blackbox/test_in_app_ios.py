"""Black-box tests of the iOS Deep View inside in-app browsers (issue 36 item 4, decision 0033
§4): the page says whose browser the visitor is in and, after Continue (unchanged, first),
offers Safari (`x-safari-https://` of the short link with the `bq_ia=1` marker from iOS 17.5,
else the app's menu steps) and, where the domain has an alternate hostname, the app (not
settable through this branch's API, so left to the unit tests). The click is `in_app_page`,
and Continue's handoff still resolves. A regular iPhone's page has no trace of it."""
import html
import re

import pytest

from fixtures_data import (DEMO_HOST, HANDOFF_URL_RE, LINK_IDS, UA_INSTAGRAM_IOS, UA_IPHONE, click, handoff, start_demo,
                           visit)
from test_resolver import Device, ok

# docs/in-app-browsers.md's Instagram row (S1), iOS 18.1: the Safari scheme is offered.
UA_INSTAGRAM_IOS_18 = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/22B83 "
    "Instagram 354.0.0.29.90 (iPhone12,8; iOS 18_1; en_US; en; scale=2.00; 750x1334; 654111336; IABMV/1)")
UA_SNAPCHAT_IOS = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.3.1 Mobile/15E148 Snapchat/12.72.0.39 (like Safari/8617.2.4.10.8, panda)")
ANCHOR = re.compile(r'<a id="([a-z-]+)" class="([a-z ]+)" href="([^"]*)"')


@pytest.fixture
def demo(edge_factory):
    return start_demo(edge_factory)


def page_of(edge, path, ua):
    status, headers, body = visit(edge, path, ua=ua)
    assert status == 200, (status, headers)
    return headers, body.decode()


def anchors(page):
    """The page's links in order: (id, class, href as the browser reads it)."""
    return [(i, c, html.unescape(h)) for i, c, h in ANCHOR.findall(page)]


def the_token(page):
    found = HANDOFF_URL_RE.findall(page)
    assert len(found) == 1 and found[0][0] == DEMO_HOST, found
    return found[0][1]


def test_instagram_on_ios_18_gets_continue_then_safari_and_its_handoff_resolves(demo):
    headers, page = page_of(demo, "/promo?ref=ALICE&campaign=spring", UA_INSTAGRAM_IOS_18)
    assert anchors(page) == [
        ("biqli-continue", "button", "https://apps.apple.com/app/id1234567890"),
        ("biqli-safari", "button secondary", f"x-safari-https://{DEMO_HOST}/promo?ref=ALICE&campaign=spring&bq_ia=1"),
    ]
    assert '<h2 id="biqli-in-app" class="in-app-title" dir="auto">You’re in Instagram’s browser</h2>' in page
    assert "biqli-steps" not in page and "biqli-app" not in page
    # The handoff rides once, on Continue; the page keeps the strict CSP with its nonce.
    token = the_token(page)
    assert page.count("biqli_token") == 1
    csp = headers["content-security-policy"]
    nonce = re.search(r"script-src 'nonce-([A-Za-z0-9_+/=-]+)'", csp).group(1)
    assert f'nonce="{nonce}"' in page and "unsafe-inline" not in csp
    assert re.search(r'<link rel="stylesheet" href="/_biqli/assets/inapp\.[0-9a-f]{12}\.css">', page)
    c = click(demo, handoff(demo, token)["click_id"])
    assert (c["kind"], c["platform"], c["in_app_browser"]) == ("in_app_page", "ios", "instagram")
    # Continue's copied URL, pasted into the app, is matched as before.
    b = ok(Device(demo, "ios").open(handoff=token), "exact_handoff")
    assert b["link"]["id"] == LINK_IDS["promo"]
    assert b["attribution"]["dynamic"] == {"ref": "ALICE", "campaign": "spring"}


def test_instagram_before_ios_17_5_gets_the_menu_steps_instead_of_the_scheme(demo):
    _, page = page_of(demo, "/invite", UA_INSTAGRAM_IOS)  # iOS 17.4.1
    assert [a[0] for a in anchors(page)] == ["biqli-continue"]
    assert '<p id="biqli-steps" class="note">To open this page in Safari, tap ⋯ at the top of the screen' in page
    assert "x-safari" not in page


def test_snapchat_gets_the_generic_steps_in_the_visitors_language(demo):
    status, _, body = visit(demo, "/invite", ua=UA_SNAPCHAT_IOS, headers={"Accept-Language": "de-DE,de;q=0.9"})
    page = body.decode()
    assert status == 200 and '<html lang="de"' in page
    assert ">Du bist im Browser von Snapchat</h2>" in page
    assert "Um diese Seite in Safari zu öffnen, öffne das Menü der App" in page
    assert "x-safari" not in page
    c = click(demo, handoff(demo, the_token(page))["click_id"])
    assert (c["kind"], c["in_app_browser"]) == ("in_app_page", "snapchat")


def test_safaris_visit_with_the_marker_gets_the_regular_page_and_the_marker_goes_nowhere(demo):
    _, page = page_of(demo, "/promo?ref=ALICE&bq_ia=1", UA_IPHONE)
    for trace in ("in-app", "inapp", "x-safari", "bq_ia"):
        assert trace not in page, trace
    token = the_token(page)
    c = click(demo, handoff(demo, token)["click_id"])
    assert (c["kind"], c["in_app_browser"]) == ("deep_view", None)
    b = ok(Device(demo, "ios").open(handoff=token), "exact_handoff")
    assert b["attribution"]["dynamic"] == {"ref": "ALICE"}
