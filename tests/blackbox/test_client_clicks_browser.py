"""Client-side click tracking in a real browser (issue 25 item 3, decision 0027): a desktop
Chromium lands on a customer's site of another origin (served here, over HTTPS, under a strict
Content-Security-Policy whose connect-src is the link domain) through the site's own URL
`/?via=docs`; the edge's script asks the link domain for a click (a CORS preflight, then POST
/api/v1/track/click with the workspace's browser key), keeps its id as the first-party cookie
`bq_id`, and the site's server sends a lead with it, attributed to the link. Every test runs
with analytics-v2.js (frozen) and analytics-v3.js, which sends only the link and the query values
the page forwards, never the page's address or fragment (issue 33 item 9).
Set-up: browser.py; the server-side half: test_client_clicks.py."""
import json, os, re, time

import pytest

from browser import SHOP, Shop, Site, errors_in, unavailable_reason, wait_until
from conversions_client import Conversions
from fixtures_data import LINK_IDS, UA_DESKTOP, api, click, clicks, update_link
from management_api import cli

REASON = unavailable_reason()
pytestmark = [pytest.mark.skipif(REASON is not None and not os.environ.get("CI"), reason=str(REASON)),
              pytest.mark.store_independent]

EDGE = "https://go.example.test"
CLICK_ID = re.compile(r"^biq_clk_[0-7][0-9A-HJKMNP-TV-Z]{25}$")
# What the page's script hands to fetch, recorded by a script DevTools adds to every document
# (not subject to the page's CSP), so that a test can read the body the script sent.
FETCH_RECORDER = """
window.__biqliSent = [];
var __biqliFetch = window.fetch;
window.fetch = function (url, init) {
  window.__biqliSent.push({ url: String(url), body: init && init.body });
  return __biqliFetch.apply(this, arguments);
};
"""


def make_shop(key, version):
    """Scripts and connections to the link domain only; the browser key on the script, and the
    query parameters the page forwards (v3's; v2 has no such attribute and sends them all)."""
    name = f"analytics-{version}.js"
    return Shop(f"{EDGE}/_biqli/{name}", name,
                f"default-src 'none'; script-src {EDGE}; connect-src {EDGE}; base-uri 'none'",
                lambda path: (f'data-publishable-key="{key}" data-domain="example.test" '
                              'data-forward-params="ref utm_source"'))


@pytest.fixture(scope="module", params=["v2", "v3"])
def world(request):
    site = Site()
    out = cli(["keys", "create", "--browser", "--name", "shop"], site.edge.dir)
    assert out.returncode == 0, out.stderr
    shop = make_shop(out.stdout.strip(), request.param)
    shop.version = request.param
    api(site.edge, "PATCH", "/client-click-tracking", {"enabled": True, "hostnames": [SHOP]})
    update_link(site.edge, "docs", trackConversions=True)
    browser = site.browser(UA_DESKTOP, width=1200, height=800, extra_hosts={SHOP: shop.port})
    browser.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": FETCH_RECORDER})
    yield site, shop, browser
    browser.quit()
    shop.close()
    site.close()




def cookie(browser):
    return {c["name"]: c for c in browser.driver.get_cookies()}.get("bq_id")


def fresh(browser):
    browser.driver.delete_all_cookies()
    browser.driver.get(f"https://{SHOP}/account")
    browser.js("window.localStorage.clear();")


def test_a_landing_through_the_sites_own_url_makes_a_click_the_sites_server_sends_with_a_lead(world):
    site, shop, browser = world
    fresh(browser)
    browser.take_log()
    before = len(clicks(site.edge))
    browser.driver.get(f"https://{SHOP}/?via=docs&utm_source=news")
    kept = wait_until(lambda: cookie(browser), "the bq_id cookie")
    assert CLICK_ID.match(kept["value"]), kept
    assert kept["domain"] == ".example.test" and kept["secure"] is True and kept["httpOnly"] is False
    assert kept["sameSite"] == "Lax"
    # The query stays: it is the site's own URL, not the edge's.
    assert browser.driver.current_url == f"https://{SHOP}/?via=docs&utm_source=news"
    stored = click(site.edge, kept["value"])
    assert stored is not None and stored["link_id"] == LINK_IDS["docs"] and stored["kind"] == "desktop"
    assert len(clicks(site.edge)) == before + 1
    assert browser.csp_violations_here() == []
    assert errors_in(browser.take_log()) == []
    # The same browser landing again soon keeps its click: no second one.
    browser.driver.get(f"https://{SHOP}/?via=docs")
    time.sleep(0.5)
    assert cookie(browser)["value"] == kept["value"] and len(clicks(site.edge)) == before + 1
    # The site's server reads the cookie and sends the lead: attributed to the link.
    browser.driver.get(f"https://{SHOP}/account")
    wait_until(lambda: shop.cookies, "the shop's server to be asked")
    sent = dict(p.strip().split("=", 1) for p in shop.cookies[-1].split(";"))["bq_id"]
    assert sent == kept["value"]
    server = Conversions(site.edge.secret_key, f"http://127.0.0.1:{site.edge.http_port}/api")
    customer = "client_web_" + str(int(time.time() * 1000))
    lead = server.lead(click_id=sent, event_name="Sign up", customer_external_id=customer).body
    assert lead["click"] == {"id": sent}
    assert lead["link"] == {"id": LINK_IDS["docs"], "shortUrl": "https://go.example.test/docs"}


