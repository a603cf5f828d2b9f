"""Black-box tests of outgoing webhooks (issue 26, decision 0028): the real binary delivering to a real
receiver started by the test (`webhook_receiver.py`), which checks every signature with the Standard
Webhooks specification's own library (`standardwebhooks` from PyPI). Both stores; the fleet test runs on
the PostgreSQL pass only.

The edges run with short retry delays (BIQLI_EDGE_WEBHOOK_RETRY_DELAYS) and a 2 s timeout, so that a
schedule of days plays out in seconds; the receiver is on 127.0.0.1 over plain HTTP, which needs
BIQLI_EDGE_WEBHOOK_ALLOW_PRIVATE and BIQLI_EDGE_WEBHOOK_ALLOW_HTTP (the test without the first checks the
refusal)."""
import os, shutil, signal, tempfile, time, uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

import backend
from edge import request
from fixtures_data import DEMO_APP_ID, DEMO_HOST, LINK_IDS, _rows, api, delete_app, start_demo
from test_conversions import client, new_click
from test_resolver import ROOMY, Device, ok
from webhook_receiver import Receiver, free_port

FAST = {**ROOMY, "BIQLI_EDGE_WEBHOOK_ALLOW_PRIVATE": "on", "BIQLI_EDGE_WEBHOOK_ALLOW_HTTP": "on",
        "BIQLI_EDGE_WEBHOOK_RETRY_DELAYS": "1,1,1,1,1,1", "BIQLI_EDGE_WEBHOOK_TIMEOUT_SECONDS": "2"}


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def subscribe(edge, receiver, events, url=None, **fields):
    made = api(edge, "POST", "/webhooks", {"url": url or receiver.url, "events": events, **fields})
    assert made["secret"].startswith("whsec_")
    receiver.secrets.append(made["secret"])
    return made


def delivery(edge, endpoint_id, message_id):
    return api(edge, "GET", f"/webhooks/{endpoint_id}/deliveries/{message_id}")


def sharing_keys(node):
    """A new node's data directory holding `node`'s webhook key file: every node of a fleet is
    given the same file (decision 0031), as its other secrets."""
    data = tempfile.mkdtemp(prefix="edge-node-")
    os.makedirs(os.path.join(data, "secrets"), mode=0o700)
    shutil.copy(os.path.join(node.dir, "secrets", "webhook-keys"), os.path.join(data, "secrets", "webhook-keys"))
    return data


def wait_for(condition, limit, what):
    deadline = time.time() + limit
    while not condition():
        assert time.time() < deadline, f"{what}: not within {limit} s"
        time.sleep(0.05)


def test_one_signed_open_created_per_acknowledged_open_under_load(edge_factory, receiver):
    edge = start_demo(edge_factory, env=FAST)
    hook = subscribe(edge, receiver, ["open.created"])
    devices = [Device(edge, "ios" if i % 2 else "android") for i in range(60)]

    def one(device):
        body = ok(device.open(deep_link=f"https://{DEMO_HOST}/invite?ref=W"), "exact_app_link")
        again = ok(device.resend())  # the SDK's retry: a replay, not a new open
        assert again["open"]["id"] == body["open"]["id"]
        return body

    with ThreadPoolExecutor(max_workers=12) as pool:
        answers = list(pool.map(one, devices))
    opens = {a["open"]["id"]: a for a in answers}
    assert len(opens) == 60
    receiver.wait(lambda: len({r.id for r in receiver.delivered()}) >= 60, 30, "60 deliveries")
    time.sleep(1.5)  # nothing more comes
    got = receiver.delivered()
    assert all(r.verified for r in receiver.all()), "every signature verifies with standardwebhooks"
    by_open = {}
    for r in got:
        assert r.payload["type"] == "open.created"
        assert set(r.payload) == {"type", "timestamp", "data"}
        by_open.setdefault(r.payload["data"]["open"]["id"], set()).add(r.id)
    assert set(by_open) == set(opens), "one open.created per acknowledged open, none for the replays"
    assert all(len(ids) == 1 for ids in by_open.values())
    sample = next(r for r in got if r.payload["data"]["open"]["id"] == answers[0]["open"]["id"])
    data = sample.payload["data"]
    assert data["appId"] == DEMO_APP_ID
    for part in ("open", "click", "link", "attribution"):
        assert data[part] == answers[0][part], "the app's own answer, no more"
    assert data["link"]["id"] == LINK_IDS["invite"]
    assert sample.headers["content-type"] == "application/json"
    assert sample.id.startswith("msg_") and sample.headers["webhook-signature"].startswith("v1,")
    connections = {r.connection for r in receiver.all()}
    assert len(connections) <= 20, f"kept-alive connections: {len(connections)} for {len(receiver.all())} requests"
    page = api(edge, "GET", f"/webhooks/{hook['id']}/deliveries?limit=100")
    assert len(page["data"]) == 60 and {d["state"] for d in page["data"]} == {"delivered"}


