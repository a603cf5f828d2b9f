"""A NUL byte in every text parameter of every API and console route, on both backends (issue 23
item 3). PostgreSQL's `text` cannot hold U+0000 (error 22021), SQLite's can; no stored text has
one (every write is validated), so the store treats a read with such a parameter as one that
matches nothing, before the parameter reaches PostgreSQL, and refuses a write. Whatever the
route: never a 500, never `22021` in the log, and the same answer on both backends (the expected
statuses below are asserted on each pass).

Schemathesis does not generate NUL bytes, hence this table. `%00` sits alone and inside a value
(`a%00b`), in path segments, query values, form fields and JSON strings (`\\u0000`)."""
import json
import time
import urllib.parse

import pytest

from edge import request
from fixtures_data import DEMO_APP_ID, DEMO_HOST, LINK_IDS, UA_ANDROID, UA_DESKTOP, start_demo, visit
from test_console import Browser

LINK = LINK_IDS["invite"]
NULS = ["%00", "a%00b"]


def call(edge, method, path, body=None):
    """One workspace API call with the demo's secret key: (status, headers, body)."""
    headers = {"Authorization": "Bearer " + edge.secret_key, "Accept": "application/json"}
    raw = b""
    if body is not None:
        headers["Content-Type"] = "application/json"
        raw = json.dumps(body).encode()
    return send(edge, method, "/api/v1" + path, headers, raw)


def send(edge, method, path, headers, raw=b""):
    return request(edge.https_port, path, method=method, headers=headers, body=raw, tls=True, sni=DEMO_HOST,
                   host=DEMO_HOST)


# (method, path with {nul}, JSON body or None, the statuses allowed: the same on both backends)
API = [
    ("GET", "/domains?cursor={nul}", None, {200}),
    ("GET", "/domains/{nul}", None, {404}),
    ("PATCH", "/domains/{nul}", {"notFoundUrl": None}, {404}),
    ("DELETE", "/domains/{nul}", None, {404}),
    ("GET", "/mobile-apps?cursor={nul}", None, {200}),
    ("GET", "/mobile-apps/{nul}", None, {404}),
    ("PATCH", "/mobile-apps/{nul}", {"name": "x"}, {404}),
    ("DELETE", "/mobile-apps/{nul}", None, {404}),
    ("POST", "/mobile-apps/{nul}/keys/rotate", None, {404}),
    ("GET", "/mobile-apps/{nul}/analytics", None, {404}),
    ("GET", f"/mobile-apps/{DEMO_APP_ID}/analytics?days={{nul}}", None, {400}),
    ("GET", "/links?cursor={nul}", None, {200}),
    ("GET", "/links?domain={nul}", None, {200}),
    ("GET", f"/links?domain={DEMO_HOST}&cursor={{nul}}", None, {200}),
    ("GET", "/links?limit={nul}", None, {400}),
    ("GET", "/links/{nul}", None, {404}),
    ("PATCH", "/links/{nul}", {"enabled": False}, {404}),
    ("DELETE", "/links/{nul}", None, {404}),
    ("GET", "/links/{nul}/analytics", None, {404}),
    ("GET", "/links/{nul}/qr.svg", None, {404}),
    ("GET", "/links/{nul}/qr.png", None, {404}),
    ("GET", f"/links/{LINK}/analytics?days={{nul}}", None, {400}),
    ("GET", f"/links/{LINK}/qr.svg?size={{nul}}", None, {400}),
    ("GET", f"/links/{LINK}/qr.svg?margin={{nul}}", None, {400}),
    ("GET", f"/links/{LINK}/qr.png?level={{nul}}", None, {400}),
]

# JSON bodies: a \u0000 in each text field of the writes.
BODIES = [
    ("POST", "/domains", {"hostname": "x\u0000.example.com"}, {422}),
    ("POST", "/domains", {"hostname": "ok.example.com", "notFoundUrl": "https://e.example/\u0000"}, {422}),
    ("POST", "/links", {"domain": "\u0000", "url": "https://www.example.com/"}, {422}),
    ("POST", "/links", {"domain": DEMO_HOST, "key": "a\u0000b", "url": "https://www.example.com/"}, {422}),
    ("POST", "/links", {"domain": DEMO_HOST, "url": "https://www.example.com/\u0000"}, {422}),
    ("POST", "/links", {"domain": DEMO_HOST, "url": "https://www.example.com/",
                        "mobile": {"appId": "\u0000", "route": "/x"}}, {422}),
    ("POST", "/links", {"domain": DEMO_HOST, "url": "https://www.example.com/",
                        "mobile": {"appId": DEMO_APP_ID, "route": "/x\u0000"}}, {422}),
    ("POST", "/links", {"domain": DEMO_HOST, "url": "https://www.example.com/",
                        "preview": {"title": "t\u0000"}}, {422}),
    ("PATCH", f"/links/{LINK}", {"key": "\u0000"}, {422}),
    ("PATCH", f"/links/{LINK}", {"mobile": {"referralCode": "\u0000"}}, {422}),
    ("POST", "/mobile-apps", {"name": "\u0000"}, {422}),
    ("PATCH", f"/mobile-apps/{DEMO_APP_ID}", {"name": "n\u0000"}, {422}),
    ("PATCH", f"/mobile-apps/{DEMO_APP_ID}", {"domains": ["\u0000"]}, {422}),
]

