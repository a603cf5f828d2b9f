"""Request bodies of hostile JSON shapes (issue 33 item 3), black-box on the real binary: a body
of thousands of distinct keys (about 60 KB, within the size limit) held an event loop for
hundreds of milliseconds through a quadratic duplicate-key check. Every route that reads a JSON
body with the API's limits now refuses more than 4,096 values with the rule named, and a refusal
lists at most 100 problems; the edge still answers `/healthz` (no timing here: the figures are
bench/json_shapes.py's). Runs on both backends."""
import json

from edge import request
from fixtures_data import api, start_demo
from management_api import cli
from test_resolver import ROOMY

SHOP = "https://shop.example.test"
VALUE_RULE = "must hold at most 4096 JSON values (members and array items)"


def keys(count, prefix=""):
    return json.dumps({f"{prefix}{i:x}": 0 for i in range(count)}, separators=(",", ":")).encode()


def routes(demo):
    """Every route that reads its body with the API's limits, with what it needs to get there."""
    out = cli(["keys", "create", "--browser", "--name", "shop"], demo.dir)
    assert out.returncode == 0, out.stderr
    api(demo, "PATCH", "/client-click-tracking", {"enabled": True, "hostnames": ["shop.example.test"]})
    secret = {"Authorization": "Bearer " + demo.secret_key, "Content-Type": "application/json"}
    return [
        ("POST", "/api/v1/track/click", {"Authorization": "Bearer " + out.stdout.strip(), "Origin": SHOP}),
        ("POST", "/api/v1/track/lead", {**secret, "Idempotency-Key": "lead-1"}),
        ("POST", "/api/v1/track/sale", {**secret, "Idempotency-Key": "sale-1"}),
        ("POST", "/api/v1/links", secret),
        ("PATCH", "/api/v1/client-click-tracking", secret),
    ]


def healthy(demo):
    status, _, body = request(demo.http_port, "/healthz")
    return status == 200 and body


def test_a_body_of_thousands_of_keys_is_refused_by_its_value_budget_on_every_route(edge_factory):
    demo = start_demo(edge_factory, env=ROOMY)
    body = keys(7_000)
    assert 55_000 < len(body) <= 65_536
    for method, path, headers in routes(demo):
        status, _, raw = request(demo.http_port, path, method=method, headers=headers, body=body)
        answer = json.loads(raw)
        assert (status, answer["error"]["code"]) == (400, "validation_error"), (path, answer)
        assert answer["error"]["details"]["field"] == "body" and answer["error"]["details"]["rule"] == VALUE_RULE
        assert healthy(demo), path
    # 4,096 values in all is still read (here: refused for what they are, unknown fields).
    status, _, raw = request(demo.http_port, "/api/v1/links", method="POST", body=keys(4_095),
                             headers={"Authorization": "Bearer " + demo.secret_key})
    assert status == 422, raw[:300]


def test_a_refusal_lists_at_most_a_hundred_problems_and_counts_them_all(edge_factory):
    demo = start_demo(edge_factory, env=ROOMY)
    for method, path, headers in routes(demo):
        if path.startswith("/api/v1/track/l") or path.endswith("/sale"):
            continue  # leads and sales ignore members they do not know (decision 0024)
        status, _, raw = request(demo.http_port, path, method=method, headers=headers, body=keys(3_000, "x"))
        answer = json.loads(raw)
        assert (status, answer["error"]["code"]) == (422, "validation_error"), (path, answer)
        listed = answer["error"]["details"]["errors"]
        assert len(listed) == 100 and all(e["rule"] == "is not a known field" for e in listed[-90:]), path
        assert "more; details.errors lists the first 100)" in answer["error"]["message"], answer["error"]["message"]
        assert len(raw) < 16_384, (path, len(raw))
    assert healthy(demo)