def test_500_then_a_timeout_then_200_is_one_id_and_one_success(edge_factory, receiver):
    edge = start_demo(edge_factory, env=FAST)
    hook = subscribe(edge, receiver, ["link.created"])
    receiver.script = [500, {"status": 200, "delay": 3.5}, 200]
    test = api(edge, "POST", f"/webhooks/{hook['id']}/test", expect=(202,))
    assert test["state"] == "pending" and test["type"] == "webhook.test"
    receiver.wait(lambda: len(receiver.delivered()) >= 1 and len(receiver.all()) >= 3, 20, "a success")
    wait_for(lambda: delivery(edge, hook["id"], test["id"])["state"] == "delivered", 10, "recorded")
    time.sleep(1.5)
    seen = receiver.all()
    assert [r.id for r in seen] == [test["id"]] * 3, "the same webhook-id on every attempt"
    assert all(r.verified for r in seen)
    assert len({r.body for r in seen}) == 1, "the same body"
    assert [r.payload["type"] for r in seen] == ["webhook.test"] * 3
    d = delivery(edge, hook["id"], test["id"])
    attempts = d["attemptList"]
    assert [a["status"] for a in attempts] == [500, None, 200]
    assert "no answer in time" in attempts[1]["error"]
    assert attempts[0]["answer"] == "ok" and d["attempts"] == 3
    # The endpoint is healthy again.
    assert api(edge, "GET", f"/webhooks/{hook['id']}")["failingSince"] is None
    metrics = request(edge.http_port, "/metrics")[2].decode()
    assert 'biqli_webhook_attempts_total{result="delivered"} 1' in metrics
    assert 'biqli_webhook_attempts_total{result="retry"} 2' in metrics
    assert "biqli_webhook_outbox_pending " in metrics


def test_an_answer_is_read_up_to_1_mib(edge_factory, receiver):
    """A 5 MiB answer (over what the client would read whole) still counts by its status."""
    edge = start_demo(edge_factory, env=FAST)
    hook = subscribe(edge, receiver, ["link.created"])
    receiver.default = {"status": 200, "body": b"x" * (5 << 20)}
    test = api(edge, "POST", f"/webhooks/{hook['id']}/test", expect=(202,))
    wait_for(lambda: delivery(edge, hook["id"], test["id"])["state"] == "delivered", 15, "delivered")
    attempt = delivery(edge, hook["id"], test["id"])["attemptList"][0]
    assert attempt["status"] == 200 and attempt["answer"] == "x" * 1024


@pytest.mark.parametrize("status", [503, 429])
def test_retry_after_is_honoured(edge_factory, receiver, status):
    edge = start_demo(edge_factory, env=FAST)
    hook = subscribe(edge, receiver, ["link.created"])
    receiver.script = [{"status": status, "headers": {"Retry-After": "4"}}, 200]
    api(edge, "POST", f"/webhooks/{hook['id']}/test", expect=(202,))
    receiver.wait(lambda: len(receiver.all()) >= 2, 15, "a second attempt")
    first, second = receiver.all()[:2]
    gap = second.at - first.at
    assert 3.9 <= gap <= 6.5, f"the schedule says ~1 s, Retry-After 4 s: {gap:.2f} s"
    assert first.id == second.id


