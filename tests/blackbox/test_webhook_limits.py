"""Webhooks aimed at third parties (issue 33 item 8): a URL is registered once per workspace (409
`webhook_url_taken`, compared normalised), and an endpoint is sent at most 5 test events a minute,
through the API and the console's button alike (429 `rate_limit_exceeded`, `Retry-After`). Before
the fix, the same URL could be registered 50 times and test events had no limit."""
import json, re

from edge import request
from fixtures_data import DEMO_HOST, api, start_demo
from test_console import Browser
from test_webhooks import FAST

RECEIVER = "https://hooks.example.com/in"


def call(edge, method, path, body=None):
    headers = {"Authorization": "Bearer " + edge.secret_key}
    raw = b""
    if body is not None:
        headers["Content-Type"] = "application/json"
        raw = json.dumps(body).encode()
    status, answer_headers, answer = request(edge.http_port, "/api/v1" + path, method=method, headers=headers,
                                             body=raw)
    return status, answer_headers, json.loads(answer) if answer else None


def test_the_same_url_is_registered_once(edge_factory):
    edge = start_demo(edge_factory, env=FAST)
    status, _, first = call(edge, "POST", "/webhooks", {"url": RECEIVER, "events": ["link.created"]})
    assert status == 201
    for spelling in (RECEIVER, "https://HOOKS.example.com:443/in", "https://hooks.example.com/./in#x",
                     "https://hooks.example.com/%69n"):
        status, _, answer = call(edge, "POST", "/webhooks", {"url": spelling, "events": ["open.created"]})
        assert status == 409, (spelling, answer)
        assert answer["error"]["code"] == "webhook_url_taken"
        assert answer["error"]["details"] == {"field": "url", "endpointId": first["id"]}
        assert first["id"] in answer["error"]["message"]
    # Another path, query or port is another receiver.
    for other in ("https://hooks.example.com/in/", "https://hooks.example.com/in?tenant=2",
                  "https://hooks.example.com:8443/in"):
        assert call(edge, "POST", "/webhooks", {"url": other, "events": ["link.created"]})[0] == 201, other
    # A PATCH onto a taken URL is refused; one that keeps its own URL is not.
    status, _, second = call(edge, "POST", "/webhooks", {"url": "https://b.example.com/", "events": ["link.created"]})
    assert status == 201
    status, _, answer = call(edge, "PATCH", f"/webhooks/{second['id']}", {"url": "https://hooks.example.com:443/in"})
    assert status == 409 and answer["error"]["code"] == "webhook_url_taken"
    assert call(edge, "PATCH", f"/webhooks/{first['id']}", {"url": RECEIVER + "#y", "enabled": False})[0] == 200
    assert len(api(edge, "GET", "/webhooks")["data"]) == 5
    # Documented in the served document.
    doc = json.loads(request(edge.http_port, "/api/v1/openapi.json")[2])
    assert "webhook_url_taken" in doc["paths"]["/api/v1/webhooks"]["post"]["responses"]["409"]["description"]
    assert "webhook_url_taken" in doc["components"]["schemas"]["ApiError"]["properties"]["error"]["properties"][
        "code"]["enum"]


def test_test_events_are_limited_per_endpoint_through_the_api_and_the_console(edge_factory):
    edge = start_demo(edge_factory, env=FAST)
    hook = api(edge, "POST", "/webhooks", {"url": RECEIVER, "events": ["link.created"]})
    other = api(edge, "POST", "/webhooks", {"url": RECEIVER + "2", "events": ["link.created"]})
    for _ in range(4):
        assert call(edge, "POST", f"/webhooks/{hook['id']}/test")[0] == 202
    browser = Browser(edge)
    browser.sign_in(edge.secret_key)
    page = f"/console/webhooks/{hook['id']}"
    status, _, _ = browser.post(page + "/test", {"csrf": browser.csrf(page)})
    assert status == 200, "the fifth, from the console's button"
    # The sixth: refused by the API and by the console alike.
    status, headers, answer = call(edge, "POST", f"/webhooks/{hook['id']}/test")
    assert status == 429 and answer["error"]["code"] == "rate_limit_exceeded"
    wait = int(headers["retry-after"])
    assert 1 <= wait <= 60 and answer["error"]["details"] == {"retryAfter": wait}
    assert "5 test events a minute" in answer["error"]["message"]
    status, headers, body = browser.post(page + "/test", {"csrf": browser.csrf(page)})
    assert status == 429 and 1 <= int(headers["retry-after"]) <= 60
    assert "5 test events a minute" in body
    # Only five test deliveries were made; another endpoint has its own five.
    tests = [d for d in api(edge, "GET", f"/webhooks/{hook['id']}/deliveries")["data"] if d["type"] == "webhook.test"]
    assert len(tests) == 5
    assert call(edge, "POST", f"/webhooks/{other['id']}/test")[0] == 202
    doc = json.loads(request(edge.http_port, "/api/v1/openapi.json")[2])
    test_op = doc["paths"]["/api/v1/webhooks/{id}/test"]["post"]
    assert "Retry-After" in test_op["responses"]["429"]["headers"]
    assert re.search(r"At most 5 test events per endpoint in any 60 seconds", test_op["description"])
