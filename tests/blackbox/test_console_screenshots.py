"""The console with six weeks of traffic (issue 25, item 7; decision 0026): the README's
screenshots (`scripts/console-screenshots` sets `BIQLI_CONSOLE_SCREENSHOTS=<dir>`) and the axe
audits of every page full of numbers.

The traffic is made here, through the edge's real paths, one UTC day at a time: the demo
edge is started on one data directory with its wall clock set back by whole days
(`BIQLI_EDGE_TEST_CLOCK_BACK_MS`, a tests-only setting), and gets that day's visits (several
links, platforms, in-app browsers, preview bots, countries through a trusted proxy's
X-Forwarded-For and a GeoIP file made here), app opens of the Android visits' handoffs and
of app links, and leads and sales of the desktop visits' click ids; then it is stopped and
started again one day later. The last day is today, on the real clock, and the console then
shows it all. A seeded random makes the same workspace every time."""
import base64, json, os, random, subprocess, tempfile, time, urllib.parse, uuid

import pytest

from browser import Browser, ClosedPort, ImageServer, unavailable_reason
from conversions_client import Conversions
from edge import Edge, request
from fixtures_data import (DEMO_APP_ID, DEMO_HOST, LINK_IDS, UA_ANDROID, UA_DESKTOP, UA_INSTAGRAM_IOS, UA_IPHONE,
                           UA_MAC_SAFARI, api, referrer_token, start_demo, update_link, visit)
from test_console_browser import (UA_DESKTOP_CHROME, audit, by_id, console_port, full_page_png, make_link, number,
                                  sign_in, table_rows, wait_for)

REASON = unavailable_reason()
pytestmark = [pytest.mark.skipif(REASON is not None and not os.environ.get("CI"), reason=str(REASON)),
              pytest.mark.store_independent]

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE_MMDB = os.path.join(HERE, "..", "geoip", "make-mmdb.pl")
DAYS = 42
DAY_MS = 86_400_000
# Documentation and shared address ranges, one country each (the GeoIP file made here).
COUNTRIES = {"192.0.2.": "DE", "198.51.100.": "US", "203.0.113.": "FR", "100.64.0.": "GB", "100.64.1.": "JP",
             "100.64.2.": "BR"}
COUNTRY_WEIGHTS = [30, 34, 12, 14, 6, 4]
# Where the visits come from (the Referer a browser sends across sites: the origin).
REFERRERS = (None, "https://t.co/", "https://l.instagram.com/", "https://www.google.com/",
             "https://news.ycombinator.com/", "https://www.reddit.com/", "https://newsletter.example.com/")
REFERRER_WEIGHTS = [30, 22, 16, 12, 8, 7, 5]
SHOWCASE = "cus_ada_lovelace"
UA_FACEBOOK_BOT = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)"
# The README's pages (docs/screenshots/console-<name>.png).
README_PAGES = ("sign-in", "overview", "links", "link", "link-form-error", "customers", "customer", "apps", "app",
                "domains", "link-options", "ab-test")


def has_mmdb_writer():
    return subprocess.run(["perl", "-MMaxMind::DB::Writer::Tree", "-e", "1"], capture_output=True).returncode == 0


def iso(ms):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + ".%03dZ" % (ms % 1000)


def open_app(edge, at_ms, token=None, deep_link=None, platform="android"):
    """POST /api/v1/track/open as the SDK sends a first open, at the edge's (set back) time."""
    event = "open_" + uuid.uuid4().hex
    body = {
        "eventId": event, "appId": DEMO_APP_ID, "appInstanceId": "install_" + uuid.uuid4().hex,
        "platform": platform, "firstOpen": True, "probabilisticAllowed": False, "handoffToken": token,
        "deepLink": deep_link, "domain": None, "appVersion": "1.0", "osVersion": "14" if platform == "android" else "17.4",
        "sdkVersion": "1.0.0", "occurredAt": iso(at_ms), "attestation": None,
    }
    headers = {
        "Authorization": "Bearer " + edge.publishable_key, "Content-Type": "application/json",
        "Accept": "application/json", "Idempotency-Key": event, "X-Biq-SDK": platform,
        "X-Biq-SDK-Version": "1.0.0", "X-Biq-Request-Id": "req_" + uuid.uuid4().hex,
    }
    status, _, raw = request(edge.https_port, "/api/v1/track/open", method="POST", headers=headers,
                             body=json.dumps(body).encode(), tls=True, sni=DEMO_HOST, host=DEMO_HOST)
    assert status == 200, (status, raw[:300])