def test_a_loopback_endpoint_is_refused_without_the_setting(edge_factory, receiver):
    env = {**FAST, "BIQLI_EDGE_WEBHOOK_ALLOW_PRIVATE": None}
    edge = start_demo(edge_factory, env=env)
    hook = subscribe(edge, receiver, ["link.created"], url=f"http://localhost:{receiver.port}/hooks")
    test = api(edge, "POST", f"/webhooks/{hook['id']}/test", expect=(202,))
    wait_for(lambda: len(delivery(edge, hook["id"], test["id"])["attemptList"]) >= 2, 10, "two attempts")
    attempts = delivery(edge, hook["id"], test["id"])["attemptList"]
    assert all(a["status"] is None for a in attempts)
    assert "non-public address (loopback" in attempts[0]["error"], attempts[0]
    assert receiver.all() == [], "nothing reached the receiver"


def test_a_redirect_is_not_followed(edge_factory, receiver):
    edge = start_demo(edge_factory, env=FAST)
    hook = subscribe(edge, receiver, ["link.created"])
    receiver.default = {"status": 302, "headers": {"Location": f"http://127.0.0.1:{receiver.port}/elsewhere"}}
    test = api(edge, "POST", f"/webhooks/{hook['id']}/test", expect=(202,))
    wait_for(lambda: len(delivery(edge, hook["id"], test["id"])["attemptList"]) >= 2, 10, "two attempts")
    attempts = delivery(edge, hook["id"], test["id"])["attemptList"]
    assert attempts[0]["status"] == 302 and attempts[0]["error"] == "redirect not followed"
    assert {r.path for r in receiver.all()} == {"/hooks"}, "never /elsewhere"


def test_plain_http_and_the_edges_own_rules(edge_factory, receiver):
    edge = start_demo(edge_factory, env={**FAST, "BIQLI_EDGE_WEBHOOK_ALLOW_HTTP": None})
    refused = api(edge, "POST", "/webhooks", {"url": receiver.url, "events": ["open.created"]}, expect=(422,))
    assert refused["error"]["details"]["field"] == "url"


def test_sigkilled_with_deliveries_pending_then_restarted_delivers_every_event_once(edge_factory):
    # The receiver is down at first (its port free), then slow: deliveries are pending and in flight.
    port = free_port()
    data = tempfile.mkdtemp(prefix="edge-webhooks-kill-")
    edge = start_demo(edge_factory, env=FAST, data_dir=data)
    secret = api(edge, "POST", "/webhooks", {"url": f"http://127.0.0.1:{port}/hooks", "events": ["link.created"]})["secret"]
    links = [api(edge, "POST", "/links", {"domain": DEMO_HOST, "url": f"https://www.example.com/{i}"})["id"]
             for i in range(30)]
    receiver = Receiver(port=port, default={"status": 200, "delay": 0.3}, secrets=[secret])
    try:
        receiver.wait(lambda: len(receiver.all()) >= 3, 15, "deliveries under way")
        edge.proc.send_signal(signal.SIGKILL)
        edge.proc.wait(timeout=10)
        assert len({r.payload["data"]["id"] for r in receiver.delivered()}) < len(links), "some were still pending"
        receiver.default = 200
        # The demo's data is there already (its keys are not printed again: the first ones serve).
        again = edge_factory(args=("serve", "--demo"), env=FAST, data_dir=data)
        again.secret_key, again.publishable_key = edge.secret_key, edge.publishable_key
        receiver.wait(lambda: {r.payload["data"]["id"] for r in receiver.delivered()} >= set(links), 40,
                      "every link.created")
        ids = {}
        for r in receiver.all():
            assert r.verified
            ids.setdefault(r.payload["data"]["id"], set()).add(r.id)
        assert all(len(v) == 1 for v in ids.values()), "one webhook-id per event, whatever was sent twice"
        hook = api(again, "GET", "/webhooks")["data"][0]
        wait_for(lambda: all(d["state"] == "delivered" for d in
                             api(again, "GET", f"/webhooks/{hook['id']}/deliveries?limit=100")["data"]), 15,
                 "all recorded delivered")
    finally:
        receiver.close()


