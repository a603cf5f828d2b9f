"""Black-box tests of the analytics of conversions (issue 25 item 6, decision 0026): leads and
sales sent through `POST /api/v1/track/lead|sale` show in the link's report
(`GET /api/v1/links/{id}/analytics`) by UTC day and currency, with the funnel and the previous
period, from the per-link daily counts; an erasure keeps them; the console's link page, overview,
customers page and customer page show them. Runs on both backends (scripts/test's two passes)."""
import re, time, uuid

from fixtures_data import LINK_IDS, _rows
from test_console import Browser
from test_conversions import client, demo, get, new_click  # noqa: F401 (the fixture)


def report(edge, link="invite", days=7):
    status, body = get(edge, f"/api/v1/links/{LINK_IDS[link]}/analytics?days={days}")
    assert status == 200, body
    return body


def iso(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(seconds))


def test_leads_and_sales_show_in_the_links_report_by_day_and_currency_with_the_funnel(demo):
    clicks = [new_click(demo) for _ in range(3)]
    c = client(demo)
    now = time.time()
    yesterday, ten_days_ago = now - 86_400, now - 10 * 86_400
    names = ["cus_" + uuid.uuid4().hex for _ in range(3)]
    for name, click in zip(names, clicks):
        c.lead(click_id=click, event_name="Sign up", customer_external_id=name)
    c.sale(customer_external_id=names[0], amount=4999, currency="usd", invoice_id="in_1")
    c.sale(customer_external_id=names[1], amount=1000, currency="eur", invoice_id="in_2")
    c.sale(customer_external_id=names[1], amount=250, currency="eur", invoice_id="in_3", occurred_at=iso(yesterday))
    # Ten days ago: outside a 7-day period, inside the 7 days before it.
    c.sale(customer_external_id=names[2], amount=700, currency="usd", invoice_id="in_4", occurred_at=iso(ten_days_ago))
    # A lead of another link is not this one's.
    c.lead(click_id=new_click(demo, "promo"), event_name="Sign up", customer_external_id="cus_" + uuid.uuid4().hex)

    r = report(demo)
    conv = r["conversions"]
    assert (conv["leads"], conv["sales"]) == (3, 3)
    assert conv["revenue"] == {"eur": 1250, "usd": 4999}
    assert conv["funnel"] == {"clicks": r["clicks"]["total"] - r["clicks"]["byKind"]["preview_bot"],
                              "leads": 3, "sales": 3}
    assert conv["funnel"]["clicks"] >= 3
    days = {d["day"]: d for d in conv["daily"]}
    assert len(conv["daily"]) == 7
    today = time.strftime("%Y-%m-%d", time.gmtime(now))
    yday = time.strftime("%Y-%m-%d", time.gmtime(yesterday))
    assert days[today] == {"day": today, "leads": 3, "sales": 2, "revenue": {"eur": 1000, "usd": 4999}}
    assert days[yday] == {"day": yday, "leads": 0, "sales": 1, "revenue": {"eur": 250}}
    prev = r["previousPeriod"]
    assert (prev["leads"], prev["sales"], prev["revenue"]) == (0, 1, {"usd": 700})
    assert prev["clicks"] == 0 and prev["until"] == r["since"]
    # The report over 30 days holds the old sale too.
    assert report(demo, days=30)["conversions"]["revenue"] == {"eur": 1250, "usd": 5699}
    # The promo link has its own lead only.
    promo = report(demo, "promo")["conversions"]
    assert (promo["leads"], promo["sales"], promo["revenue"]) == (1, 0, {})


def test_the_counts_equal_the_events_and_an_erasure_keeps_them(demo):
    click = new_click(demo)
    c = client(demo)
    name = "cus_" + uuid.uuid4().hex
    c.lead(click_id=click, event_name="Sign up", customer_external_id=name, customer_name="Zoë")
    for i in range(5):
        c.sale(customer_external_id=name, amount=100 * (i + 1), currency="gbp", invoice_id=f"in_{i}")
    # A replay writes no event and adds to no count.
    c.sale(customer_external_id=name, amount=100, currency="gbp", invoice_id="in_0")
    before = report(demo)["conversions"]
    assert (before["leads"], before["sales"], before["revenue"]) == (1, 5, {"gbp": 1500})
    rows = _rows(demo, "SELECT type, currency, count, amount FROM link_conversion_counts WHERE link_id = ?",
                 (LINK_IDS["invite"],))
    assert sorted((r["type"], r["currency"], r["count"], r["amount"]) for r in rows) == [
        ("lead", "", 1, 0), ("sale", "gbp", 5, 1500)]
    from test_conversions import request
    status, _, _ = request(demo.http_port, f"/api/v1/customers/{name}", method="DELETE",
                           headers={"Authorization": "Bearer " + demo.secret_key})
    assert status == 200
    assert report(demo)["conversions"] == before


