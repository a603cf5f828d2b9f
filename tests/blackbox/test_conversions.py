"""Black-box tests of conversions, `POST /api/v1/track/lead` and `/api/v1/track/sale` (issue 25,
../shared/spec/conversions-contract.md), against the real binary, with a client written from the
contract (`conversions_client.py`) and raw requests for what it does not send. Clicks are real
visits' (an Android visit's handoff names its click, durable before the answer). Runs on both
backends (scripts/test's two passes); the fleet test on the PostgreSQL pass only."""
import json, time, uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

import backend
from conversions_client import ApiError, Conversions, invoice_event_id, php_json
from edge import request
from fixtures_data import LINK_IDS, _rows, android_token, handoff, start_demo
from management_api import cli
from test_resolver import ROOMY

PUBLIC = "https://edge.example.test"


@pytest.fixture
def demo(edge_factory):
    return start_demo(edge_factory, env=ROOMY)


def client(edge, key=None, **kw):
    return Conversions(key or edge.secret_key, f"http://127.0.0.1:{edge.http_port}/api", **kw)


def new_click(edge, key="invite"):
    """A real click: an Android visit of link `key`; its handoff (durable before the answer) names it."""
    return handoff(edge, android_token(edge, key))["click_id"]


def refused(call, status, code):
    with pytest.raises(ApiError) as info:
        call()
    assert (info.value.status, info.value.code) == (status, code), info.value.body
    assert info.value.request_id and info.value.body["request_id"] == info.value.request_id
    assert set(info.value.body["error"]) >= {"code", "message"}
    return info.value


def raw_post(edge, kind, body, headers):
    raw = body if isinstance(body, bytes) else php_json(body)
    status, h, payload = request(edge.http_port, f"/api/v1/track/{kind}", method="POST", headers=headers, body=raw)
    return status, h, json.loads(payload)


def events(edge, **where):
    sql = "SELECT * FROM conversion_events"
    if where:
        sql += " WHERE " + " AND ".join(f"{k} = ?" for k in where)
    return _rows(edge, sql, tuple(where.values()))


# ---------------------------------------------------------------- the SDK's story, end to end


def test_a_lead_then_a_sale_without_click_id_is_attributed_through_the_customer(demo):
    click = new_click(demo)
    c = client(demo)
    customer = "cus_" + uuid.uuid4().hex
    lead = c.lead(click_id=click, event_name="Sign up", customer_external_id=customer,
                  customer_name="Zoë Ünal", customer_email="zoe@example.com",
                  customer_avatar="https://cdn.example.com/a/zoe.png",
                  metadata={"plan": "pro", "note": "café ☕ 🎉"})
    assert lead.status == 201
    b = lead.body
    assert set(b) == {"event", "click", "link", "customer", "lead", "request_id"}
    assert b["event"]["id"].startswith("biq_lev_") and b["event"]["type"] == "lead"
    assert b["event"]["eventName"] == "Sign up" and b["event"]["metadata"] == {"plan": "pro", "note": "café ☕ 🎉"}
    assert b["click"] == {"id": click}
    assert b["link"] == {"id": LINK_IDS["invite"], "shortUrl": "https://go.example.test/invite"}
    assert b["customer"]["id"].startswith("biq_cus_")
    assert b["customer"] | {"id": None} == {"id": None, "externalId": customer, "name": "Zoë Ünal",
                                             "email": "zoe@example.com",
                                             "avatar": "https://cdn.example.com/a/zoe.png"}
    assert b["request_id"] == lead.request_id == lead.headers["x-biq-request-id"]

    sale = c.sale(customer_external_id=customer, amount=1299, invoice_id=" inv_1001 ")
    assert sale.status == 201
    s = sale.body
    assert s["event"]["id"].startswith("biq_sev_") and s["event"]["type"] == "sale"
    assert s["event"]["eventId"] == invoice_event_id("inv_1001")
    assert s["event"]["eventName"] == "Purchase"
    assert s["click"] == {"id": click}, "the sale carried no clickId: attributed through the customer's lead"
    assert s["link"]["id"] == LINK_IDS["invite"] and s["customer"]["id"] == b["customer"]["id"]
    assert s["sale"] == {"amount": 1299, "currency": "usd", "paymentProcessor": "custom", "invoiceId": "inv_1001"}

    stored = events(demo, customer_id=b["customer"]["id"])
    assert sorted(e["type"] for e in stored) == ["lead", "sale"]
    assert {e["click_id"] for e in stored} == {click}