@pytest.mark.skipif(not backend.POSTGRESQL, reason="a fleet needs PostgreSQL")
def test_two_edges_share_the_outbox_and_no_event_goes_out_twice(edge_factory, receiver):
    url = backend.database_url(tempfile.mkdtemp(prefix="fleet-webhooks-"))
    common = {**FAST, "BIQLI_EDGE_DATABASE_URL": url}
    a = start_demo(edge_factory, env={**common, "BIQLI_EDGE_NODE": "node-a"})
    b = edge_factory(args=("serve", "--demo"), env={**common, "BIQLI_EDGE_NODE": "node-b"}, data_dir=sharing_keys(a))
    b.secret_key, b.publishable_key = a.secret_key, a.publishable_key
    subscribe(a, receiver, ["link.created"])
    receiver.default = {"status": 200, "delay": 0.05}
    # Written through both nodes (one API connection each: `api` keeps one per edge).
    links = [api(a if i % 2 else b, "POST", "/links", {"domain": DEMO_HOST, "url": f"https://www.example.com/f{i}"})["id"]
             for i in range(80)]
    receiver.wait(lambda: {r.payload["data"]["id"] for r in receiver.delivered()} >= set(links), 30, "80 events")
    time.sleep(1.5)
    seen = [r.id for r in receiver.all()]
    assert len(seen) == len(set(seen)) == 80, "each event delivered by one node only"
    hook = api(a, "GET", "/webhooks")["data"][0]
    nodes = set()
    for d in api(a, "GET", f"/webhooks/{hook['id']}/deliveries?limit=100")["data"]:
        nodes |= {t["node"] for t in delivery(a, hook["id"], d["id"])["attemptList"]}
    assert nodes == {"node-a", "node-b"}, "both nodes deliver"


@pytest.mark.skipif(not backend.POSTGRESQL, reason="a fleet needs PostgreSQL")
def test_a_node_killed_mid_delivery_leaves_its_deliveries_to_another(edge_factory):
    """Node A takes deliveries to a receiver that answers slowly and is SIGKILLed while they are
    in flight; node B sends them once A's leases run out (18 x the 1 s timeout here)."""
    receiver = Receiver(default={"status": 200, "delay": 0.8})
    try:
        url = backend.database_url(tempfile.mkdtemp(prefix="fleet-webhooks-kill-"))
        common = {**FAST, "BIQLI_EDGE_DATABASE_URL": url, "BIQLI_EDGE_WEBHOOK_TIMEOUT_SECONDS": "1"}
        a = start_demo(edge_factory, env={**common, "BIQLI_EDGE_NODE": "node-a"})
        subscribe(a, receiver, ["link.created"])
        links = [api(a, "POST", "/links", {"domain": DEMO_HOST, "url": f"https://www.example.com/k{i}"})["id"]
                 for i in range(8)]
        receiver.wait(lambda: len(receiver.all()) >= 1, 10, "a delivery under way")
        a.proc.send_signal(signal.SIGKILL)
        a.proc.wait(timeout=10)
        killed_at = time.time()
        receiver.default = 200
        b = edge_factory(args=("serve", "--demo"), env={**common, "BIQLI_EDGE_NODE": "node-b"},
                         data_dir=sharing_keys(a))
        b.secret_key = a.secret_key
        receiver.wait(lambda: {r.payload["data"]["id"] for r in receiver.delivered()} >= set(links), 60,
                      "every link.created")
        late = [r for r in receiver.all() if r.at > killed_at]
        assert late, "node B sent what A held"
        ids = {}
        for r in receiver.all():
            ids.setdefault(r.payload["data"]["id"], set()).add(r.id)
        assert all(len(v) == 1 for v in ids.values())
        hook = api(b, "GET", "/webhooks")["data"][0]
        nodes = set()
        for d in api(b, "GET", f"/webhooks/{hook['id']}/deliveries?limit=100")["data"]:
            nodes |= {t["node"] for t in delivery(b, hook["id"], d["id"])["attemptList"]}
        assert "node-b" in nodes
    finally:
        receiver.close()