# Console pages and forms, signed in: (method, path with {nul}, form or None, statuses).
CONSOLE = [
    ("GET", "/console/links/{nul}", None, {404}),
    ("GET", "/console/links/{nul}/edit", None, {404}),
    ("GET", "/console/links/{nul}/qr.svg", None, {404}),
    ("GET", "/console/links/{nul}/delete", None, {404}),
    ("POST", "/console/links/{nul}/disable", {}, {404}),
    ("POST", "/console/links/{nul}/enable", {}, {404}),
    ("POST", "/console/links/{nul}/delete", {}, {404}),
    ("POST", "/console/links/{nul}", {"url": "https://www.example.com/"}, {404}),
    ("GET", "/console/apps/{nul}", None, {404}),
    ("POST", "/console/apps/{nul}/keys/rotate", {}, {404}),
    ("GET", "/console/links?domain={nul}", None, {200}),
    ("GET", "/console/links?after={nul}", None, {200}),
    ("GET", f"/console/links?domain={DEMO_HOST}&after={{nul}}", None, {200}),
    ("GET", "/console/links?q={nul}", None, {200}),
    ("GET", f"/console/links/{LINK}?days={{nul}}", None, {200}),
    ("POST", "/console/links", {"domain": "{nul}", "url": "https://www.example.com/"}, {422}),
    ("POST", "/console/links", {"domain": DEMO_HOST, "key": "{nul}", "url": "https://www.example.com/"}, {422}),
    ("POST", "/console/links", {"domain": DEMO_HOST, "url": "https://www.example.com/{nul}"}, {422}),
    ("POST", "/console/links", {"domain": DEMO_HOST, "url": "https://www.example.com/", "app": "{nul}",
                                "route": "/x"}, {422}),
    ("POST", f"/console/links/{LINK}", {"domain": DEMO_HOST, "key": "invite",
                                        "url": "https://www.example.com/", "title": "{nul}"}, {422}),
]


@pytest.fixture(scope="module")
def demo():
    from edge import Edge
    started = []
    edge = start_demo(lambda **kw: started.append(Edge(**kw)) or started[-1],
                      env={"BIQLI_EDGE_CONSOLE_ADDR": "127.0.0.1:0"})
    yield edge
    for e in started:
        e.kill()


@pytest.fixture
def clean_log(demo):
    """Asserts that the test's requests logged no 500 and no PostgreSQL 22021 (the lines its
    requests added: the access log line of the last one is waited for)."""
    start = len(demo.lines)
    yield
    deadline = time.time() + 2
    while time.time() < deadline and not any('"status":' in line for line in list(demo.lines)[start:]):
        time.sleep(0.01)
    time.sleep(0.05)
    bad = [line for line in list(demo.lines)[start:] if "22021" in line or '"status":500' in line]
    assert not bad, bad[-3:]


@pytest.mark.parametrize("nul", NULS)
@pytest.mark.parametrize("method,path,body,allowed", API, ids=[f"{m} {p}" for m, p, _, _ in API])
def test_api_path_and_query_parameters(demo, clean_log, nul, method, path, body, allowed):
    status, _, answer = call(demo, method, path.format(nul=nul), body)
    assert status in allowed, (status, answer[:300])


@pytest.mark.parametrize("method,path,body,allowed", BODIES, ids=[f"{m} {p} {list(b)}" for m, p, b, _ in BODIES])
def test_api_json_strings(demo, clean_log, method, path, body, allowed):
    status, _, answer = call(demo, method, path, body)
    assert status in allowed, (status, answer[:300])


@pytest.fixture(scope="module")
def console(demo):
    b = Browser(demo)
    b.sign_in(demo.secret_key)
    return b


@pytest.mark.parametrize("nul", NULS)
@pytest.mark.parametrize("method,path,form,allowed", CONSOLE, ids=[f"{m} {p} {f}" for m, p, f, _ in CONSOLE])
def test_console_parameters(demo, console, clean_log, nul, method, path, form, allowed):
    target = path.format(nul=nul)
    if form is None:
        status, _, page = console.get(target)
    else:
        fields = {k: urllib.parse.unquote(v.format(nul=nul)) for k, v in form.items()}
        csrf = console.csrf("/console/links/new")
        status, _, page = console.post(target, {"csrf": csrf, **fields})
    assert status in allowed, (status, page[:300])


@pytest.mark.parametrize("nul", NULS)
def test_sign_in_visits_and_the_resolver(demo, clean_log, nul):
    b = Browser(demo)
    assert b.get(f"/console/sign-in/once?token={nul}")[0] == 401
    token = b.csrf("/console/sign-in")
    assert b.post("/console/sign-in", {"csrf": token, "key": urllib.parse.unquote(nul)})[0] == 401
    for path, ua in ((f"/{nul}", UA_DESKTOP), (f"/{nul}", UA_ANDROID), (f"/invite?ref={nul}", UA_ANDROID),
                     (f"/invite?ref={nul}", UA_DESKTOP), (f"/m/handoff?biqli_token={nul}", UA_ANDROID),
                     (f"/invite/qr.svg?size={nul}", UA_DESKTOP)):
        status, _, _ = visit(demo, path, ua=ua)
        assert status in (200, 302, 404), (path, status)
    body = json.dumps({"eventId": "ev\u0000", "appInstanceId": "i\u0000", "platform": "android",
                       "installReferrer": "biqli_token=" + urllib.parse.unquote(nul)})
    status, _, answer = send(demo, "POST", "/api/v1/track/open", {
        "Authorization": "Bearer " + demo.publishable_key, "Content-Type": "application/json"}, body.encode())
    assert 400 <= status < 500, (status, answer[:300])
