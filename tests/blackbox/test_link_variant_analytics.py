"""Black-box test of a link's analytics per arm of its A/B test (issue 35, decision 0032):
`byVariant` in `GET /api/v1/links/{id}/analytics` counts each arm's clicks (web visits, the arm
read from each answer's Location and its `bq_v=<arm>.<fp>` cookie) and the leads and sales sent
through the conversions API with the click IDs of visits whose arm the test knows (or, for a sale
without a click ID, through the customer's click); an arm the link no longer has after a PATCH
stays in the report with url and weight null. Runs on both backends (scripts/test's two passes)."""
import collections, uuid

import pytest

from fixtures_data import DEMO_HOST, UA_DESKTOP, api, barrier, clicks, start_demo, visit
from test_conversions import client
from test_resolver import ROOMY

ARMS = [{"url": "https://a.example.com/", "weight": 50}, {"url": "https://b.example.com/", "weight": 30},
        {"url": "https://c.example.com/", "weight": 20}]
URLS = [a["url"] for a in ARMS]


@pytest.fixture
def demo(edge_factory):
    return start_demo(edge_factory, env=ROOMY)


COOKIES = {}  # arm -> the last `bq_v` cookie seen for it


def arm_of_visit(edge, path):
    """One first-time desktop visit: the arm its Location names, checked against its cookie."""
    status, h, _ = visit(edge, path, ua=UA_DESKTOP)
    assert status == 302, (status, h)
    arm = URLS.index(h["location"])
    assert h["set-cookie"].startswith(f"bq_v={arm}."), h["set-cookie"]
    COOKIES[arm] = h["set-cookie"].split(";")[0]
    return arm


def report(edge, link_id, days=7):
    return api(edge, "GET", f"/links/{link_id}/analytics?days={days}")


def test_by_variant_counts_each_arms_clicks_leads_and_sales_and_keeps_a_removed_arm(demo):
    link = api(demo, "POST", "/links", {"domain": DEMO_HOST, "key": "abtest", "url": "https://www.example.com/",
                                        "variants": ARMS})
    # A link without variants: an empty list.
    plain = api(demo, "POST", "/links", {"domain": DEMO_HOST, "key": "plain", "url": "https://www.example.com/"})
    assert report(demo, plain["id"])["byVariant"] == []
    # Before any visit, every arm is there with zeros.
    assert [(v["variant"], v["url"], v["weight"], v["clicks"], v["leads"], v["sales"], v["revenue"])
            for v in report(demo, link["id"])["byVariant"]] == [
        (i, a["url"], a["weight"], 0, 0, 0, {}) for i, a in enumerate(ARMS)]

    # Visits whose click the test converts: one at a time, the click found as the link's newest
    # after a barrier, its stored arm the one the visitor saw.
    known = []  # (click id, arm)
    seen_ids = set()
    while len(known) < 9 or len({arm for _, arm in known}) < 3:
        arm = arm_of_visit(demo, "/abtest")
        barrier(demo)
        new = [c for c in clicks(demo) if c["link_id"] == link["id"] and c["id"] not in seen_ids]
        assert len(new) == 1, new
        assert new[0]["variant"] == arm
        seen_ids.add(new[0]["id"])
        known.append((new[0]["id"], arm))
        assert len(known) < 60, "three arms drawn 50/30/20 within 60 visits"
    # The rest of a few hundred visits, by Location and cookie.
    sent = collections.Counter(arm for _, arm in known)
    for _ in range(300 - len(known)):
        sent[arm_of_visit(demo, "/abtest")] += 1
    # A returning visitor (its cookie) keeps its arm and counts again under it.
    status, h, _ = visit(demo, "/abtest", ua=UA_DESKTOP, headers={"Cookie": COOKIES[2]})
    assert status == 302 and h["location"] == URLS[2] and "set-cookie" not in h
    sent[2] += 1

    # Leads: one per known click; sales: each arm's first known click's customer buys, one with
    # the click ID, one without (the customer's click), in two currencies.
    c = client(demo)
    expected = {arm: {"leads": 0, "sales": 0, "revenue": collections.Counter()} for arm in range(3)}
    buyers = {}
    for click_id, arm in known:
        name = "cus_" + uuid.uuid4().hex
        c.lead(click_id=click_id, event_name="Sign up", customer_external_id=name)
        expected[arm]["leads"] += 1
        buyers.setdefault(arm, (name, click_id))
    for arm, (name, click_id) in buyers.items():
        amount = 1000 * (arm + 1)
        c.sale(customer_external_id=name, click_id=click_id, amount=amount, currency="usd",
               invoice_id=f"in_{arm}_a")
        c.sale(customer_external_id=name, amount=amount + 1, currency="eur", invoice_id=f"in_{arm}_b")
        expected[arm]["sales"] += 2
        expected[arm]["revenue"].update({"usd": amount, "eur": amount + 1})
    # A visit of the link without variants gets no arm.
    status, h, _ = visit(demo, "/plain", ua=UA_DESKTOP)
    assert status == 302 and "set-cookie" not in h

    barrier(demo)
    stored = collections.Counter(c["variant"] for c in clicks(demo) if c["link_id"] == link["id"])
    assert stored == sent, (stored, sent)
    body = report(demo, link["id"])
    assert body["byVariant"] == [
        {"variant": arm, "url": ARMS[arm]["url"], "weight": ARMS[arm]["weight"], "clicks": sent[arm],
         "leads": expected[arm]["leads"], "sales": expected[arm]["sales"],
         "revenue": dict(sorted(expected[arm]["revenue"].items()))}
        for arm in range(3)]
    assert body["clicks"]["total"] == sum(sent.values())
    assert body["conversions"]["leads"] == len(known)

    # The third arm taken off the link: still reported, url and weight null; the others' new weights.
    api(demo, "PATCH", f"/links/{link['id']}", {"variants": [{"url": URLS[0], "weight": 60},
                                                              {"url": URLS[1], "weight": 40}]})
    after = report(demo, link["id"])["byVariant"]
    assert [(v["variant"], v["url"], v["weight"]) for v in after] == [
        (0, URLS[0], 60), (1, URLS[1], 40), (2, None, None)]
    assert [(v["clicks"], v["leads"], v["sales"]) for v in after] == [
        (sent[arm], expected[arm]["leads"], expected[arm]["sales"]) for arm in range(3)]