def test_the_call_carries_the_link_and_only_the_query_values_the_page_forwards(world):
    site, shop, browser = world
    fresh(browser)
    landing = (f"https://{SHOP}/orders/qpath7c1?via=docs&ref=BOB&email=zoe.qmail7c1%40example.com"
               "&utm_source=news&token=qtoken7c1#qfrag7c1")
    browser.driver.get(landing)
    kept = wait_until(lambda: cookie(browser), "the bq_id cookie")
    sent = browser.js("return window.__biqliSent;")
    assert [s["url"] for s in sent] == [EDGE + "/api/v1/track/click"], sent
    body = json.loads(sent[0]["body"])
    if shop.version == "v2":
        # Frozen: v2 sends the whole address, of which the edge keeps only dynamic values.
        assert body == {"domain": "go.example.test", "key": "docs", "url": landing}
    else:
        assert body == {"domain": "go.example.test", "key": "docs", "query": "ref=BOB&utm_source=news"}
        for mark in ("qpath7c1", "qmail7c1", "qtoken7c1", "qfrag7c1", "#", SHOP):
            assert mark not in sent[0]["body"], mark
    assert click(site.edge, kept["value"])["link_id"] == LINK_IDS["docs"]
    # Without a forwarded value, v3 names the link alone.
    fresh(browser)
    browser.driver.get(f"https://{SHOP}/?via=docs&email=x%40example.com#top")
    wait_until(lambda: cookie(browser), "the bq_id cookie")
    body = json.loads(browser.js("return window.__biqliSent;")[0]["body"])
    assert body == ({"domain": "go.example.test", "key": "docs"} if shop.version == "v3" else
                    {"domain": "go.example.test", "key": "docs", "url": f"https://{SHOP}/?via=docs&email=x%40example.com#top"})


def test_a_bq_id_in_the_url_wins_and_no_call_is_made(world):
    site, shop, browser = world
    fresh(browser)
    edge_click = click_of_a_redirect(site)
    before = len(clicks(site.edge))
    browser.driver.get(f"https://{SHOP}/?via=docs&bq_id={edge_click}")
    wait_until(lambda: "bq_id" not in browser.driver.current_url, "bq_id to leave the address bar")
    assert browser.driver.current_url == f"https://{SHOP}/?via=docs"
    assert cookie(browser)["value"] == edge_click
    time.sleep(0.5)
    assert len(clicks(site.edge)) == before


def test_an_origin_the_workspace_does_not_allow_gets_no_click(world):
    site, shop, browser = world
    fresh(browser)
    api(site.edge, "PATCH", "/client-click-tracking", {"hostnames": ["other.example.test"]})
    try:
        before = len(clicks(site.edge))
        browser.take_log()
        browser.driver.get(f"https://{SHOP}/?via=docs")
        time.sleep(1)
        assert cookie(browser) is None and len(clicks(site.edge)) == before
        # The browser refused the preflight (the page sees a network error, nothing else).
        assert any("CORS" in e.get("message", "") or "track/click" in e.get("message", "")
                   for e in browser.take_log()), "no CORS refusal in the console"
    finally:
        api(site.edge, "PATCH", "/client-click-tracking", {"hostnames": [SHOP]})


def click_of_a_redirect(site):
    """A real click id: a tracked redirect of `docs` (its bq_id)."""
    from fixtures_data import visit
    update_link(site.edge, "docs", url=f"https://{SHOP}/landing")
    status, headers, _ = visit(site.edge, "/docs", ua=UA_DESKTOP)
    assert status == 302, headers
    return headers["location"].split("bq_id=", 1)[1]
