"""The console's Settings page (decision 0027): client-side click tracking's switch and
allowed hostnames, written through the API's rules, with the API's refusals shown on the form.
Uses test_console.py's small browser and its signed-in fixture."""
import html, re

from test_console import Browser, console  # noqa: F401 (the fixture)


def test_the_settings_form_turns_client_click_tracking_on_with_its_hostnames(console):
    edge, api, key = console, console.api, console.key
    browser = Browser(edge)
    browser.sign_in(key)
    status, _, page = browser.get("/console/settings")
    assert status == 200 and "<h1>Settings</h1>" in page
    assert 'href="/console/settings" aria-current="page"' in page
    assert 'id="enabled" name="enabled" type="checkbox" value="on">' in page  # off
    assert "No browser key yet" in page

    token = browser.csrf("/console/settings")
    status, _, page = browser.post("/console/settings", {
        "csrf": token, "enabled": "on", "hostnames": "shop.example.com\r\n*.example.org\r\n"})
    assert status == 200 and 'id="settings-saved"' in page, page[page.find("<main"):][:1500]
    assert api.get("/api/v1/client-click-tracking").json["hostnames"] == ["shop.example.com", "*.example.org"]
    assert api.get("/api/v1/client-click-tracking").json["enabled"] is True
    assert "checked" in re.search(r'<input id="enabled"[^>]*>', page).group(0)

    # A refusal keeps what was typed and names the hostname with the API's rule; nothing is saved.
    status, _, page = browser.post("/console/settings", {
        "csrf": token, "hostnames": "ok.example.com\n10.0.0.1"})
    assert status == 422 and 'id="form-errors"' in page
    assert "10.0.0.1 must be a lower-case hostname" in html.unescape(page)
    assert "ok.example.com\n10.0.0.1" in html.unescape(page)
    assert api.get("/api/v1/client-click-tracking").json["enabled"] is True

    # Without its CSRF token: refused, nothing changes.
    status, _, _ = browser.post("/console/settings", {"hostnames": ""})
    assert status == 403
    assert api.get("/api/v1/client-click-tracking").json["hostnames"] == ["shop.example.com", "*.example.org"]

    # Unchecked: off, hostnames kept as typed.
    api.post("/api/v1/browser-keys", {"name": "shop-site"})
    status, _, page = browser.post("/console/settings", {"csrf": token, "hostnames": "shop.example.com"})
    assert status == 200
    assert api.get("/api/v1/client-click-tracking").json == {
        "enabled": False, "hostnames": ["shop.example.com"],
        "updatedAt": api.get("/api/v1/client-click-tracking").json["updatedAt"]}
    assert "shop-site" in page
