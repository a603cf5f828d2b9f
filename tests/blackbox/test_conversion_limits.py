"""The largest amounts the API accepts, added up (issue 33 item 1, decision 0029): a key with
only `conversions.create` sends sales of the largest amount (2^53 - 1 minor units) on one
tracked desktop visit's click, enough of them that their sums pass 2^63 - 1, the most a
64-bit integer holds. Every sale is accepted, every total is exact, a later sale is still
accepted, and neither a report, a console page nor the count at start-up stops the edge:
it is restarted on the same store and still redirects. Runs on both backends (scripts/test's
two passes). The first two send about a thousand sales each, 16 at a time (a few seconds)."""
import http.client, json, re, time, uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from conversions_client import Conversions
from edge import request
from fixtures_data import LINK_IDS, UA_DESKTOP, update_link, visit
from management_api import cli
from test_click_ids import LANDING, location_id
from test_conversions import demo, get  # noqa: F401 (the fixture)
from test_console import Browser

MAX_AMOUNT = 2**53 - 1
INT64_MAX = 2**63 - 1
# Sales of MAX_AMOUNT one 64-bit sum holds: 1,024 (1,024 x (2^53 - 1) < 2^63 - 1 < 1,025 x it).
FITS_INT64 = INT64_MAX // MAX_AMOUNT


def iso(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(seconds))


def day_of(seconds):
    return time.strftime("%Y-%m-%d", time.gmtime(seconds))


def shop_key(edge):
    """A key with only `conversions.create`: the one the README puts in a shop's backend."""
    out = cli(["keys", "create", "--name", "shop", "--scope", "conversions.create"], edge.dir)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def desktop_click(edge):
    """The click id a tracked link's desktop redirect hands to the shop (`bq_id`)."""
    update_link(edge, "docs", url=LANDING, trackConversions=True)
    status, headers, _ = visit(edge, "/docs", ua=UA_DESKTOP)
    assert status == 302, (status, headers)
    return location_id(headers["location"])


def send_sales(edge, key, click, dates, amount=MAX_AMOUNT, currency="vnd"):
    """One sale per entry of `dates` (an RFC 3339 time, or None: now), 16 at a time, no retry:
    the statuses in order, and the first answer that was not 201."""
    shop = Conversions(key, f"http://127.0.0.1:{edge.http_port}/api", max_retries=0)
    customers = ["cus_" + uuid.uuid4().hex for _ in range(8)]

    def one(i):
        body = {"clickId": click, "eventId": "evt_" + uuid.uuid4().hex, "customerExternalId": customers[i % 8],
                "amount": amount, "currency": currency, "occurredAt": dates[i], "metadata": {}}
        try:
            return shop.send("sale", body).status, None
        except Exception as e:  # an ApiError, or a connection the edge dropped as it died
            return getattr(e, "status", None), getattr(e, "body", repr(e))

    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(one, range(len(dates))))
    failed = next((a for a in answers if a[0] != 201), None)
    return [a[0] for a in answers], failed


def analytics(edge, days):
    status, raw = None, b""
    try:
        status, _, raw = request(edge.http_port, f"/api/v1/links/{LINK_IDS['docs']}/analytics?days={days}",
                                 headers={"Authorization": "Bearer " + edge.secret_key})
    except (OSError, EOFError) as e:  # the edge died answering
        raw = repr(e).encode()
    assert status == 200, (status, raw, edge.proc.poll(), edge.stderr_lines[-5:])
    return json.loads(raw)