# ---------------------------------------------------------------- erasure (decision 0028, "Erasure")

PERSONAL = {"customer_name": "Zoë Quist", "customer_email": "zoe.quist@example.com",
            "customer_avatar": "https://cdn.example.com/zoe-quist.png"}


def message_of(event):
    """A lead's or sale's webhook-id: msg_ + the ULID of its event's id."""
    return "msg_" + event.body["event"]["id"].rsplit("_", 1)[1]


def personal_bits(customer):
    # The surname, not "Zo": two letters turn up in random event ids (as one did in CI).
    return ("Quist", "zoe.quist", "zoe-quist.png", customer)


def assert_erased(payload, raw, customer, customer_id):
    assert payload["data"]["customer"] == {"id": customer_id, "externalId": "erased_" + customer_id, "name": None,
                                           "email": None, "avatar": None}
    text = raw.decode() if isinstance(raw, (bytes, bytearray, memoryview)) else raw
    for bit in personal_bits(customer):
        assert bit not in text, (bit, text)


def erase(edge, customer):
    status, _, _ = request(edge.http_port, f"/api/v1/customers/{customer}", method="DELETE",
                           headers={"Authorization": "Bearer " + edge.secret_key})
    assert status == 200


def outbox_bodies(edge):
    return {r["message_id"]: bytes(r["body"]) for r in _rows(edge, "SELECT message_id, body FROM webhook_outbox")}


def test_erasure_rewrites_pending_webhooks_which_then_send_the_erased_customer(edge_factory, receiver):
    """A lead and a sale wait while their endpoint answers 500; the customer is erased; once the
    endpoint answers 200 it receives both without the name, email, avatar or external ID, signed
    as sent (the standardwebhooks library checks it), the rest of the payload as it was. Another
    customer's lead is untouched."""
    # Retries 3 s (+-20 %) apart: the erasure is made, and the receiver switched to 200, well
    # before the second attempts, so every 200 answers an attempt made after the erasure.
    edge = start_demo(edge_factory, env={**FAST, "BIQLI_EDGE_WEBHOOK_RETRY_DELAYS": "3,3,3,3,3,3"})
    hook = subscribe(edge, receiver, ["lead.created", "sale.created"])
    receiver.default = 500
    c = client(edge)
    customer, other = "cus_" + uuid.uuid4().hex, "cus_" + uuid.uuid4().hex
    lead = c.lead(click_id=new_click(edge), event_name="Sign up", customer_external_id=customer, **PERSONAL)
    sale = c.sale(customer_external_id=customer, amount=4999, invoice_id="in_" + uuid.uuid4().hex)
    kept = c.lead(click_id=new_click(edge, "promo"), event_name="Sign up", customer_external_id=other,
                  customer_name="Kept Person", customer_email="kept@example.com")
    erased = {message_of(lead), message_of(sale)}
    everything = erased | {message_of(kept)}
    receiver.wait(lambda: {r.id for r in receiver.all()} >= everything, 10, "the first attempts")
    before = {r.id: r for r in receiver.all()}
    assert before[message_of(lead)].payload["data"]["customer"]["name"] == "Zoë Quist", "sent as recorded"
    assert before[message_of(sale)].payload["data"]["customer"]["email"] == "zoe.quist@example.com"
    assert {delivery(edge, hook["id"], m)["state"] for m in everything} == {"pending"}

    erase(edge, customer)
    receiver.default = 200
    receiver.wait(lambda: {r.id for r in receiver.delivered()} >= everything, 20, "the deliveries after the erasure")
    customer_id = lead.body["customer"]["id"]
    assert all(r.verified for r in receiver.all()), "re-signed as sent: every signature verifies"
    for r in receiver.delivered():
        if r.id not in erased:
            continue
        assert_erased(r.payload, r.body, customer, customer_id)
        first = before[r.id].payload
        assert {k: v for k, v in r.payload.items() if k != "data"} == {k: v for k, v in first.items() if k != "data"}
        assert ({k: v for k, v in r.payload["data"].items() if k != "customer"}
                == {k: v for k, v in first["data"].items() if k != "customer"}), "only the customer changed"
    assert [r.payload["data"]["customer"]["name"] for r in receiver.delivered() if r.id == message_of(kept)] \
        == ["Kept Person"], "another customer's event keeps its fields"
    assert next(r for r in receiver.delivered() if r.id == message_of(sale)).payload["data"]["sale"]["amount"] == 4999
    wait_for(lambda: {delivery(edge, hook["id"], m)["state"] for m in everything} == {"delivered"}, 10, "recorded")
    for m in erased:
        d = delivery(edge, hook["id"], m)
        assert_erased(d["payload"], repr(d), customer, customer_id)
        assert [a["status"] for a in d["attemptList"]][-1] == 200
    stored = outbox_bodies(edge)
    for m in erased:
        assert b"Quist" not in stored[m] and customer.encode() not in stored[m]
    assert b"Kept Person" in stored[message_of(kept)]