class History:
    """One day of traffic on a running edge whose clock reads `at_ms`."""

    def __init__(self, rng, edge, at_ms, back):
        self.rng, self.edge, self.at_ms, self.back = rng, edge, at_ms, back
        self.server = Conversions(edge.secret_key, f"http://127.0.0.1:{edge.http_port}/api")

    def address(self):
        prefix = self.rng.choices(list(COUNTRIES), weights=COUNTRY_WEIGHTS)[0]
        return prefix + str(self.rng.randint(1, 254))

    def visit(self, key, ua, query=""):
        sent = {"X-Forwarded-For": self.address()}
        site = self.rng.choices(REFERRERS, weights=REFERRER_WEIGHTS)[0]
        if site:
            sent["Referer"] = site
        status, headers, _ = visit(self.edge, f"/{key}{query}", ua=ua, headers=sent)
        assert status in (200, 302), (key, ua, status)
        return headers.get("location", "")

    def day(self):
        rng = self.rng
        weekday = time.gmtime(self.at_ms / 1000).tm_wday
        # Growing over the weeks, quieter at weekends, a launch bump in the second week.
        scale = (0.55 + 0.45 * (DAYS - self.back) / DAYS) * (0.6 if weekday >= 5 else 1.0)
        scale *= 1.6 if 14 <= self.back <= 16 else 1.0
        tokens, click_ids = [], []
        plan = (("invite", 26, (UA_ANDROID, UA_IPHONE, UA_INSTAGRAM_IOS, UA_DESKTOP), (40, 30, 14, 16)),
                ("promo", 14, (UA_ANDROID, UA_IPHONE, UA_MAC_SAFARI, UA_DESKTOP), (30, 30, 20, 20)),
                ("docs", 10, (UA_DESKTOP, UA_MAC_SAFARI, UA_ANDROID), (60, 25, 15)))
        for key, base, agents, weights in plan:
            for _ in range(max(1, int(base * scale * rng.uniform(0.7, 1.3)))):
                ua = rng.choices(agents, weights=weights)[0]
                location = self.visit(key, ua, "?utm_source=" + rng.choice(("news", "social", "partner")))
                if ua == UA_ANDROID and location.startswith("https://play.google.com/"):
                    tokens.append(referrer_token(location))
                query = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
                if "bq_id" in query:
                    click_ids.append(query["bq_id"][0])
            if rng.random() < 0.5:
                self.visit(key, UA_FACEBOOK_BOT)
        # Installs: most Android visits' handoffs; app links on iOS.
        for token in tokens:
            if rng.random() < 0.45:
                open_app(self.edge, self.at_ms, token=token)
        for _ in range(rng.randint(1, 4)):
            open_app(self.edge, self.at_ms, deep_link=f"https://{DEMO_HOST}/invite", platform="ios")
        # One customer followed over weeks, shown on the README's customer page: a signup,
        # then sales without a click id (attributed through the customer).
        if self.back == 30:
            self.server.lead(click_id=click_ids[0], event_name="Sign up", customer_external_id=SHOWCASE,
                             customer_name="Ada Lovelace", customer_email="ada@example.com",
                             occurred_at=iso(self.at_ms))
        elif self.back in (24, 9, 2):
            self.server.sale(customer_external_id=SHOWCASE, amount={24: 2900, 9: 9900, 2: 4999}[self.back],
                             currency="eur" if self.back == 9 else "usd", payment_processor="stripe",
                             invoice_id=f"in_ada_{self.back}", occurred_at=iso(self.at_ms))
        # Leads of the desktop visits' click ids, some becoming sales (a few in euros).
        for click in click_ids:
            if rng.random() < 0.3:
                customer = "user_%010x" % rng.getrandbits(40)
                self.server.lead(click_id=click, event_name="Sign up", customer_external_id=customer,
                                 customer_name=rng.choice(("Ada", "Björn", "Chiara", "Dev", "Emeka", "Fumiko")),
                                 customer_email=customer + "@example.com", occurred_at=iso(self.at_ms))
                if rng.random() < 0.45:
                    currency = rng.choices(("usd", "eur"), weights=(75, 25))[0]
                    self.server.sale(customer_external_id=customer, amount=rng.choice((1299, 2900, 4999, 9900)),
                                     currency=currency, payment_processor="stripe",
                                     invoice_id="in_%012x" % rng.getrandbits(48), occurred_at=iso(self.at_ms))


