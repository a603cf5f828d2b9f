"""Who reads a delivery's payload (issue 33 item 4): a payload copies what other scopes guard, so
`webhooks.read` alone shows a delivery and its attempts, never a customer's name or email (nor a
link, nor an open's answer): the payload is null and `payloadRedacted` true, with the scopes that
would show it (`payloadScopes`). Before the fix, a `webhooks.read`-only key read the customer's
name and email in a lead's payload while `/customers` answered it 403."""
import json

from edge import request
from fixtures_data import DEMO_HOST, api, start_demo
from management_api import cli
from test_conversions import client, new_click
from test_webhooks import FAST, receiver, subscribe, wait_for  # noqa: F401 (the fixture)


def get(edge, path, key):
    status, _, raw = request(edge.http_port, "/api/v1" + path, headers={"Authorization": "Bearer " + key})
    return status, json.loads(raw)


def key(edge, scopes):
    out = cli(["keys", "create", "--name", scopes.replace(",", "-"), "--scope", scopes], edge.dir)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_a_payload_is_shown_only_to_a_key_that_may_read_what_it_holds(edge_factory, receiver):
    edge = start_demo(edge_factory, env=FAST)
    hook = subscribe(edge, receiver, ["lead.created", "link.created"])
    lead = client(edge).lead(click_id=new_click(edge), event_name="Sign up", customer_external_id="cus_scope_1",
                             customer_name="Ada Lovelace", customer_email="ada@example.com")
    link = api(edge, "POST", "/links", {"domain": DEMO_HOST, "url": "https://www.example.com/scoped"})
    lead_id = "msg_" + lead.body["event"]["id"].rsplit("_", 1)[1]
    wait_for(lambda: len(api(edge, "GET", f"/webhooks/{hook['id']}/deliveries")["data"]) == 2, 10, "two deliveries")
    link_id = next(d["id"] for d in api(edge, "GET", f"/webhooks/{hook['id']}/deliveries")["data"]
                   if d["type"] == "link.created")
    path = f"/webhooks/{hook['id']}/deliveries/"

    hooks_only = key(edge, "webhooks.read")
    assert get(edge, "/customers", hooks_only)[0] == 403
    for message, scopes in ((lead_id, ["customers.read", "events.read"]), (link_id, ["links.read"])):
        status, d = get(edge, path + message, hooks_only)
        assert status == 200
        assert d["payload"] is None and d["payloadRedacted"] is True and d["payloadScopes"] == scopes
        assert d["attemptList"] is not None and d["state"] in ("pending", "delivered")
        raw = json.dumps(d)
        assert "Ada" not in raw and "ada@example.com" not in raw and "scoped" not in raw

    # Half the scopes a lead needs: still withheld. All of them: shown.
    status, d = get(edge, path + lead_id, key(edge, "webhooks.read,events.read"))
    assert status == 200 and d["payload"] is None and d["payloadRedacted"] is True
    status, d = get(edge, path + lead_id, key(edge, "webhooks.read,customers.read,events.read"))
    assert d["payloadRedacted"] is False and d["payload"]["data"]["customer"]["email"] == "ada@example.com"
    status, d = get(edge, path + link_id, key(edge, "webhooks.read,links.read"))
    assert d["payloadRedacted"] is False and d["payload"]["data"]["id"] == link["id"]
    # A key without scopes holds every one.
    status, d = get(edge, path + lead_id, edge.secret_key)
    assert d["payloadRedacted"] is False and d["payload"]["data"]["customer"]["name"] == "Ada Lovelace"
    # The lists never carried payloads.
    status, page = get(edge, f"/webhooks/{hook['id']}/deliveries", hooks_only)
    assert status == 200 and "Ada" not in json.dumps(page) and all("payload" not in d for d in page["data"])
