"""The iOS Deep View in each in-app browser (issue 36 item 4, decision 0033 §4), in headless
Chromium with each iOS in-app user agent of Tests/VisitTests/InAppBrowserCorpus.swift (read
from that file, so the two never drift apart): the heading names the app, Continue stays the
first and main button, Safari is a link from iOS 17.5 (not in Snapchat or WeChat) and the menu
steps otherwise; axe-core finds no serious or critical violation, no CSP violation or console
error, in light and dark. `BIQLI_DEEPVIEW_SCREENSHOTS=<dir>` also writes the README's pictures
(`deepview-in-app-<tag>-<lang>.png`). Set-up as test_browser.py."""
import os, re, time

import pytest

from browser import UA_IPHONE, Site, errors_in, is_csp_message, unavailable_reason

REASON = unavailable_reason()
pytestmark = [pytest.mark.skipif(REASON is not None and not os.environ.get("CI"), reason=str(REASON)),
              pytest.mark.store_independent]

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "Tests", "VisitTests", "InAppBrowserCorpus.swift")
ENTRY = re.compile(r'e\(\s*"([^"]+)", \.iOS,\s*"((?:[^"\\]|\\.)*)",\s*"([a-z]+)"')
# Sources/Visit/InApp/InAppBrowserName.swift, for the tags of the iOS rows.
NAMES = {"instagram": "Instagram", "facebook": "Facebook", "messenger": "Messenger", "tiktok": "TikTok",
         "snapchat": "Snapchat", "linkedin": "LinkedIn", "line": "LINE", "wechat": "WeChat", "twitter": "X",
         "google": "Google", "pinterest": "Pinterest", "threads": "Threads"}
STORE_URL = "https://apps.apple.com/app/id1234567890"
README_SHOTS = {("instagram", "Instagram on iPhone (iOS 18.1)", "en"),
                ("instagram", "Instagram on iPhone (iOS 18.1)", "ja")}


def ios_in_app_rows():
    with open(CORPUS, encoding="utf-8") as f:
        rows = [(label, ua.replace('\\"', '"'), tag) for label, ua, tag in ENTRY.findall(f.read())]
    assert len(rows) >= 15, rows  # every iOS row with a tag
    return rows


ROWS = ios_in_app_rows()


def ios_version(ua):
    m = re.search(r"OS (\d+)_(\d+)", ua)
    return (int(m.group(1)), int(m.group(2)))


@pytest.fixture(scope="module")
def site():
    s = Site()
    yield s
    s.close()


@pytest.fixture(scope="module")
def browser(site):
    b = site.browser(UA_IPHONE)
    yield b
    b.quit()


def as_visitor(b, ua, language=None):
    b.ua = ua
    b.reset()
    b.set_accept_language(language)


def audit(b, what):
    from axe_selenium_python import Axe
    axe = Axe(b.driver)
    axe.inject()
    bad = [v for v in axe.run()["violations"] if v.get("impact") in ("serious", "critical")]
    assert bad == [], f"{what}: " + axe.report(bad)
    log = b.take_log()
    assert not [e for e in log if is_csp_message(e)], (what, log)
    assert errors_in(log) == [], (what, log)
    assert b.csp_violations_here() == [], what