def wait_for_log(edge, message, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = [e for e in edge.log_entries() if e.get("msg") == message]
        if found:
            return found[-1]
        assert edge.proc.poll() is None, (edge.proc.returncode, edge.stderr_lines[-5:])
        time.sleep(0.05)
    raise AssertionError(f"no {message!r}: {edge.lines[-5:]}")


def grouped(n):
    """`9,007,199,254,740,991`: a number as the console writes it."""
    return f"{n:,}"


def test_sums_past_64_bits_are_exact_and_neither_a_report_nor_a_restart_stops_the_edge(demo, edge_factory):
    """The review's sequence: 1,026 sales of the largest amount, half yesterday, half today
    (each day's sum fits 64 bits, the two days' do not), plus one of 1 minor unit 45 days ago
    (the previous period of the console's 30 days: a change of about 10^20 percent). Before:
    the report killed the process (PeriodTotals), and the restarted edge died again at once
    without a request (the console's overview counted at start-up)."""
    key = shop_key(demo)
    click = desktop_click(demo)
    now = time.time()
    half = FITS_INT64 // 2 + 1  # 513
    dates = [iso(now - 86_400)] * half + [None] * half
    statuses, failed = send_sales(demo, key, click, dates)
    assert statuses == [201] * len(dates), failed
    _, failed = send_sales(demo, key, click, [iso(now - 45 * 86_400)], amount=1)
    assert failed is None, failed

    r = analytics(demo, days=2)
    total = 2 * half * MAX_AMOUNT
    assert total > INT64_MAX
    conv = r["conversions"]
    assert (conv["sales"], conv["revenue"]) == (2 * half, {"vnd": total})
    assert [(d["day"], d["sales"], d["revenue"]) for d in conv["daily"]] == [
        (day_of(now - 86_400), half, {"vnd": half * MAX_AMOUNT}), (day_of(now), half, {"vnd": half * MAX_AMOUNT})]
    assert analytics(demo, days=60)["previousPeriod"]["revenue"] == {}
    assert analytics(demo, days=30)["previousPeriod"]["revenue"] == {"vnd": 1}
    assert demo.proc.poll() is None

    # The console's link page: the totals and their change against the previous 30 days.
    b = Browser(demo)
    b.sign_in(demo.secret_key)
    status, _, page = b.get(f"/console/links/{LINK_IDS['docs']}")
    assert status == 200, page
    assert f"{grouped(total)} VND" in page

    # Restarted on the same store: the overview is counted at start-up, without a request.
    demo.stop()
    again = edge_factory(data_dir=demo.dir, env=demo.env)
    again.secret_key = demo.secret_key
    wait_for_log(again, "console overview counted")
    status, headers, _ = visit(again, "/docs", ua=UA_DESKTOP)
    assert status == 302 and "bq_id=" in headers["location"], (status, headers)
    assert analytics(again, days=2)["conversions"]["revenue"] == {"vnd": total}
    b = Browser(again)
    b.sign_in(demo.secret_key)
    status, _, overview = b.get("/console/")
    assert status == 200 and 'id="totals"' in overview, overview
    totals = re.search(r'<section id="totals".*?</section>', overview, re.S).group(0)
    assert f"{grouped(total)} VND" in totals, totals
    assert re.search(r'id="total-sales".*?>1,026<', totals, re.S), totals
    metrics = request(again.http_port, "/metrics")[2].decode()
    assert 'biqli_console_overview_counts_total{result="counted"} 1' in metrics, metrics
    assert 'biqli_console_overview_counts_total{result="failed"} 0' in metrics
    assert again.proc.poll() is None
    # And a sale after all of that is still accepted.
    _, failed = send_sales(again, key, click, [None])
    assert failed is None, failed


def test_a_days_sum_past_64_bits_on_one_link_and_currency_is_stored_exactly(demo):
    """1,025 sales of the largest amount on one link, one UTC day and one currency: their sum
    passes 2^63 - 1 in the day's count row itself. Before: on PostgreSQL the 1,025th and every
    later sale of that day answered 500 (`bigint out of range` in the count upsert); on SQLite
    the row silently became a floating-point number and the report showed 2^63 - 1."""
    key = shop_key(demo)
    click = desktop_click(demo)
    n = FITS_INT64 + 1
    statuses, failed = send_sales(demo, key, click, [None] * n)
    assert statuses == [201] * n, (statuses.count(201), failed)
    _, failed = send_sales(demo, key, click, [None])  # and one more
    assert failed is None, failed
    conv = analytics(demo, days=1)["conversions"]
    assert (conv["sales"], conv["revenue"]) == (n + 1, {"vnd": (n + 1) * MAX_AMOUNT})
    assert (n + 1) * MAX_AMOUNT > INT64_MAX
    assert demo.proc.poll() is None


def test_a_change_of_ten_to_the_twentieth_percent_is_shown_without_stopping_the_edge(demo, edge_factory):
    """Eleven sales of the largest amount against one of 1 minor unit 45 days before (the
    previous period of the console's 30 days): a change of about 10^20 percent, past a 64-bit
    integer. Before: the console's link page killed the process with these 12 requests (and
    so did the overview, once counted)."""
    key = shop_key(demo)
    click = desktop_click(demo)
    _, failed = send_sales(demo, key, click, [None] * 11)
    assert failed is None, failed
    _, failed = send_sales(demo, key, click, [iso(time.time() - 45 * 86_400)], amount=1)
    assert failed is None, failed

    def revenue_total(edge, path):
        b = Browser(edge)
        try:
            b.sign_in(demo.secret_key)
            status, _, page = b.get(path)
        except (OSError, http.client.HTTPException) as e:  # the edge died answering
            raise AssertionError((path, repr(e), edge.proc.poll(), edge.stderr_lines[-3:]))
        assert status == 200, (path, status)
        return re.search(r'<div id="total-revenue-vnd">.*?</div>', page, re.S).group(0)

    shown = revenue_total(demo, f"/console/links/{LINK_IDS['docs']}")
    assert f"{grouped(11 * MAX_AMOUNT)} VND" in shown and "+9223372036854775807 %" in shown, shown
    # The overview counts at start: an edge started again on the store shows these sales.
    demo.stop()
    again = edge_factory(data_dir=demo.dir, env=demo.env)
    wait_for_log(again, "console overview counted")
    shown = revenue_total(again, "/console/")
    assert f"{grouped(11 * MAX_AMOUNT)} VND" in shown and "+9223372036854775807 %" in shown, shown
    assert again.proc.poll() is None