def make_workspace(directory, geoip_env):
    """Six weeks of traffic in `directory`; returns the demo's secret and publishable keys."""
    rng = random.Random(25)
    keys = None
    for back in range(DAYS - 1, -1, -1):
        env = dict(geoip_env)
        if back:
            env["BIQLI_EDGE_TEST_CLOCK_BACK_MS"] = str(back * DAY_MS)
        if keys is None:
            edge = start_demo(Edge, env=env, data_dir=directory)
            keys = (edge.secret_key, edge.publishable_key)
            for key in ("invite", "promo", "docs"):
                update_link(edge, key, trackConversions=True)
        else:
            edge = Edge(args=("serve", "--demo"), env=env, data_dir=directory)
            edge.secret_key, edge.publishable_key = keys
        try:
            History(rng, edge, int(time.time() * 1000) - back * DAY_MS, back).day()
        finally:
            assert edge.stop() == 0
    return keys


@pytest.fixture(scope="module")
def workspace():
    directory = tempfile.mkdtemp(prefix="edge-screenshots-")
    env = {"BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1"}
    if has_mmdb_writer():
        db = os.path.join(tempfile.mkdtemp(prefix="edge-screenshots-geoip-"), "country.mmdb")
        networks = [p + "0/24=" + cc for p, cc in COUNTRIES.items()]
        subprocess.run(["perl", MAKE_MMDB, db, *networks], check=True, capture_output=True)
        env["BIQLI_EDGE_GEOIP_DB"] = db
    secret, publishable = make_workspace(directory, env)
    edge = Edge(args=("serve", "--demo"), env=env, data_dir=directory)
    edge.secret_key, edge.publishable_key = secret, publishable
    closed, images = ClosedPort(), ImageServer()
    b = Browser(edge.https_port, closed.port, images.port, UA_DESKTOP_CHROME, width=1280, height=900)
    b.cdp("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1,
                                                 "mobile": False})
    origin = f"http://127.0.0.1:{console_port(edge)}"
    b.open_console = lambda path: b.driver.get(origin + path)
    yield edge, b
    b.quit()
    edge.stop()
    closed.close()
    images.close()


def shoot(b, name):
    """axe-core and the CSP checks (test_console_browser.audit), then the README's picture."""
    audit(b, name)
    out = os.environ.get("BIQLI_CONSOLE_SCREENSHOTS")
    if out and name in README_PAGES:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, f"console-{name}.png"), "wb") as f:
            f.write(full_page_png(b))


def test_six_weeks_of_traffic_fill_every_page(workspace):
    edge, b = workspace
    report = api(edge, "GET", f"/links/{LINK_IDS['invite']}/analytics?days=30")
    days_with_clicks = sum(1 for d in report["clicks"]["daily"] if d["total"])
    assert days_with_clicks == 30, report["clicks"]["daily"]
    assert report["opens"]["firstOpens"] > 0 and report["clicks"]["byPlatform"]["android"] > 0
    docs = api(edge, "GET", f"/links/{LINK_IDS['docs']}/analytics?days=30")
    assert docs["conversions"]["leads"] > 0 and docs["conversions"]["sales"] > 0, docs["conversions"]["funnel"]
    assert docs["previousPeriod"]["clicks"] > 0, "the weeks before the last 30 days"
    assert api(edge, "GET", f"/links/{LINK_IDS['docs']}/analytics?days=90")["previousPeriod"]["clicks"] == 0

    b.open_console("/console/sign-in")
    shoot(b, "sign-in")
    sign_in(b, edge.secret_key)
    # The overview's first count runs in the background after the start: wait for it.
    for _ in range(100):
        b.open_console("/console/")
        if "id=\"totals\"" in b.driver.page_source:
            break
        time.sleep(0.1)
    assert by_id(b, "total-clicks") and by_id(b, "total-sales")
    shoot(b, "overview")
    # The overview's clicks are the workspace's daily totals, preview bots included: its
    # funnel says so (the link page's leaves them out).
    funnel = b.js("return document.querySelector('#funnel caption').textContent;")
    assert "preview bots included" in funnel, funnel
    b.open_console("/console/links")
    shoot(b, "links")
    # The invite link: Android, iOS and desktop visits, app opens, leads and sales, so every
    # part of the page is filled.
    invite = api(edge, "GET", f"/links/{LINK_IDS['invite']}/analytics?days=30")
    b.open_console(f"/console/links/{LINK_IDS['invite']}?days=30")
    shown = {name: number(by_id(b, "total-" + name).find_element("css selector", "dd.value").text)
             for name in ("clicks", "installs", "leads", "sales")}
    assert shown == {"clicks": invite["clicks"]["total"], "installs": invite["opens"]["installs"],
                     "leads": invite["conversions"]["leads"], "sales": invite["conversions"]["sales"]}, shown
    assert min(shown.values()) > 0, shown
    sites = [row[0] for row in b.js(
        "return [...document.querySelectorAll('#referrers-table tbody tr')].map(r => [...r.cells].map(c => c.textContent));")]
    assert "t.co" in sites and "l.instagram.com" in sites, sites
    assert invite["clicks"]["byReferrer"]["t.co"] > 0, invite["clicks"]["byReferrer"]
    funnel = b.js("return document.querySelector('#funnel caption').textContent;")
    assert "without preview bots" in funnel, funnel
    shoot(b, "link")
    b.open_console(f"/console/links/{LINK_IDS['docs']}?days=7")
    shoot(b, "link-7-days")
    b.open_console("/console/customers")
    shoot(b, "customers")
    b.open_console(f"/console/customers/{SHOWCASE}")
    assert b.js("return document.querySelectorAll('#journey tbody tr').length;") == 5, "the click, a lead, 3 sales"
    shoot(b, "customer")
    b.open_console("/console/apps")
    shoot(b, "apps")
    b.open_console(f"/console/apps/{DEMO_APP_ID}")
    shoot(b, "app")
    b.open_console("/console/domains")
    shoot(b, "domains")
    # The link form refused by the API's rule, its message beside the field.
    make_link(b, "summer-sale", "not a url")
    wait_for(lambda: b.js("return document.getElementById('url-error') !== null;"), "the URL's error")
    shoot(b, "link-form-error")