def test_the_console_shows_conversions_customers_and_a_journey(demo, edge_factory):
    click = new_click(demo)
    c = client(demo)
    name, erased = "cus_" + uuid.uuid4().hex, "cus_" + uuid.uuid4().hex
    c.lead(click_id=click, event_name="Sign up", customer_external_id=name, customer_name="Ann Example",
           customer_email="ann@example.com")
    c.sale(customer_external_id=name, amount=4999, currency="usd", invoice_id="in_a")
    c.lead(click_id=new_click(demo), event_name="Sign up", customer_external_id=erased, customer_name="Bo")
    from test_conversions import request
    assert request(demo.http_port, f"/api/v1/customers/{erased}", method="DELETE",
                   headers={"Authorization": "Bearer " + demo.secret_key})[0] == 200

    b = Browser(demo)
    b.sign_in(demo.secret_key)
    status, _, page = b.get(f"/console/links/{LINK_IDS['invite']}?days=7")
    assert status == 200
    totals = re.search(r'<section id="totals".*?</section>', page, re.S).group(0)
    assert re.search(r'id="total-leads".*?>2<', totals, re.S), totals
    assert re.search(r'id="total-sales".*?>1<', totals, re.S), totals
    assert "49.99 USD" in totals
    funnel = re.search(r'<table id="funnel">.*?</table>', page, re.S).group(0)
    assert re.findall(r'<td class="number">([\d,]+)</td>', funnel)[1:3] == ["2", "1"], funnel
    assert '<table id="conversions-table">' in page

    status, _, listing = b.get("/console/customers")
    assert status == 200
    assert name in listing and "Ann Example" in listing
    assert "Erased" in listing and erased not in listing
    customer_id = re.search(rf'href="/console/customers/([^"]+)">{name}<', listing).group(1)
    status, _, page = b.get(f"/console/customers/{customer_id}")
    assert status == 200
    journey = re.search(r'<table id="journey">.*?</table>', page, re.S).group(0)
    assert [x for x in re.findall(r'<td>(Click|Lead|Sale)</td>', journey)] == ["Click", "Lead", "Sale"], journey
    assert "49.99 USD" in journey and LINK_IDS["invite"] in journey
    erased_id = re.search(r'href="/console/customers/([^"]+)">Erased', listing).group(1)
    status, _, page = b.get(f"/console/customers/{erased_id}")
    assert status == 200 and "erased" in page.lower() and "Bo" not in re.sub(r"<[^>]+>", " ", page).split()
    assert b.get("/console/customers/biq_cus_nobody")[0] == 404
    # Pages of one: the cursor reaches the other customer.
    status, _, first = b.get("/console/customers?limit=1")
    assert status == 200
    cursor = re.search(r'href="/console/customers\?cursor=([^"&]+)', first).group(1)
    status, _, second = b.get(f"/console/customers?cursor={cursor}&limit=1")
    assert status == 200 and ("Ann Example" in first) != ("Ann Example" in second)

    # The overview is counted in the background, at start and then every 5 minutes: an
    # edge started again on the same store counts these leads and sales at once.
    demo.stop()
    again = edge_factory(data_dir=demo.dir, env=demo.env | {"BIQLI_EDGE_CONSOLE_ADDR": "127.0.0.1:0"})
    b = Browser(again)
    b.sign_in(demo.secret_key)
    overview = ""
    for _ in range(100):
        status, _, overview = b.get("/console/")
        if 'id="totals"' in overview:
            break
        time.sleep(0.05)
    totals = re.search(r'<section id="totals".*?</section>', overview, re.S).group(0)
    assert re.search(r'id="total-leads".*?>2<', totals, re.S), totals
    assert re.search(r'id="total-sales".*?>1<', totals, re.S) and "49.99 USD" in totals, totals
    assert re.search(r'id="total-revenue-usd".*?new', totals, re.S), "nothing the 30 days before"
    assert '<details class="days"><summary>' in overview and '<table id="overview-table">' in overview