@pytest.mark.parametrize("label,ua,tag", ROWS, ids=[row[0] for row in ROWS])
def test_each_ios_in_app_browser_gets_its_part_after_continue(browser, label, ua, tag):
    as_visitor(browser, ua)
    browser.open("/invite?ref=ig")
    state = browser.js("""
        const q = s => document.querySelector(s);
        return {heading: q('#biqli-in-app') && q('#biqli-in-app').textContent,
                links: [...document.querySelectorAll('a')].map(a => [a.id, a.getAttribute('href')]),
                steps: q('#biqli-steps') && q('#biqli-steps').textContent,
                sheets: [...document.styleSheets].map(s => s.cssRules.length),
                continueBox: q('#biqli-continue').getBoundingClientRect().toJSON(),
                partTop: q('.in-app').getBoundingClientRect().top};""")
    assert state["heading"] == f"You’re in {NAMES[tag]}’s browser", state
    assert state["links"][0] == ["biqli-continue", STORE_URL], state  # first, unchanged
    assert len(state["sheets"]) == 2 and all(n > 0 for n in state["sheets"]), state
    assert state["continueBox"]["bottom"] <= state["partTop"], state  # Continue above the part
    scheme = ios_version(ua) >= (17, 5) and tag not in ("snapchat", "wechat")
    if scheme:
        assert state["links"][1:] == [["biqli-safari", "x-safari-https://go.example.test/invite?ref=ig&bq_ia=1"]]
        assert state["steps"] is None
    else:
        assert state["links"][1:] == [] and state["steps"].startswith("To open this page in Safari"), state
        assert ("tap ⋯" in state["steps"]) == (tag == "instagram"), state
    for scheme_name in ("light", "dark"):
        browser.set_color_scheme(scheme_name)
        audit(browser, f"{label} ({scheme_name})")
    browser.set_color_scheme("light")
    browser.screenshot(f"deepview-in-app-{tag}-{ios_version(ua)[0]}.png")


@pytest.mark.parametrize("language,heading,safari", [
    ("en", "You’re in Instagram’s browser", "Open in Safari"),
    ("ja", "Instagramのアプリ内ブラウザで表示しています", "Safariで開く"),
    ("fr", "Vous êtes dans le navigateur de l’app Instagram", "Ouvrir dans Safari"),
])
def test_the_part_speaks_the_pages_language_and_fits_a_320px_phone(browser, language, heading, safari):
    label, ua, tag = next(row for row in ROWS if row[0] == "Instagram on iPhone (iOS 18.1)")
    as_visitor(browser, ua, language)
    browser.set_viewport(320, 568)
    browser.open("/invite")
    state = browser.js("""
        return {lang: document.documentElement.lang, heading: document.getElementById('biqli-in-app').textContent,
                safari: document.getElementById('biqli-safari').textContent,
                scroll: document.documentElement.scrollWidth,
                continueBottom: document.getElementById('biqli-continue').getBoundingClientRect().bottom,
                height: innerHeight};""")
    assert (state["lang"], state["heading"], state["safari"]) == (language, heading, safari), state
    assert state["scroll"] <= 320 and state["continueBottom"] <= state["height"], state
    audit(browser, f"{label} in {language}")
    browser.set_viewport(390, 844)
    browser.open("/invite")
    browser.screenshot(f"deepview-in-app-{tag}-{language}.png")
    out = os.environ.get("BIQLI_DEEPVIEW_SCREENSHOTS")
    if out and (tag, label, language) in README_SHOTS:
        os.makedirs(out, exist_ok=True)
        assert browser.driver.save_screenshot(os.path.join(out, f"deepview-in-app-{tag}-{language}.png"))


def test_continue_in_an_in_app_browser_still_copies_the_handoff_then_opens_the_store(browser):
    _, ua, _ = next(row for row in ROWS if row[0] == "Instagram on iPhone (iOS 18.1)")
    as_visitor(browser, ua)
    browser.grant_clipboard()
    browser.open("/invite")
    handoff = browser.js("return document.getElementById('biqli-continue').getAttribute('data-handoff');")
    assert re.match(r"^https://go\.example\.test/m/handoff\?biqli_token=bqmh_[A-Za-z0-9_-]{43}$", handoff), handoff
    from selenium.webdriver.common.by import By
    browser.driver.find_element(By.ID, "biqli-continue").click()
    for _ in range(100):
        if browser.driver.current_url == STORE_URL:
            break
        time.sleep(0.05)
    assert browser.driver.current_url == STORE_URL
    browser.open("/m/handoff")
    assert browser.read_clipboard() == handoff
    browser.take_log()
