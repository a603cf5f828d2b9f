"""The operator console in a real browser (issue 19): headless Chromium driven by selenium against
the real edge binary started with `serve --demo`, the console on its own loopback listener
(`BIQLI_EDGE_CONSOLE_ADDR`). A new operator's path end to end (sign in with the key the banner
printed, a link made through the form after a validation error, found in the list, visited with
an Android user agent through the edge, its click on the link's chart, sign out), the one-time
sign-in link, CSRF, and axe-core (axe-selenium-python) on every page: no serious or critical
violation, no Content-Security-Policy violation.

Screenshots of every page go to tests/blackbox/artifacts/console-*.png. The README's
(docs/screenshots/) are made by test_console_screenshots.py, from a workspace with weeks of
traffic (scripts/console-screenshots).
"""
import base64, os, re, time, urllib.parse, uuid

import pytest

from browser import Site, errors_in, is_csp_message, unavailable_reason
from fixtures_data import DEMO_APP_ID, DEMO_HOST, LINK_IDS, UA_ANDROID, api, barrier, visit

REASON = unavailable_reason()
# The pages in a browser; the store under them is the same on both backends (test_visits and
# test_console run on both): the SQLite pass runs these, the PostgreSQL pass skips them.
pytestmark = [pytest.mark.skipif(REASON is not None and not os.environ.get("CI"), reason=str(REASON)),
              pytest.mark.store_independent]

UA_DESKTOP_CHROME = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                     "Chrome/124.0.0.0 Safari/537.36")
ALLOWED_ERRORS = ()
ONCE_RE = re.compile(r"(http://[^\s\"']+/console/sign-in/once\?token=[A-Za-z0-9_%-]+)")


# ---------------------------------------------------------------- fixtures


class Console(Site):
    """The demo site (browser.py) with the console on its own loopback listener."""

    def __init__(self):
        super().__init__(env={"BIQLI_EDGE_CONSOLE_ADDR": "127.0.0.1:0"})
        self.port = console_port(self.edge)
        self.origin = f"http://127.0.0.1:{self.port}"


def console_port(edge):
    """The console listener's port, from the `listening` log line."""
    for entry in edge.log_entries():
        if entry.get("msg") == "listening":
            address = entry.get("console")
            assert address, f"no console listener in {entry}"
            return int(address.rsplit(":", 1)[1])
    raise AssertionError(f"no listening line: {edge.lines}")


@pytest.fixture(scope="module")
def site():
    s = Console()
    yield s
    s.close()


@pytest.fixture(scope="module")
def browser_driver(site):
    b = site.browser(UA_DESKTOP_CHROME, width=1280, height=900)
    yield b
    b.quit()


@pytest.fixture
def browser(browser_driver, site):
    """A desktop-sized browser, signed out, with an empty console log."""
    b = browser_driver
    b.reset()
    b.cdp("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1,
                                                 "mobile": False})
    b.driver.delete_all_cookies()
    b.open_console = lambda path: b.driver.get(site.origin + path)
    yield b
    b.driver.delete_all_cookies()


# ---------------------------------------------------------------- helpers


def by_id(b, element_id):
    from selenium.webdriver.common.by import By
    return b.driver.find_element(By.ID, element_id)


def exists(b, selector):
    return b.js("return document.querySelector(arguments[0]) !== null;", selector)


def path_of(b):
    return urllib.parse.urlsplit(b.driver.current_url).path


def status_of(b):
    return b.js("return performance.getEntriesByType('navigation')[0].responseStatus;")


def sign_in(b, key):
    b.open_console("/console/sign-in")
    by_id(b, "key").send_keys(key)
    by_id(b, "sign-in").click()
    wait_for(lambda: path_of(b) == "/console/", "the overview after signing in")