def test_the_sdks_live_smoke_test_replays_lead_and_sale(demo):
    """smoke/live.php: a lead twice with one eventId, a sale twice with one invoice: the same ids."""
    click = new_click(demo)
    c = client(demo)
    customer, event = "smoke_" + uuid.uuid4().hex, "signup:" + uuid.uuid4().hex
    first = c.lead(click_id=click, event_id=event, event_name="Sign up", customer_external_id=customer)
    again = c.lead(click_id=click, event_id=event, event_name="Sign up", customer_external_id=customer)
    assert again.body["event"]["id"] == first.body["event"]["id"]
    assert again.headers.get("idempotent-replayed") == "true"
    sales = [c.sale(customer_external_id=customer, amount=1299, currency="usd", payment_processor="stripe",
                    invoice_id="in_smoke") for _ in range(2)]
    assert sales[0].body["event"]["id"] == sales[1].body["event"]["id"]
    for s in sales:
        assert s.body["sale"]["amount"] == 1299 and s.body["sale"]["currency"] == "usd"
        assert s.body["click"]["id"] == click
    assert len(events(demo, event_id=event)) == 1
    assert len(events(demo, event_id=invoice_event_id("in_smoke", "stripe"))) == 1


def test_a_lead_without_click_id_for_a_customer_already_attributed_takes_its_click(demo):
    click = new_click(demo, "promo")
    c = client(demo)
    customer = "cus_" + uuid.uuid4().hex
    c.lead(click_id=click, event_name="Sign up", customer_external_id=customer)
    later = c.lead(event_name="Activated", customer_external_id=customer)
    assert later.body["click"] == {"id": click} and later.body["link"]["id"] == LINK_IDS["promo"]


# ---------------------------------------------------------------- what the SDK really sends


def test_explicit_nulls_empty_list_metadata_and_u_escapes_are_accepted(demo):
    click = new_click(demo)
    event = "evt_" + str(uuid.uuid4())
    body = (b'{"clickId":"' + click.encode() + b'","eventId":"' + event.encode() + b'","eventName":"Sign up",'
            b'"customerExternalId":"cus_\\u00fc\\ud83c\\udf89","customerName":null,"customerEmail":null,'
            b'"customerAvatar":null,"occurredAt":null,"metadata":[]}')
    headers = {"Authorization": "Bearer " + demo.secret_key, "Content-Type": "application/json",
               "Accept": "application/json", "Idempotency-Key": event, "X-Biq-Request-Id": "req_" + str(uuid.uuid4())}
    status, _, answer = raw_post(demo, "lead", body, headers)
    assert status == 201, answer
    assert answer["customer"]["externalId"] == "cus_ü🎉" and answer["customer"]["name"] is None
    assert answer["event"]["metadata"] == {}


def test_a_sale_without_payment_processor_defaults_to_custom_and_occurred_at_is_kept(demo):
    click = new_click(demo)
    c = client(demo)
    at = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(time.time() - 3600))
    s = c.sale(click_id=click, customer_external_id="cus_" + uuid.uuid4().hex, amount=500, currency="jpy",
               invoice_id="INV-9", occurred_at=at, metadata={"sku": "A-1"})
    assert s.body["sale"] == {"amount": 500, "currency": "jpy", "paymentProcessor": "custom", "invoiceId": "INV-9"}
    assert s.body["event"]["occurredAt"] == at.replace("+00:00", ".000Z")


def test_a_caller_request_id_with_a_colon_is_echoed_and_keys_with_punctuation_work(demo):
    click = new_click(demo)
    c = client(demo)
    r = c.lead(click_id=click, event_name="Sign up", customer_external_id="customer_123",
               idempotency_key="signup:customer_123", request_id="trace:abc.123_x-y")
    assert r.body["request_id"] == "trace:abc.123_x-y" == r.headers["x-biq-request-id"]
    assert len(events(demo, idempotency_key_hash=__import__("hashlib").sha256(b"signup:customer_123").digest())) == 1


