"""One spelling for every integer query parameter (issue 23 item 4): digits only, no sign, no
spaces, no leading zero, within the documented range; anything else is 400 `validation_error`
naming the parameter, whichever route takes it (`size=+2048` was accepted while `days=+5` was
refused). The OpenAPI document says so for each of them."""
import json

import pytest

from fixtures_data import DEMO_APP_ID, LINK_IDS, start_demo
from test_nul_parameters import call

LINK = LINK_IDS["invite"]
# (path, parameter, a good value, the range's bounds)
PARAMETERS = [
    ("/domains", "limit", "7", (1, 100)),
    ("/mobile-apps", "limit", "7", (1, 100)),
    ("/links", "limit", "7", (1, 100)),
    (f"/links/{LINK}/analytics", "days", "5", (1, 365)),
    (f"/mobile-apps/{DEMO_APP_ID}/analytics", "days", "5", (1, 365)),
    (f"/links/{LINK}/qr.svg", "size", "2048", (64, 2048)),
    (f"/links/{LINK}/qr.png", "size", "64", (64, 2048)),
    (f"/links/{LINK}/qr.svg", "margin", "0", (0, 16)),
    (f"/links/{LINK}/qr.png", "margin", "16", (0, 16)),
]
# Percent-encoded as a client would send them: %2B is "+", %20 a space ("+" alone is a space too).
BAD = ["%2B{n}", "+{n}", "%20{n}", "{n}%20", "0{n}", "-{n}", "{n}.0", "{n}e0", "0x{n}", "{n}abc", "", "%EF%BC%95",
       "99999999999999999999"]


@pytest.fixture(scope="module")
def demo():
    from edge import Edge
    started = []
    edge = start_demo(lambda **kw: started.append(Edge(**kw)) or started[-1])
    yield edge
    for e in started:
        e.kill()


@pytest.mark.parametrize("path,name,good,bounds", PARAMETERS, ids=[f"{p} {n}" for p, n, _, _ in PARAMETERS])
def test_every_integer_parameter_takes_one_spelling(demo, path, name, good, bounds):
    status, _, body = call(demo, "GET", f"{path}?{name}={good}")
    assert status == 200, body[:300]
    low, high = bounds
    for value in (str(low), str(high)):
        assert call(demo, "GET", f"{path}?{name}={value}")[0] == 200, value
    for value in [b.format(n=good) for b in BAD] + [str(low - 1), str(high + 1)]:
        status, _, body = call(demo, "GET", f"{path}?{name}={value}")
        assert status == 400, (value, status, body[:300])
        error = json.loads(body)["error"]
        assert error["code"] == "validation_error" and error["details"]["errors"][0]["field"] == name, (value, error)


def test_the_openapi_document_states_the_rule_for_each(demo):
    status, _, body = call(demo, "GET", "/openapi.json")
    assert status == 200
    document = json.loads(body)
    found = []
    parameters = document["components"]["parameters"]
    for path, item in document["paths"].items():
        for operation in item.values():
            for p in operation.get("parameters", []):
                p = parameters[p["$ref"].rsplit("/", 1)[1]] if "$ref" in p else p
                if p.get("in") == "query" and p["schema"].get("type") == "integer":
                    assert "no sign, no spaces, no leading zero" in p.get("description", ""), (path, p)
                    found.append((path, p["name"]))
    assert {name for _, name in found} == {"limit", "days", "size", "margin"}, found