def wait_for(check, what, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def submit(b, form_selector):
    """Submits a form as its submit button would, and waits for the next document."""
    old = b.driver.find_element("css selector", "html")
    b.js("const f = document.querySelector(arguments[0]); f.requestSubmit ? f.requestSubmit() : f.submit();",
         form_selector)
    wait_for(lambda: stale(old), "the next page")


def stale(element):
    from selenium.common.exceptions import StaleElementReferenceException
    try:
        element.tag_name
        return False
    except StaleElementReferenceException:
        return True


def audit(b, name):
    """axe-core on the current page (no serious or critical violation), no CSP violation or
    console error, and a screenshot."""
    from axe_selenium_python import Axe
    axe = Axe(b.driver)
    axe.inject()
    results = axe.run()
    bad = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
    assert bad == [], f"{name}: " + axe.report(bad)
    log = b.take_log()
    assert not [e for e in log if is_csp_message(e)], (name, log)
    # A refusal page (401, 403, 422) is logged as a failed load of the document itself.
    status = status_of(b)
    own = (f"{b.driver.current_url} - Failed to load resource: the server responded with a status of {status}",)
    assert errors_in(log, ALLOWED_ERRORS + (own if status >= 400 else ())) == [], (name, log)
    assert b.csp_violations_here() == [], name
    state = b.js("return [...document.styleSheets].map(s => s.cssRules.length);")
    assert len(state) >= 1 and state[0] > 5, (name, "the stylesheet did not apply", state)
    b.screenshot(f"console-{name}.png")
    return results


def full_page_png(b, most=2400):
    """The page from its top, as tall as its content (at most `most` CSS pixels), for the
    README: the viewport screenshot shows wherever the page was scrolled to."""
    height = min(b.js("return document.documentElement.scrollHeight;"), most)
    shot = b.cdp("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                            "clip": {"x": 0, "y": 0, "width": 1280, "height": height, "scale": 1}})
    return base64.b64decode(shot["data"])


def table_rows(b, table_id):
    """The table's body rows as lists of cell texts (th and td)."""
    return b.js("""
        const t = document.getElementById(arguments[0]);
        if (!t) return null;
        const body = t.tBodies.length ? [...t.tBodies].flatMap(x => [...x.rows]) : [...t.rows].slice(1);
        return body.map(r => [...r.cells].map(c => c.textContent.trim()));""", table_id)


def table_header(b, table_id):
    return b.js("""
        const t = document.getElementById(arguments[0]);
        const head = t.tHead ? t.tHead.rows[0] : t.rows[0];
        return [...head.cells].map(c => c.textContent.trim().toLowerCase());""", table_id)


def number(text):
    digits = re.sub(r"[^\d]", "", text or "")
    return int(digits) if digits else 0


def clicks_on(b, day, platform):
    """The count of `platform` on `day` (YYYY-MM-DD) in the link page's clicks table."""
    header = table_header(b, "clicks-table")
    column = next(i for i, h in enumerate(header) if platform in h)
    for row in table_rows(b, "clicks-table"):
        if row[0] == day:
            return number(row[column])
    return 0


def link_by_key(site, key):
    found = [link for link in api(site.edge, "GET", f"/links?domain={DEMO_HOST}&limit=100")["data"]
             if link["key"] == key]
    return found[0] if found else None


def make_link(b, key, url):
    """Fills the new-link form (domain, key, URL, the demo app, a route) and submits it."""
    from selenium.webdriver.support.ui import Select
    b.open_console("/console/links/new")
    Select(b.driver.find_element("css selector", "#link-form select[name=domain]")).select_by_value(DEMO_HOST)
    Select(b.driver.find_element("css selector", "#link-form select[name=app]")).select_by_value(DEMO_APP_ID)
    for name, value in (("key", key), ("url", url), ("route", "/promo")):
        field = b.driver.find_element("css selector", f"#link-form [name={name}]")
        field.clear()
        field.send_keys(value)
    by_id(b, "save-link").click()


# ---------------------------------------------------------------- the operator's path


def test_a_new_operator_signs_in_makes_a_link_sees_its_android_click_and_signs_out(browser, site):
    b = browser
    # Signed out, the console sends to the sign-in page.
    b.open_console("/console/")
    assert path_of(b) == "/console/sign-in"
    audit(b, "sign-in")

    # A wrong key: an error next to the field, still signed out.
    by_id(b, "key").send_keys("biqli_sk_wrong")
    by_id(b, "sign-in").click()
    wait_for(lambda: exists(b, "#key-error"), "the wrong key's error")
    assert status_of(b) == 401
    audit(b, "sign-in-wrong-key")

    sign_in(b, site.edge.secret_key)
    audit(b, "overview")

    # A bad URL first: the API's message next to the field, nothing made.
    key = "console-" + uuid.uuid4().hex[:8]
    make_link(b, key, "not a url")
    wait_for(lambda: exists(b, "#url-error"), "the URL's validation error")
    assert status_of(b) == 422
    error = by_id(b, "url-error").text
    assert error.strip(), "an empty validation message"
    field = b.driver.find_element("css selector", "#link-form [name=url]")
    assert field.get_attribute("aria-invalid") == "true"
    assert "url-error" in (field.get_attribute("aria-describedby") or "")
    assert field.get_attribute("value") == "not a url", "the form keeps what was typed"
    assert link_by_key(site, key) is None
    audit(b, "link-form-error")

    # Fixed: the link exists and its page opens.
    field.clear()
    field.send_keys("https://www.example.com/console-landing")
    by_id(b, "save-link").click()
    wait_for(lambda: re.fullmatch(r"/console/links/biq_lnk_[0-9A-Z]{26}", path_of(b)), "the new link's page")
    link_id = path_of(b).rsplit("/", 1)[1]
    made = link_by_key(site, key)
    assert made is not None and made["id"] == link_id, made
    assert made["url"] == "https://www.example.com/console-landing"
    assert by_id(b, "short-url").text.strip() == f"https://{DEMO_HOST}/{key}"

    # Found in the list by a search.
    b.open_console(f"/console/links?q={key}")
    assert exists(b, f'#links tr[data-link-id="{link_id}"]')
    audit(b, "links")

    # An Android visit through the edge, then the click on the link's chart and its table.
    b.open_console(f"/console/links/{link_id}")
    chart_before = b.js("return document.querySelector('#clicks-chart svg').outerHTML;")
    today = time.strftime("%Y-%m-%d", time.gmtime())
    assert clicks_on(b, today, "android") == 0
    status, headers, _ = visit(site.edge, f"/{key}", ua=UA_ANDROID)
    assert status == 302 and headers["location"].startswith("https://play.google.com/"), (status, headers)
    barrier(site.edge)
    b.driver.refresh()
    assert clicks_on(b, today, "android") == 1
    chart_after = b.js("return document.querySelector('#clicks-chart svg').outerHTML;")
    assert chart_after != chart_before, "the chart did not change with the click"
    assert b.js("return document.querySelector('#clicks-chart svg').getAttribute('role');") == "img"
    recent = table_rows(b, "recent-clicks")
    assert recent and any("android" in " ".join(row).lower() for row in recent), recent
    assert b.js("const i = document.getElementById('qr'); return i.complete && i.naturalWidth > 0;"), "the QR code"
    audit(b, "link")

    # Sign out: the session is gone; the console sends to the sign-in page again.
    submit(b, 'form[action="/console/sign-out"]')
    assert path_of(b) == "/console/sign-in"
    b.open_console(f"/console/links/{link_id}")
    assert path_of(b) == "/console/sign-in"


def test_every_page_passes_axe_and_keeps_its_csp(browser, site):
    b = browser
    sign_in(b, site.edge.secret_key)
    link = api(site.edge, "GET", f"/links?domain={DEMO_HOST}&limit=1")["data"][0]
    # A customer with a lead and a sale, and an erased one: their pages are audited too.
    from test_conversions import client, new_click
    shop, buyer, gone = client(site.edge), "cus_" + uuid.uuid4().hex, "cus_" + uuid.uuid4().hex
    shop.lead(click_id=new_click(site.edge), event_name="Sign up", customer_external_id=buyer, customer_name="Ann")
    shop.sale(customer_external_id=buyer, amount=4999, currency="usd", invoice_id="in_axe")
    gone_id = shop.lead(click_id=new_click(site.edge), event_name="Sign up",
                        customer_external_id=gone).body["customer"]["id"]
    api(site.edge, "DELETE", f"/customers/{gone}")
    pages = [
        ("overview", "/console/"),
        ("links", "/console/links"),
        ("links-filtered", f"/console/links?domain={DEMO_HOST}"),
        ("link-new", "/console/links/new"),
        ("link-page", f"/console/links/{link['id']}"),
        ("link-page-90-days", f"/console/links/{link['id']}?days=90"),
        ("link-edit", f"/console/links/{link['id']}/edit"),
        ("apps", "/console/apps"),
        ("app", f"/console/apps/{DEMO_APP_ID}"),
        ("domains", "/console/domains"),
        ("settings", "/console/settings"),
        ("customers", "/console/customers"),
        ("customer", f"/console/customers/{buyer}"),
        ("customer-erased", f"/console/customers/erased_{gone_id}"),
        ("link-with-sales", f"/console/links/{LINK_IDS['invite']}?days=7"),
    ]
    for name, path in pages:
        b.open_console(path)
        assert path_of(b) == urllib.parse.urlsplit(path).path, (name, b.driver.current_url)
        assert status_of(b) == 200, name
        assert b.js("return document.documentElement.lang;") == "en", name
        assert len(b.driver.find_elements("css selector", "h1")) == 1, name
        audit(b, name)
    # Every chart has its data table beside it.
    b.open_console(f"/console/links/{link['id']}")
    for chart, data in (("clicks-chart", "clicks-table"), ("opens-chart", "opens-table")):
        assert exists(b, f"#{chart} svg[role=img]") and exists(b, f"table#{data}"), chart
    b.open_console("/console/")
    assert exists(b, "#overview-chart svg[role=img]") and exists(b, "table#overview-table")
    # Read at a glance (issue 25 item 7): the totals first, then the chart, then the
    # breakdowns side by side, the per-day tables folded (closed, still in the page).
    b.open_console(f"/console/links/{LINK_IDS['invite']}?days=7")
    order = b.js("""const at = s => { const e = document.querySelector(s); if (!e) return -1;
        return [...document.querySelectorAll('*')].indexOf(e); };
        return ['#totals', '#clicks-chart', '.breakdowns', 'details.days #clicks-table', '#funnel',
                'details.days #conversions-table'].map(at);""")
    assert -1 not in order and order == sorted(order), order
    assert b.js("return [...document.querySelectorAll('details.days')].every(d => !d.open);")
    assert b.js("return getComputedStyle(document.querySelector('.breakdowns')).display;") == "grid"
    assert b.js("return document.querySelector('#total-sales .value').textContent;") == "1"
    assert "49.99 USD" in b.js("return document.querySelector('#total-revenue-usd .value').textContent;")


def test_the_demo_one_time_link_signs_in_once(browser, site):
    b = browser
    banner = "\n".join(site.edge.stderr_lines)
    found = ONCE_RE.search(banner)
    assert found, banner
    once = found.group(1)
    assert f":{site.port}/" in once, (once, site.port)
    b.driver.get(once)
    wait_for(lambda: path_of(b) == "/console/", "the overview through the one-time link")
    assert exists(b, 'form[action="/console/sign-out"]')
    # Used: a second browser session (no cookie) gets the sign-in page, not a session.
    b.driver.delete_all_cookies()
    b.driver.get(once)
    assert status_of(b) == 401 and exists(b, "#key-error"), b.driver.page_source[:500]
    assert not exists(b, 'form[action="/console/sign-out"]')
    b.open_console("/console/")
    assert path_of(b) == "/console/sign-in"


def test_a_form_posted_without_its_csrf_token_is_refused_and_changes_nothing(browser, site):
    b = browser
    sign_in(b, site.edge.secret_key)
    key = "nocsrf-" + uuid.uuid4().hex[:8]
    b.open_console("/console/links/new")
    b.js("document.querySelectorAll('#link-form input[name=csrf]').forEach(e => e.remove());")
    from selenium.webdriver.support.ui import Select
    Select(b.driver.find_element("css selector", "#link-form select[name=domain]")).select_by_value(DEMO_HOST)
    for name, value in (("key", key), ("url", "https://www.example.com/no-csrf")):
        b.driver.find_element("css selector", f"#link-form [name={name}]").send_keys(value)
    by_id(b, "save-link").click()
    wait_for(lambda: status_of(b) == 403, "the refusal")
    assert link_by_key(site, key) is None
    # A forged token is refused too.
    b.open_console("/console/links/new")
    b.js("document.querySelectorAll('#link-form input[name=csrf]').forEach("
         "e => e.value = (e.value[0] === 'A' ? 'B' : 'A') + e.value.slice(1));")
    Select(b.driver.find_element("css selector", "#link-form select[name=domain]")).select_by_value(DEMO_HOST)
    for name, value in (("key", key), ("url", "https://www.example.com/no-csrf")):
        b.driver.find_element("css selector", f"#link-form [name={name}]").send_keys(value)
    by_id(b, "save-link").click()
    wait_for(lambda: status_of(b) == 403, "the refusal of a forged token")
    assert link_by_key(site, key) is None
    audit(b, "csrf-refused")


def test_times_are_shown_in_the_viewers_time_zone(browser, site):
    b = browser
    sign_in(b, site.edge.secret_key)
    status, _, _ = visit(site.edge, "/invite", ua=UA_ANDROID)
    assert status == 302
    barrier(site.edge)
    invite = link_by_key(site, "invite")
    b.cdp("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Kolkata"})
    try:
        b.open_console(f"/console/links/{invite['id']}")
        times = b.js("""return [...document.querySelectorAll('#recent-clicks time')]
                         .map(t => [t.getAttribute('datetime'), t.textContent.trim()]);""")
        assert times, "no <time> in the recent clicks"
        stamp, shown = times[0]
        assert stamp.endswith("Z"), stamp
        assert "UTC" not in shown, f"not rewritten to the viewer's zone: {shown}"
        # India is UTC+05:30: the minutes shown are the UTC minutes plus 30.
        minute = int(re.search(r"T\d\d:(\d\d)", stamp).group(1))
        assert f":{(minute + 30) % 60:02d}" in shown, (stamp, shown)
    finally:
        b.cdp("Emulation.setTimezoneOverride", {"timezoneId": ""})


class AttackPage:
    """A page of another site (127.0.0.2 is another site than the console's 127.0.0.1, so the
    console's SameSite=Strict cookies stay home), which any page the operator opens could be: it
    asks the console for unknown one-time sign-in links with `<img>` tags and posts wrong keys to
    the sign-in form, the way a hostile page would try to lock the operator out (issue 23 item 2)."""

    def __init__(self, console_origin, images=8, posts=3):
        import http.server, threading
        tags = "".join(f'<img alt="" src="{console_origin}/console/sign-in/once?token=junk{n}">'
                       for n in range(images))
        forms = "".join(f'<iframe name="f{n}"></iframe><form id="p{n}" method="post" target="f{n}" '
                        f'action="{console_origin}/console/sign-in"><input name="key" value="biqli_sk_wrong{n}">'
                        f'</form>' for n in range(posts))
        submit = "".join(f"document.getElementById('p{n}').submit();" for n in range(posts))
        self.html = (f"<!doctype html><title>cat pictures</title>{tags}{forms}"
                     f"<script>{submit}</script>").encode()
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(owner.html)))
                self.end_headers()
                self.wfile.write(owner.html)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.2", 0), Handler)
        self.url = f"http://127.0.0.2:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def console_requests(site, path):
    return sum(1 for e in site.edge.log_entries() if e.get("path") == path)