# ---------------------------------------------------------------- replays and conflicts


def test_a_lost_answer_replayed_gets_the_first_answer_and_one_event(demo):
    click = new_click(demo)
    c = client(demo)
    body = {"clickId": click, "eventId": "evt_" + str(uuid.uuid4()), "eventName": "Sign up",
            "customerExternalId": "cus_" + uuid.uuid4().hex, "customerName": None, "customerEmail": None,
            "customerAvatar": None, "occurredAt": None, "metadata": {}}
    rid = "req_" + str(uuid.uuid4())
    first = c.send("lead", dict(body), request_id=rid)  # its answer "lost": sent again as the SDK retries
    retry = c.send("lead", dict(body), request_id=rid)
    assert retry.status == 201 and retry.body == first.body
    replay = c.send("lead", dict(body))  # a deliberate replay: a new request id, the same event
    assert replay.body["event"] == first.body["event"] and replay.body["request_id"] != first.body["request_id"]
    assert len(events(demo, event_id=body["eventId"])) == 1


def test_the_same_key_with_another_body_or_an_event_id_reused_is_idempotency_conflict(demo):
    click = new_click(demo)
    c = client(demo)
    customer = "cus_" + uuid.uuid4().hex
    lead = c.lead(click_id=click, event_name="Sign up", customer_external_id=customer)
    event_id = lead.body["event"]["eventId"]
    # Same Idempotency-Key (the eventId), another body.
    e = refused(lambda: c.lead(click_id=click, event_id=event_id, event_name="Other", customer_external_id=customer),
                409, "idempotency_conflict")
    assert e.details == {"field": "Idempotency-Key"}
    # The lead's eventId reused by a sale (another type), and with another key.
    refused(lambda: c.sale(event_id=event_id, customer_external_id=customer, amount=100), 409,
            "idempotency_conflict")
    e = refused(lambda: c.lead(click_id=click, event_id=event_id, event_name="Again", customer_external_id=customer,
                               idempotency_key="another-key"), 409, "idempotency_conflict")
    assert e.details == {"field": "eventId"} and "eventId" in e.message
    # The key of one event with the eventId of another: neither answer fits.
    other = c.lead(click_id=click, event_name="Other", customer_external_id=customer)
    refused(lambda: c.lead(click_id=click, event_id=event_id, event_name="Sign up", customer_external_id=customer,
                           idempotency_key=other.body["event"]["eventId"]), 409, "idempotency_conflict")
    # The same request under another key is the same event (either identifier finds it).
    same = c.lead(click_id=click, event_id=event_id, event_name="Sign up", customer_external_id=customer,
                  idempotency_key="another-key")
    assert same.body["event"]["id"] == lead.body["event"]["id"]
    assert len(events(demo, event_id=event_id)) == 1


def test_fifty_identical_leads_at_once_make_one_event(demo):
    click = new_click(demo)
    c = client(demo)
    body = {"clickId": click, "eventId": "evt_" + str(uuid.uuid4()), "eventName": "Sign up",
            "customerExternalId": "cus_" + uuid.uuid4().hex, "metadata": {}}
    with ThreadPoolExecutor(50) as pool:
        answers = list(pool.map(lambda _: c.send("lead", dict(body)), range(50)))
    assert {a.status for a in answers} == {201}
    assert {a.attempts for a in answers} == {1}, "no answer was a failure retried"
    assert len({a.body["event"]["id"] for a in answers}) == 1
    assert len({a.body["customer"]["id"] for a in answers}) == 1
    assert len(events(demo, event_id=body["eventId"])) == 1
    assert len(_rows(demo, "SELECT id FROM customers WHERE external_id = ?", (body["customerExternalId"],))) == 1