def element_png(b, selector, until=None, pad=16):
    """The part of the page around `selector` (down to the end of `until`), for a README
    picture of one table or part of a form."""
    x, y, w, h = b.js("""const r = document.querySelector(arguments[0]).getBoundingClientRect();
        const e = document.querySelector(arguments[1] || arguments[0]).getBoundingClientRect();
        return [r.left + window.scrollX, r.top + window.scrollY, r.width, e.bottom - r.top];""", selector, until)
    shot = b.cdp("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": {
        "x": max(0, x - pad), "y": max(0, y - pad), "width": w + 2 * pad, "height": h + 2 * pad, "scale": 1}})
    return base64.b64decode(shot["data"])


def shoot_part(b, name, selector, until=None):
    audit(b, name)
    out = os.environ.get("BIQLI_CONSOLE_SCREENSHOTS")
    if out and name in README_PAGES:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, f"console-{name}.png"), "wb") as f:
            f.write(element_png(b, selector, until))


def test_an_ab_test_with_conversions_and_the_editor_of_its_options(workspace):
    """Issue 35: a link with rules, UTM and a 50/50 test, 1,200 desktop visits (each a new
    visitor: no variant cookie) and leads of 9 % of A's clicks and 13 % of B's through their
    click IDs; the link's page shows each arm's numbers as the API's `byVariant` has them."""
    edge, b = workspace
    rng = random.Random(35)
    key = "spring-test"
    base = "https://www.example.com/spring"
    link = api(edge, "POST", "/links", {
        "domain": DEMO_HOST, "key": key, "url": base, "trackConversions": True,
        "rules": [{"if": {"countries": ["DE", "AT", "CH"]}, "url": base + "-dach"},
                  {"if": {"platforms": ["ios"], "languages": ["pt"]}, "url": base + "-pt", "skipApp": False}],
        "variants": [{"url": base + "-a", "weight": 50}, {"url": base + "-b", "weight": 50}],
        "utm": {"source": "newsletter", "medium": "email", "campaign": "spring"}})
    server = Conversions(edge.secret_key, f"http://127.0.0.1:{edge.http_port}/api")
    rates = {base + "-a": 0.09, base + "-b": 0.13}
    for n in range(1200):
        status, headers, _ = visit(edge, f"/{key}", ua=UA_DESKTOP)
        assert status == 302, status
        location = urllib.parse.urlsplit(headers["location"])
        arm = location.scheme + "://" + location.netloc + location.path
        click = urllib.parse.parse_qs(location.query)["bq_id"][0]
        if rng.random() < rates[arm]:
            server.lead(click_id=click, event_name="Sign up", customer_external_id=f"cus_ab_{n}")
    b.open_console(f"/console/links/{link['id']}/edit")
    shoot_part(b, "link-options", "#rules", "#utm")
    b.open_console(f"/console/links/{link['id']}?days=7")
    rows = table_rows(b, "ab-table")
    assert [row[0] for row in rows] == ["A (control)", "B"], rows
    report = api(edge, "GET", f"/links/{link['id']}/analytics?days=7")
    arms = report.get("byVariant") or []
    if sum(a["clicks"] for a in arms) == 0:
        pytest.skip("the analytics have no byVariant counts on this build: the table shows zeros")
    assert sum(a["clicks"] for a in arms) == 1200
    for row, arm in zip(rows, arms):
        assert (number(row[3]), number(row[4])) == (arm["clicks"], arm["leads"]), (row, arm)
    assert "converts better" in rows[1][8] or "No clear difference" in rows[1][8], rows
    shoot_part(b, "ab-test", "#ab-test-section")