def test_a_hostile_page_cannot_lock_the_operator_out_of_sign_in(browser, site):
    b = browser
    attack = AttackPage(site.origin, images=8, posts=3)
    try:
        before_links = console_requests(site, "/console/sign-in/once")
        before_posts = console_requests(site, "/console/sign-in")
        b.driver.get(attack.url)
        wait_for(lambda: b.js("return [...document.images].every(i => i.complete);"), "the attack's images")
        wait_for(lambda: console_requests(site, "/console/sign-in/once") >= before_links + 8,
                 "the attack's requests at the console")
        wait_for(lambda: console_requests(site, "/console/sign-in") >= before_posts + 3, "the attack's posts")
        # Twice the attack, past any allowance (5 at once).
        b.driver.get(attack.url)
        wait_for(lambda: console_requests(site, "/console/sign-in/once") >= before_links + 16,
                 "the second round of the attack")
        # The operator, on the same address, signs in with the right key at once.
        sign_in(b, site.edge.secret_key)
        assert exists(b, 'form[action="/console/sign-out"]')
    finally:
        attack.close()


# ---------------------------------------------------------------- issue 35: link options, tags, the A/B test


def test_the_link_options_editor_the_tags_page_and_the_ab_table(browser, site):
    """The tags page makes a tag; the link form adds a rule row without script, shows the API's
    error beside the rule's countries, saves on Enter in a field, and the link's page has the
    A/B table; each page passes axe."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
    b = browser
    sign_in(b, site.edge.secret_key)
    name = "tag-" + uuid.uuid4().hex[:6]
    b.open_console("/console/tags")
    by_id(b, "name").send_keys(name)
    Select(by_id(b, "color")).select_by_value("purple")
    by_id(b, "create-tag").click()
    wait_for(lambda: path_of(b) == "/console/tags" and name in b.driver.page_source, "the new tag in the list")
    tag = next(t for t in api(site.edge, "GET", "/tags")["data"] if t["name"] == name)
    assert "Purple" in b.js("return document.getElementById(arguments[0]).textContent;", f"tag-{tag['id']}")
    audit(b, "tags")

    key = "ab-" + uuid.uuid4().hex[:8]
    b.open_console("/console/links/new")
    Select(b.driver.find_element("css selector", "#link-form select[name=domain]")).select_by_value(DEMO_HOST)
    for field, value in (("key", key), ("url", "https://www.example.com/ab"), ("rule-0-countries", "DE, AT"),
                         ("rule-0-url", "https://www.example.com/dach")):
        by_id(b, field).send_keys(value)
    b.js("document.querySelectorAll('script').forEach(s => s.remove());")  # the button needs no script
    by_id(b, "add-rule").click()
    wait_for(lambda: exists(b, "#rule-1-url"), "a second rule row")
    assert by_id(b, "rule-0-countries").get_attribute("value") == "DE, AT", "what was typed is kept"
    assert link_by_key(site, key) is None, "adding a row saves nothing"
    for field, value in (("rule-1-countries", "Germany"), ("rule-1-url", "https://www.example.com/ios"),
                         ("variant-0-url", "https://www.example.com/a"), ("variant-0-weight", "50"),
                         ("variant-1-url", "https://www.example.com/b"), ("variant-1-weight", "50"),
                         ("utm_source", "newsletter")):
        by_id(b, field).send_keys(value)
    for box in ("rule-1-platforms-ios", f"tag-{tag['id']}"):
        by_id(b, box).click()
    by_id(b, "save-link").click()
    wait_for(lambda: exists(b, "#rule-1-countries-error"), "the rule's error beside its countries")
    assert status_of(b) == 422
    field = by_id(b, "rule-1-countries")
    assert field.get_attribute("aria-invalid") == "true"
    assert field.get_attribute("aria-describedby") == "rule-1-countries-error"
    assert "rules[1].if.countries[0]" in by_id(b, "rule-1-countries-error").text
    assert by_id(b, "rule-1-platforms-ios").is_selected() and by_id(b, f"tag-{tag['id']}").is_selected()
    audit(b, "link-form-options-error")

    field.clear()
    field.send_keys("CH")
    field.send_keys(Keys.ENTER)  # the form's first submit button is "Save link", not "Add a rule"
    wait_for(lambda: re.fullmatch(r"/console/links/biq_lnk_[0-9A-Z]{26}", path_of(b)), "the new link's page")
    made = link_by_key(site, key)
    assert [r["if"].get("countries") for r in made["rules"]] == [["DE", "AT"], ["CH"]], made["rules"]
    assert made["rules"][1]["if"]["platforms"] == ["ios"] and made["tagIds"] == [tag["id"]]
    assert [v["weight"] for v in made["variants"]] == [50, 50] and made["utm"]["source"] == "newsletter"
    rows = table_rows(b, "ab-table")
    assert [row[0] for row in rows] == ["A (control)", "B"], rows
    assert rows[1][1] == "https://www.example.com/b" and rows[1][2] == "50\xa0%", rows
    assert exists(b, "#ab-assumptions")
    audit(b, "link-ab-test")
    from browser import ARTIFACTS
    assert by_id(b, "ab-test-section").screenshot(os.path.join(ARTIFACTS, "console-link-ab-table.png"))
    b.open_console(f"/console/links/{made['id']}/edit")
    assert by_id(b, "rule-1-countries").get_attribute("value") == "CH"
    audit(b, "link-edit-options")
    b.open_console(f"/console/links?tagId={tag['id']}")
    assert [row[0] for row in table_rows(b, "links")] == [f"https://{DEMO_HOST}/{key}"]
    audit(b, "links-by-tag")