def test_erasure_rewrites_delivered_webhooks_as_the_api_shows_and_a_redelivery_sends_them(edge_factory, receiver):
    """Delivered before the erasure: the API's delivery (and the outbox row) then shows the erased
    customer, its attempts stay, and a redelivery sends the erased payload under the same id."""
    edge = start_demo(edge_factory, env=FAST)
    hook = subscribe(edge, receiver, ["lead.created", "sale.created"])
    c = client(edge)
    customer, click = "cus_" + uuid.uuid4().hex, new_click(edge)
    event_id = "evt_" + uuid.uuid4().hex
    lead = c.lead(click_id=click, event_id=event_id, event_name="Sign up", customer_external_id=customer,
                  **PERSONAL)
    sale = c.sale(customer_external_id=customer, amount=1200, invoice_id="in_" + uuid.uuid4().hex)
    messages = [message_of(lead), message_of(sale)]
    wait_for(lambda: all(delivery(edge, hook["id"], m)["state"] == "delivered" for m in messages), 15, "delivered")
    assert delivery(edge, hook["id"], messages[0])["payload"]["data"]["customer"]["name"] == "Zoë Quist"
    sent = next(r for r in receiver.delivered() if r.id == messages[0])
    assert sent.payload["data"] == {k: v for k, v in lead.body.items() if k != "request_id"}, "the track call's answer"

    erase(edge, customer)
    customer_id = lead.body["customer"]["id"]
    for m in messages:
        d = delivery(edge, hook["id"], m)
        assert d["state"] == "delivered" and d["attempts"] == 1 and len(d["attemptList"]) == 1
        assert_erased(d["payload"], repr(d), customer, customer_id)
    listed = api(edge, "GET", f"/webhooks/{hook['id']}/deliveries")["data"]
    assert {d["id"] for d in listed} == set(messages)
    stored = outbox_bodies(edge)
    for m in messages:
        assert b"Quist" not in stored[m] and b"zoe.quist" not in stored[m] and customer.encode() not in stored[m]
    # The webhook's data is the event's erased answer, as a replay of the track call shows it.
    replay = c.lead(click_id=click, event_id=event_id, event_name="Sign up", customer_external_id=customer,
                    **PERSONAL)
    assert delivery(edge, hook["id"], messages[0])["payload"]["data"] == \
        {k: v for k, v in replay.body.items() if k != "request_id"}

    seen = len(receiver.all())
    api(edge, "POST", f"/webhooks/{hook['id']}/deliveries/{messages[0]}/redeliver", expect=(202,))
    receiver.wait(lambda: len(receiver.all()) > seen, 10, "the redelivery")
    again = receiver.all()[-1]
    assert again.id == messages[0] and again.verified
    assert_erased(again.payload, again.body, customer, customer_id)