def test_many_events_of_a_few_customers_at_once_all_land(demo):
    """Leads and sales of four customers, in every order, from 32 clients at once: on
    PostgreSQL they run on several writer connections, each a transaction of many
    events, so two transactions may want the same customers in opposite orders. Every
    call is answered 201 the first time (no retry hides a deadlock or a conflict), each
    customer is one row keeping the first click it was given, and every event is one."""
    clicks = [new_click(demo) for _ in range(4)]
    c = client(demo, max_retries=0)
    names = ["cus_" + uuid.uuid4().hex for _ in range(4)]
    for name, click in zip(names, clicks):  # each customer attributed first, so sales need no clickId
        c.send("lead", {"clickId": click, "eventId": "evt_" + uuid.uuid4().hex, "eventName": "Sign up",
                        "customerExternalId": name, "metadata": {}})

    def one(i):
        name = names[(i * 7 + i // 4) % 4]
        if i % 3:
            return c.send("sale", {"eventId": "evt_" + uuid.uuid4().hex, "customerExternalId": name,
                                   "amount": 100 + i, "currency": "eur", "metadata": {}})
        return c.send("lead", {"clickId": clicks[i % 4], "eventId": "evt_" + uuid.uuid4().hex,
                               "eventName": "Sign up", "customerExternalId": name, "metadata": {}})

    with ThreadPoolExecutor(32) as pool:
        answers = list(pool.map(one, range(240)))
    assert [a.status for a in answers] == [201] * 240
    for name, click in zip(names, clicks):
        rows = _rows(demo, "SELECT id, click_id FROM customers WHERE external_id = ?", (name,))
        assert len(rows) == 1 and rows[0]["click_id"] == click, rows
    assert len(_rows(demo, "SELECT id FROM conversion_events")) == 244
    # The link's daily counts, added at the end of each batch, equal the events.
    leads = sum(1 for i in range(240) if not i % 3) + 4
    revenue = sum(100 + i for i in range(240) if i % 3)
    _, r = get(demo, f"/api/v1/links/{LINK_IDS['invite']}/analytics?days=1")
    assert (r["conversions"]["leads"], r["conversions"]["sales"]) == (leads, 244 - leads)
    assert r["conversions"]["revenue"] == {"eur": revenue}


@pytest.mark.skipif(not backend.POSTGRESQL, reason="a fleet shares one PostgreSQL database")
def test_fifty_identical_leads_sent_to_two_edges_at_once_make_one_event(edge_factory):
    from test_fleet import fleet
    a, b = fleet(edge_factory)
    click = new_click(a)
    body = {"clickId": click, "eventId": "evt_" + str(uuid.uuid4()), "eventName": "Sign up",
            "customerExternalId": "cus_" + uuid.uuid4().hex, "metadata": {}}
    clients = [client(a), client(b)]
    with ThreadPoolExecutor(50) as pool:
        answers = list(pool.map(lambda i: clients[i % 2].send("lead", dict(body)), range(50)))
    assert {x.status for x in answers} == {201}
    assert {x.attempts for x in answers} == {1}, "no answer was a failure retried"
    assert len({x.body["event"]["id"] for x in answers}) == 1
    assert len(events(a, event_id=body["eventId"])) == 1


# ---------------------------------------------------------------- refusals


def test_each_refusal_has_its_code(demo):
    click = new_click(demo)
    c = client(demo)
    customer = "cus_" + uuid.uuid4().hex
    refused(lambda: c.lead(click_id="biq_clk_01ARZ3NDEKTSV4RRFFQ69G5FAV", event_name="x",
                           customer_external_id=customer), 422, "invalid_click_id")
    refused(lambda: c.lead(click_id="not-a-click", event_name="x", customer_external_id=customer), 422,
            "invalid_click_id")
    refused(lambda: c.lead(event_name="x", customer_external_id=customer), 422, "attribution_required")
    refused(lambda: c.sale(customer_external_id=customer, amount=100), 422, "attribution_required")
    for code in ("xxx", "xau", "abc", "US Dollar"):
        e = refused(lambda: c.sale(click_id=click, customer_external_id=customer, amount=100, currency=code), 422,
                    "currency_unavailable")
        assert e.details["field"] == "currency"
    e = refused(lambda: c.sale(click_id=click, customer_external_id=customer, amount=-1), 422, "validation_error")
    assert e.details["field"] == "amount"
    e = refused(lambda: c.sale(click_id=click, customer_external_id=customer, amount=12.5), 422, "validation_error")
    assert e.details["field"] == "amount"
    e = refused(lambda: c.lead(click_id=click, event_name="x", customer_external_id=customer,
                               occurred_at="2001-01-01T00:00:00Z"), 422, "validation_error")
    assert e.details["field"] == "occurredAt"
    e = refused(lambda: c.lead(click_id=click, event_name="x", customer_external_id=customer,
                               occurred_at="yesterday"), 422, "validation_error")
    assert e.details["field"] == "occurredAt"
    e = refused(lambda: c.lead(click_id=click, event_name="x", customer_external_id=customer,
                               metadata={"password": "hunter2"}), 422, "validation_error")
    assert e.details["field"] == "metadata.password"
    e = refused(lambda: c.lead(click_id=click, event_name="x", customer_external_id=customer,
                               metadata={f"k{i}": i for i in range(21)}), 422, "validation_error")
    assert e.details["field"] == "metadata"
    e = refused(lambda: c.lead(click_id=click, event_name="x", customer_external_id=""), 422, "validation_error")
    assert e.details["field"] == "customerExternalId"
    # Nothing refused was stored, so a corrected request with the same key goes through.
    assert _rows(demo, "SELECT count(*) AS n FROM conversion_events")[0]["n"] == 0
    assert c.lead(click_id=click, event_name="x", customer_external_id=customer).status == 201


def test_headers_the_sdk_rules_refuse(demo):
    click = new_click(demo)
    body = {"clickId": click, "eventId": "evt_" + str(uuid.uuid4()), "eventName": "x", "customerExternalId": "c1"}
    base = {"Authorization": "Bearer " + demo.secret_key, "Content-Type": "application/json"}
    status, _, answer = raw_post(demo, "lead", body, base)
    assert (status, answer["error"]["code"]) == (400, "idempotency_key_required")
    status, _, answer = raw_post(demo, "lead", body, {**base, "Idempotency-Key": "k" * 256})
    assert (status, answer["error"]["code"]) == (400, "validation_error")
    status, _, answer = raw_post(demo, "lead", body, {**base, "Idempotency-Key": "ok", "X-Biq-Request-Id": "a b"})
    assert (status, answer["error"]["code"]) == (400, "validation_error")
    assert answer["error"]["details"]["field"] == "X-Biq-Request-Id"
    status, _, answer = raw_post(demo, "lead", body, {**base, "Idempotency-Key": "k"})
    assert status == 201, answer


def test_keys_without_the_scope_a_mobile_key_and_an_old_key(demo):
    click = new_click(demo)
    scoped = cli(["keys", "create", "--name", "shop", "--scope", "conversions.create"], demo.dir)
    assert scoped.returncode == 0, scoped.stderr
    links_only = cli(["keys", "create", "--name", "links", "--scope", "links.read,links.write"], demo.dir)
    assert links_only.returncode == 0, links_only.stderr
    bad = cli(["keys", "create", "--name", "x", "--scope", "conversions.delete"], demo.dir)
    assert bad.returncode == 2 and "conversions.delete" in bad.stderr
    shop, links = scoped.stdout.strip(), links_only.stdout.strip()
    listed = json.loads(cli(["keys", "list", "--json"], demo.dir).stdout)
    assert {k["name"]: k["scopes"] for k in listed}["shop"] == ["conversions.create"]

    customer = "cus_" + uuid.uuid4().hex
    e = refused(lambda: client(demo, links).lead(click_id=click, event_name="x", customer_external_id=customer),
                403, "insufficient_scope")
    assert e.details == {"requiredScope": "conversions.create"}
    refused(lambda: client(demo, links).sale(click_id=click, customer_external_id=customer, amount=1), 403,
            "insufficient_scope")
    refused(lambda: client(demo, demo.publishable_key).lead(click_id=click, event_name="x",
                                                            customer_external_id=customer), 401, "invalid_token")
    assert client(demo, shop).lead(click_id=click, event_name="x", customer_external_id=customer).status == 201
    # The conversions key does nothing else; the links key does its own work.
    h = {"Authorization": "Bearer " + shop}
    status, _, raw = request(demo.http_port, "/api/v1/links", headers=h)
    assert status == 403 and json.loads(raw)["error"]["code"] == "insufficient_scope"
    status, _, _ = request(demo.http_port, "/api/v1/links", headers={"Authorization": "Bearer " + links})
    assert status == 200
    # The demo's key was made without scopes (as every key before them): every power.
    status, _, _ = request(demo.http_port, "/api/v1/links", headers={"Authorization": "Bearer " + demo.secret_key})
    assert status == 200


# ---------------------------------------------------------------- customers and events (item 5)


def get(edge, path, key=None):
    status, _, raw = request(edge.http_port, path, headers={"Authorization": "Bearer " + (key or edge.secret_key)})
    return status, json.loads(raw)


def test_a_customers_journey_its_listing_and_the_events_pages(demo):
    click, other_click = new_click(demo, "invite"), new_click(demo, "promo")
    c = client(demo)
    customer, other = "cus_" + uuid.uuid4().hex, "cus_" + uuid.uuid4().hex
    lead = c.lead(click_id=click, event_name="Sign up", customer_external_id=customer, customer_name="Ann")
    sales = [c.sale(customer_external_id=customer, amount=100 * (i + 1), invoice_id=f"in_{i}") for i in range(3)]
    c.lead(click_id=other_click, event_name="Sign up", customer_external_id=other)

    status, journey = get(demo, f"/api/v1/customers/{customer}")
    assert status == 200
    assert journey["externalId"] == customer and journey["name"] == "Ann"
    assert journey["click"] == {"id": click} and journey["link"]["id"] == LINK_IDS["invite"]
    assert [e["id"] for e in journey["leads"]] == [lead.body["event"]["id"]]
    assert [e["amount"] for e in journey["sales"]] == [100, 200, 300]
    assert get(demo, "/api/v1/customers/nobody")[0] == 404

    status, page = get(demo, "/api/v1/customers?limit=1")
    assert status == 200 and len(page["data"]) == 1 and page["nextCursor"]
    status, rest = get(demo, f"/api/v1/customers?cursor={page['nextCursor']}")
    assert {x["externalId"] for x in page["data"] + rest["data"]} == {customer, other} and rest["nextCursor"] is None

    seen, cursor = [], None
    while True:
        status, page = get(demo, "/api/v1/events?limit=2" + (f"&cursor={cursor}" if cursor else ""))
        assert status == 200
        seen += page["data"]
        cursor = page["nextCursor"]
        if not cursor:
            break
    assert [e["type"] for e in seen] == ["lead", "sale", "sale", "sale", "lead"], "in the order recorded"
    status, sales_page = get(demo, f"/api/v1/events?type=sale&linkId={LINK_IDS['invite']}")
    assert [e["id"] for e in sales_page["data"]] == [s.body["event"]["id"] for s in sales]
    assert get(demo, f"/api/v1/events?linkId={LINK_IDS['promo']}")[1]["data"][0]["customerId"] != journey["id"]
    assert get(demo, "/api/v1/events?type=purchase")[0] == 400


def test_erasure_clears_the_personal_fields_everywhere_and_keeps_the_counts(demo):
    click = new_click(demo)
    c = client(demo)
    customer = "cus_" + uuid.uuid4().hex
    event_id = "evt_" + str(uuid.uuid4())
    c.lead(click_id=click, event_id=event_id, event_name="Sign up", customer_external_id=customer,
           customer_name="Zoë", customer_email="zoe@example.com", customer_avatar="https://cdn.example.com/z.png")
    c.sale(customer_external_id=customer, amount=4999, invoice_id="in_z")
    status, raw_headers, raw = request(demo.http_port, f"/api/v1/customers/{customer}", method="DELETE",
                                       headers={"Authorization": "Bearer " + demo.secret_key})
    assert status == 200 and json.loads(raw)["erased"] is True
    assert get(demo, f"/api/v1/customers/{customer}")[0] == 404
    [row] = _rows(demo, "SELECT * FROM customers WHERE substr(external_id, 1, 7) = ?", ("erased_",))
    assert row["name"] is None and row["email"] is None and row["avatar"] is None and row["click_id"] == click
    stored = events(demo, customer_id=row["id"])
    assert len(stored) == 2, "the lead and the sale stay"
    for e in stored:
        text = bytes(e["response"]).decode()
        assert "Zo" not in text and "zoe@" not in text and customer not in text
    # A retry of the lead after the erasure replays the erased answer and writes nothing.
    again = c.lead(click_id=click, event_id=event_id, event_name="Sign up", customer_external_id=customer,
                   customer_name="Zoë", customer_email="zoe@example.com",
                   customer_avatar="https://cdn.example.com/z.png")
    assert again.body["customer"]["name"] is None and again.body["customer"]["externalId"].startswith("erased_")
    assert get(demo, f"/api/v1/customers/{customer}")[0] == 404
    status, sales = get(demo, "/api/v1/events?type=sale")
    assert [e["amount"] for e in sales["data"]] == [4999]


def stored_texts(edge):
    """Every row of every table of the edge's store, each as one text (bytes decoded)."""
    if edge.database_url:
        tables = [r["table_name"] for r in _rows(
            edge, "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")]
    else:
        tables = [r["name"] for r in _rows(edge, "SELECT name FROM sqlite_master WHERE type = 'table'")]
    texts = []
    for table in tables:
        for row in _rows(edge, f'SELECT * FROM "{table}"'):
            texts.append(table + ": " + " ".join(
                bytes(v).decode(errors="replace") if isinstance(v, (bytes, memoryview)) else str(v)
                for v in row.values()))
    return texts


def test_erasure_takes_the_external_id_out_of_event_ids_texts_and_the_access_log(demo):
    """Issue 33 item 5: the README's `signup:<externalId>` event IDs, the caller's texts and the
    logged paths keep no copy of an erased customer's external ID; `erased_...` is reserved."""
    click = new_click(demo)
    c = client(demo)
    customer = "cus_" + uuid.uuid4().hex
    c.lead(click_id=click, event_id=f"signup:{customer}", event_name="Sign up", customer_external_id=customer,
           customer_name="Zoë Ünal", metadata={"who": customer})
    sale_id = "evt_" + str(uuid.uuid4())
    c.sale(customer_external_id=customer, amount=4999, event_id=sale_id, invoice_id=f"in_{customer}")
    assert get(demo, f"/api/v1/customers/{customer}")[0] == 200
    assert any(customer in t for t in stored_texts(demo))
    status, _, raw = request(demo.http_port, f"/api/v1/customers/{customer}", method="DELETE",
                             headers={"Authorization": "Bearer " + demo.secret_key})
    assert status == 200, raw
    erased = [r["external_id"] for r in _rows(demo, "SELECT external_id FROM customers")
              if r["external_id"].startswith("erased_")]
    assert len(erased) == 1
    left = [t for t in stored_texts(demo) if customer in t or "Ünal" in t]
    assert left == [], left
    ids = sorted(e["event_id"] for e in events(demo, customer_id=erased[0][len("erased_"):]))
    assert ids[0].startswith("erased_biq_lev_") and ids[1] == sale_id
    time.sleep(0.3)  # the loops flush their access logs once per pass
    logged = [line for line in demo.lines + demo.stderr_lines if customer in line]
    assert logged == [], logged
    paths = [e.get("path") for e in demo.log_entries() if e.get("msg") == "request"]
    assert "/api/v1/customers/{redacted}" in paths, paths

    # A retry of the sale (its own event ID) is still a replay; the sign-up, whose ID held
    # the external ID, is a new event of a new customer.
    again = c.sale(customer_external_id=customer, amount=4999, event_id=sale_id, invoice_id=f"in_{customer}")
    assert again.headers.get("idempotent-replayed") == "true"
    assert again.body["customer"]["externalId"] == erased[0]
    signup = c.lead(click_id=click, event_id=f"signup:{customer}", event_name="Sign up",
                    customer_external_id=customer, customer_name="Zoë Ünal", metadata={"who": customer})
    assert signup.status == 201 and signup.headers.get("idempotent-replayed") is None
    assert signup.body["customer"]["externalId"] == customer

    # An erased customer's or event's ID cannot be named by a lead or sale.
    for body in ({"customer_external_id": erased[0], "event_id": "evt_" + uuid.uuid4().hex},
                 {"customer_external_id": customer, "event_id": "erased_" + uuid.uuid4().hex}):
        err = refused(lambda: c.lead(click_id=click, event_name="Sign up", **body), 422, "validation_error")
        assert err.body["error"]["details"]["errors"][0]["rule"].startswith("must not start with erased_")


def test_the_customer_and_event_scopes(demo):
    new_click(demo)
    keys = {}
    for name, scope in (("shop", "conversions.create"), ("support", "customers.read,events.read"),
                        ("dpo", "customers.write")):
        out = cli(["keys", "create", "--name", name, "--scope", scope], demo.dir)
        assert out.returncode == 0, out.stderr
        keys[name] = out.stdout.strip()
    assert get(demo, "/api/v1/customers", keys["shop"])[0] == 403
    assert get(demo, "/api/v1/events", keys["shop"])[0] == 403
    assert get(demo, "/api/v1/customers", keys["support"])[0] == 200
    assert get(demo, "/api/v1/events", keys["support"])[0] == 200
    assert get(demo, "/api/v1/customers", keys["dpo"])[0] == 403
    status, _, raw = request(demo.http_port, "/api/v1/customers/x", method="DELETE",
                             headers={"Authorization": "Bearer " + keys["support"]})
    assert status == 403 and json.loads(raw)["error"]["details"] == {"requiredScope": "customers.write"}
    status, _, _ = request(demo.http_port, "/api/v1/customers/x", method="DELETE",
                           headers={"Authorization": "Bearer " + keys["dpo"]})
    assert status == 404


# ---------------------------------------------------------------- retries through a balancer


class FlakyBalancer:
    """A balancer in front of the edge whose first answers go wrong as the test says:
    `("lost", status, headers)` forwards the request to the edge, then throws its answer away and
    answers `status` (the edge wrote the event; the client never learns it); `("refuse", status,
    headers)` answers without forwarding. Later requests pass through."""

    def __init__(self, edge, script):
        import http.server, threading
        self.script, self.forwarded, self.edge_port = list(script), 0, edge.http_port
        balancer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                step = balancer.script.pop(0) if balancer.script else None
                if step is None or step[0] == "lost":
                    headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
                    status, h, payload = request(balancer.edge_port, self.path, method="POST", headers=headers,
                                                 body=body)
                    balancer.forwarded += 1
                    if step is None:
                        return self.answer(status, {k: v for k, v in h.items()
                                                    if k in ("content-type", "x-biq-request-id",
                                                             "idempotent-replayed")}, payload)
                    status, h, payload = step[1], step[2], b"upstream answer lost"
                else:
                    status, h, payload = step[1], step[2], b"slow down"
                self.answer(status, {"content-type": "text/plain", **h}, payload)

            def answer(self, status, headers, payload):
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/api"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_a_lost_answer_behind_a_balancer_is_retried_and_replayed(demo):
    click = new_click(demo)
    balancer = FlakyBalancer(demo, [("lost", 502, {})])
    slept = []
    try:
        c = Conversions(demo.secret_key, balancer.base, sleep=slept.append)
        r = c.lead(click_id=click, event_name="Sign up", customer_external_id="cus_" + uuid.uuid4().hex)
    finally:
        balancer.close()
    assert r.status == 201 and r.attempts == 2 and balancer.forwarded == 2
    assert r.headers.get("idempotent-replayed") == "true", "the second attempt got the first answer"
    assert 0.25 <= slept[0] <= 0.375, "exponential backoff from 250 ms with jitter"
    assert len(events(demo, event_id=r.body["event"]["eventId"])) == 1


def test_429_and_503_with_retry_after_are_waited_for_and_the_event_is_written_once(demo):
    import email.utils
    click = new_click(demo)
    later = email.utils.formatdate(time.time() + 2, usegmt=True)
    balancer = FlakyBalancer(demo, [("refuse", 429, {"Retry-After": "1"}), ("lost", 503, {"Retry-After": later})])
    slept = []
    try:
        c = Conversions(demo.secret_key, balancer.base, sleep=slept.append)
        r = c.sale(click_id=click, customer_external_id="cus_" + uuid.uuid4().hex, amount=1299, invoice_id="in_r")
    finally:
        balancer.close()
    assert r.status == 201 and r.attempts == 3 and balancer.forwarded == 2
    assert slept[0] == 1.0 and 0 < slept[1] <= 2.0, slept
    assert r.body["sale"]["amount"] == 1299
    assert len(events(demo, event_id=invoice_event_id("in_r"))) == 1