# ---------------------------------------------------------------- a Mobile App's deletion


def test_deleting_a_mobile_app_sends_link_updated_for_each_link_it_made_a_web_link(edge_factory, receiver):
    """Its links lose the app (they become web links): one link.updated per link, the link as the
    API now shows it, to the endpoints without an app filter and to those that follow the deleted
    app; none for a web link it did not change, none to an endpoint that follows another app."""
    edge = start_demo(edge_factory, env=FAST)
    subscribe(edge, receiver, ["link.updated"])
    subscribe(edge, receiver, ["link.updated"], url=receiver.url + "/app", appIds=[DEMO_APP_ID])
    elsewhere = subscribe(edge, receiver, ["link.updated"], url=receiver.url + "/other",
                          appIds=["biq_mapp_01JDEM0APP00000000000000ZZ"])
    web = api(edge, "POST", "/links", {"domain": DEMO_HOST, "url": "https://www.example.com/plain"})["id"]
    links = api(edge, "GET", "/links?limit=100")["data"]
    changed = sorted(x["id"] for x in links if (x.get("mobile") or {}).get("appId") == DEMO_APP_ID)
    assert len(changed) >= 2 and web not in changed and LINK_IDS["invite"] in changed

    delete_app(edge, DEMO_APP_ID)
    receiver.wait(lambda: len(receiver.delivered()) >= 2 * len(changed), 15, "a link.updated per link and endpoint")
    time.sleep(1.5)  # nothing more comes
    by_path = {}
    for r in receiver.all():
        assert r.verified and r.payload["type"] == "link.updated"
        by_path.setdefault(r.path, []).append(r)
    assert set(by_path) == {"/hooks", "/hooks/app"}, "none to the endpoint that follows another app"
    for path, got in by_path.items():
        assert sorted(r.payload["data"]["id"] for r in got) == changed, path
    assert {r.id for r in by_path["/hooks"]} == {r.id for r in by_path["/hooks/app"]}, "one webhook-id per event"
    assert len({r.id for r in by_path["/hooks"]}) == len(changed)
    for r in by_path["/hooks"]:
        now = api(edge, "GET", f"/links/{r.payload['data']['id']}")
        assert r.payload["data"] == now, "the link as the API shows it after the deletion"
        assert now["mobile"] is None
    assert api(edge, "GET", f"/webhooks/{elsewhere['id']}/deliveries")["data"] == []


def test_a_link_moved_off_an_app_is_told_to_the_endpoints_of_both_apps(edge_factory, receiver):
    """link.updated of a link that left an app goes to the endpoints that follow the app it left
    as well as to those of its new app (or of none), once each: one webhook-id."""
    edge = start_demo(edge_factory, env=FAST)
    subscribe(edge, receiver, ["link.updated"])
    subscribe(edge, receiver, ["link.updated"], url=receiver.url + "/app", appIds=[DEMO_APP_ID])
    subscribe(edge, receiver, ["link.updated"], url=receiver.url + "/other",
              appIds=["biq_mapp_01JDEM0APP00000000000000ZZ"])
    api(edge, "PATCH", f"/links/{LINK_IDS['invite']}", {"mobile": None})
    receiver.wait(lambda: len(receiver.delivered()) >= 2, 15, "the link.updated to both endpoints")
    time.sleep(1.5)  # nothing more comes
    by_path = {}
    for r in receiver.all():
        assert r.verified and r.payload["type"] == "link.updated"
        by_path.setdefault(r.path, []).append(r)
    assert set(by_path) == {"/hooks", "/hooks/app"}, by_path.keys()
    assert [len(v) for v in by_path.values()] == [1, 1], "once each"
    assert by_path["/hooks"][0].id == by_path["/hooks/app"][0].id
    assert by_path["/hooks/app"][0].payload["data"]["mobile"] is None
