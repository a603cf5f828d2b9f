"""Black-box tests of `biqli-edge migrate-store --to URL` (issue 16 item 7): an edge that ran on its
SQLite file moves to PostgreSQL and answers the same afterwards: the API's reads, a handoff token
handed out before the move, a replayed open, the analytics, an operator signed in to the console
(issue 23 item 7). The copy refuses a database that is not empty and a data directory a `serve`
still holds, and then writes nothing; a copy that fails half way leaves the database as it was (no
table made), and runs once the cause is mended.

They run on the PostgreSQL pass of scripts/test (BIQLI_TEST_BACKEND=postgresql with the admin URL of
a throwaway cluster); the source edge runs on SQLite whatever the pass."""
import json, os, re, sqlite3, subprocess, tempfile, time, uuid

import pytest

import backend
from edge import BINARY, request
from fixtures_data import (
    DEMO_APP_ID, DEMO_HOST, UA_DESKTOP, android_token, api, barrier, start_demo, update_link, visit)
from test_console import Browser

pytestmark = pytest.mark.skipif(not backend.POSTGRESQL, reason="the PostgreSQL pass of scripts/test runs these")

ROOMY = {"BIQLI_EDGE_RATE_PER_ADDRESS": "100000", "BIQLI_EDGE_RATE_PER_INSTANCE": "100000",
         "BIQLI_EDGE_RATE_PER_TOKEN": "1000", "BIQLI_EDGE_RATE_PER_APP": "1000000"}
SQLITE = {**ROOMY, "BIQLI_EDGE_DATABASE_URL": ""}  # the SQLite file, on the PostgreSQL pass too
# The test cluster trusts loopback, so a password is accepted and ignored: it must never be shown.
PASSWORD = "n0t-Shown-" + uuid.uuid4().hex[:8]
TABLES = ["secret_keys", "browser_keys", "client_click_settings", "in_app_escape_settings", "console_sessions",
          "domains", "mobile_apps", "app_domains", "publishable_keys", "links", "tags", "link_tags", "signing_keys",
          "idempotency_records", "customers", "conversion_events", "webhook_endpoints", "webhook_outbox",
          "webhook_attempts", "webhook_secret_keys", "certificates", "acme_accounts", "app_instances", "click_counts",
          "link_click_counts", "link_country_counts", "link_referrer_counts", "link_open_counts", "link_conversion_counts",
          "link_variant_counts", "link_variant_conversion_counts", "handoffs", "clicks",
          "open_events",
          "open_event_keys"]


def fresh_database():
    """A new, empty database on the test cluster: its URL with a password, and without."""
    name = "mig_" + uuid.uuid4().hex[:16]
    backend._admin(f"CREATE DATABASE {name}")
    base = backend.ADMIN_URL.rsplit("/", 1)[0]
    plain = base + "/" + name
    with_password = re.sub(r"^(postgres(?:ql)?://)([^:@/]+)@", rf"\1\2:{PASSWORD}@", plain)
    assert PASSWORD in with_password, "the admin URL names a user"
    return with_password, plain


def migrate(data_dir, url):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "BIQLI_EDGE_DATA_DIR": data_dir}
    out = subprocess.run([BINARY, "migrate-store", "--to", url], env=env, capture_output=True, text=True,
                         timeout=300, cwd=data_dir)
    assert PASSWORD not in out.stdout + out.stderr
    return out


def printed_counts(stdout):
    counts = {}
    for line in stdout.splitlines():
        m = re.match(r"^  ([a-z_]+) +(\d+)", line)
        if m:
            counts[m.group(1)] = int(m.group(2))
    return counts


def sqlite_count(data_dir, sql):
    db = sqlite3.connect(f"file:{os.path.join(data_dir, 'edge.sqlite3')}?mode=ro", uri=True)
    try:
        return db.execute(sql).fetchone()[0]
    finally:
        db.close()


def pg_counts(url):
    return {t: backend.rows(url, f"SELECT count(*) AS n FROM {t}")[0]["n"] for t in TABLES}


def open_request(edge, event, key, handoff=None, deep_link=None, instance=None):
    """An open as the Android SDK sends it; Idempotency-Key `key` (the SDKs send the eventId)."""
    body = json.dumps({
        "eventId": event, "appId": DEMO_APP_ID, "appInstanceId": instance or "install_" + uuid.uuid4().hex,
        "platform": "android", "firstOpen": True, "probabilisticAllowed": False, "handoffToken": handoff,
        "deepLink": deep_link, "domain": DEMO_HOST if deep_link else None, "appVersion": "1.0", "osVersion": "14",
        "sdkVersion": "1.0.0", "occurredAt": "2026-11-29T10:00:00.000Z", "attestation": None,
    }, separators=(",", ":")).encode()
    headers = {"Authorization": "Bearer " + edge.publishable_key, "Content-Type": "application/json",
               "Accept": "application/json", "Idempotency-Key": key, "X-Biq-SDK": "android",
               "X-Biq-SDK-Version": "1.0.0"}
    return headers, body


def post_open(edge, headers, body):
    h = {**headers, "X-Biq-Request-Id": "req_" + uuid.uuid4().hex}
    status, _, raw = request(edge.https_port, "/api/v1/track/open", method="POST", headers=h, body=body, tls=True,
                             sni=DEMO_HOST, host=DEMO_HOST)
    answer = json.loads(raw)
    answer.pop("requestId", None)
    return status, answer


def api_reads(edge):
    analytics = api(edge, "GET", f"/mobile-apps/{DEMO_APP_ID}/analytics?days=30")
    del analytics["since"], analytics["until"]  # the time of the request
    return {
        "links": api(edge, "GET", "/links?limit=100"),
        "apps": api(edge, "GET", "/mobile-apps"),
        "app": api(edge, "GET", f"/mobile-apps/{DEMO_APP_ID}"),
        "domains": api(edge, "GET", "/domains"),
        "analytics": analytics,
    }


def test_an_edge_moves_from_sqlite_to_postgresql_and_answers_the_same(edge_factory):
    data = tempfile.mkdtemp(prefix="edge-migrate-")
    old = start_demo(edge_factory, env=SQLITE, data_dir=data)
    assert old.database_url is None
    # Visits: Android tokens (some claimed below, some left for after the move), desktop clicks.
    unclaimed = [android_token(old, query=f"?ref=KEEP{i}") for i in range(3)]
    claimed = android_token(old, query="?ref=USED")
    for i in range(4):
        assert visit(old, f"/invite?ref=DESK{i}", ua=UA_DESKTOP)[0] == 302
    # Opens: a handoff claimed with the SDK's key (the eventId), an app link with a key of its own.
    first_event = "open_" + uuid.uuid4().hex
    first = open_request(old, first_event, first_event, handoff=claimed)
    status, first_answer = post_open(old, *first)
    assert status == 200 and first_answer["open"]["matchedBy"] == "exact_install_referrer", first_answer
    second_event = "open_" + uuid.uuid4().hex
    second = open_request(old, second_event, "client-key-" + uuid.uuid4().hex,
                          deep_link=f"https://{DEMO_HOST}/promo?ref=ZED")
    status, second_answer = post_open(old, *second)
    assert status == 200 and second_answer["open"]["matchedBy"] == "exact_app_link", second_answer
    # An A/B test's link (decision 0032): its clicks' arms and the counts per arm move too.
    api(old, "POST", "/links", {"domain": DEMO_HOST, "key": "moved-ab", "url": "https://www.example.com/ab",
                                "variants": [{"url": "https://a.example.com/", "weight": 50},
                                             {"url": "https://b.example.com/", "weight": 50}]})
    for _ in range(3):
        assert visit(old, "/moved-ab", ua=UA_DESKTOP)[0] == 302
    # A webhook endpoint (decision 0028): the links below put their link.created in its outbox.
    hook = api(old, "POST", "/webhooks", {"url": "https://hooks.example.test/in", "events": ["link.created"]})
    # Links through the API (with an Idempotency-Key: a stored management answer).
    for key in ("moved-a", "moved-b"):
        api(old, "POST", "/links", {"domain": DEMO_HOST, "key": key, "url": f"https://www.example.com/{key}",
                                    "mobile": {"appId": DEMO_APP_ID, "route": f"/{key}"}})
    # Client-side click tracking (decision 0027): a browser key and the settings move too.
    browser_key = subprocess.run(
        [BINARY, "keys", "create", "--browser", "--name", "shop"], capture_output=True, text=True, timeout=30,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "BIQLI_EDGE_DATA_DIR": data}, cwd=data).stdout.strip()
    assert browser_key.startswith("biqli_pk_")
    api(old, "PATCH", "/client-click-tracking", {"enabled": True, "hostnames": ["shop.example.test"]})
    barrier(old)  # every click queued before is committed
    before = api_reads(old)
    # An operator signed in to the console.
    operator = Browser(old)
    operator.sign_in(old.secret_key)
    assert operator.get("/console/")[0] == 200

    # While it serves, the copy is refused and nothing reaches the database.
    busy_url, busy_plain = fresh_database()
    out = migrate(data, busy_url)
    assert out.returncode == 1, out
    assert "serve.lock" in out.stderr and "stop it" in out.stderr, out.stderr
    assert backend.rows(busy_plain, "SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'")[0]["n"] == 0

    assert old.stop() == 0
    url, plain = fresh_database()
    out = migrate(data, url)
    assert out.returncode == 0, out
    counts = printed_counts(out.stdout)
    assert list(counts) == TABLES, out.stdout
    now_ms = int(time.time() * 1000)
    for table in TABLES[:-1]:
        where = f" WHERE expires_at > {now_ms}" if table in ("handoffs", "console_sessions") else ""
        assert counts[table] == sqlite_count(data, f"SELECT count(*) FROM {table}{where}"), table
    assert counts["clicks"] >= 12 and counts["open_events"] == 2 and counts["links"] == 6
    assert counts["link_variant_counts"] >= 1
    assert counts["open_event_keys"] == 3  # an eventId each, and the one key of its own
    assert counts["webhook_endpoints"] == 1 and counts["webhook_outbox"] == 2
    # Sealed as on SQLite (decision 0031): the data directory's key file keeps opening it.
    assert backend.rows(plain, "SELECT secret FROM webhook_endpoints")[0]["secret"].startswith("whenc1.")
    assert counts["webhook_secret_keys"] == 1
    assert counts["console_sessions"] >= 2  # the operator's, and the demo banner's sign-in link
    # Sessions are copied as their tokens' hashes: the cookie's token is stored nowhere.
    cookie = operator.jar["biqli_console"]
    assert not backend.rows(plain, "SELECT 1 FROM console_sessions WHERE position(convert_to(?, 'UTF8') IN "
                                   "token_hash) > 0", (cookie,))
    assert pg_counts(plain) == counts
    masked = url.replace(PASSWORD, "***")
    assert f"BIQLI_EDGE_DATABASE_URL={masked}" in out.stdout, out.stdout
    assert "secrets/source-address.key" in out.stdout

    # The same data directory, now on PostgreSQL.
    new = edge_factory(args=("serve", "--demo"), env={**ROOMY, "BIQLI_EDGE_DATABASE_URL": plain}, data_dir=data)
    new.secret_key, new.publishable_key, new.barrier_clicks = old.secret_key, old.publishable_key, set()
    assert new.database_url == plain
    assert api_reads(new) == before
    assert api(new, "GET", "/client-click-tracking")["hostnames"] == ["shop.example.test"]
    update_link(new, "docs", trackConversions=True)
    status, _, raw = request(new.http_port, "/api/v1/track/click", method="POST", body=json.dumps(
        {"domain": DEMO_HOST, "key": "docs"}).encode(), headers={
        "Authorization": "Bearer " + browser_key, "Origin": "https://shop.example.test", "User-Agent": UA_DESKTOP,
        "Content-Type": "application/json"})
    assert status == 200 and json.loads(raw)["clickId"], raw
    moved = api(new, "GET", f"/webhooks/{hook['id']}")
    assert moved["secretHint"] == hook["secretHint"] and moved["events"] == ["link.created"]
    assert len(api(new, "GET", f"/webhooks/{hook['id']}/deliveries")["data"]) == 2
    # The operator is still signed in, on the moved edge's console.
    operator.port = new.console_port
    status, headers, page = operator.get("/console/")
    assert status == 200 and "<h1>Overview</h1>" in page, (status, headers)
    # Replays answer what was stored, by eventId and by the key of its own, and write nothing.
    assert post_open(new, *first) == (200, first_answer)
    assert post_open(new, *second) == (200, second_answer)
    assert pg_counts(plain)["open_events"] == 2
    # A token handed out before the move resolves; the claimed one stays claimed.
    event = "open_" + uuid.uuid4().hex
    status, answer = post_open(new, *open_request(new, event, event, handoff=unclaimed[1]))
    assert status == 200 and answer["open"]["matchedBy"] == "exact_install_referrer", answer
    assert answer["link"]["route"] == "/invite/accepted" and answer["attribution"]["dynamic"] == {"ref": "KEEP1"}
    event = "open_" + uuid.uuid4().hex
    status, answer = post_open(new, *open_request(new, event, event, handoff=claimed))
    assert status == 404 and answer["error"]["code"] == "resource_not_found", answer  # another installation
    # New visits on the moved edge are counted on top of the old ones.
    assert visit(new, "/invite?ref=AFTER", ua=UA_DESKTOP)[0] == 302
    barrier(new)
    after = api(new, "GET", f"/mobile-apps/{DEMO_APP_ID}/analytics?days=30")
    assert after["clicks"]["total"] > before["analytics"]["clicks"]["total"], (after, before["analytics"])

    # A second copy into the now used database is refused and changes nothing.
    assert new.stop() == 0
    held = pg_counts(plain)
    out = migrate(data, url)
    assert out.returncode == 1, out
    assert "not empty" in out.stderr and "nothing was written" in out.stderr, out.stderr
    assert out.stdout.count("\n") <= 1, out.stdout  # no counts, no advice
    assert pg_counts(plain) == held


def test_a_bad_url_is_a_usage_error_that_never_shows_the_password():
    data = tempfile.mkdtemp(prefix="edge-migrate-")
    for url in (f"postgresql://edge:{PASSWORD}@127.0.0.1:5432/biqli?bogus=1", f"host=db password={PASSWORD} nope=1"):
        out = migrate(data, url)
        assert out.returncode == 2 and "--to" in out.stderr and out.stdout == "", out
    out = migrate(data, f"postgresql://edge:{PASSWORD}@127.0.0.1:1/biqli")  # valid, but no SQLite store here
    assert out.returncode == 1 and "no SQLite store" in out.stderr, out


def test_a_copy_that_fails_half_way_leaves_the_database_as_it_was_and_runs_once_mended(edge_factory):
    data = tempfile.mkdtemp(prefix="edge-migrate-")
    old = start_demo(edge_factory, env=SQLITE, data_dir=data)
    for i in range(3):
        assert visit(old, f"/invite?ref=DESK{i}", ua=UA_DESKTOP)[0] == 302
    barrier(old)
    assert old.stop() == 0
    # A row PostgreSQL refuses and SQLite kept: a NUL in a click's text (clicks go late, after every
    # catalog table and the counts, so most of the copy is in when it fails).
    path = os.path.join(data, "edge.sqlite3")
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE clicks SET country = ? WHERE id = (SELECT min(id) FROM clicks)", ("N\x00Z",))
    db.close()

    # A new database: no table is left behind.
    url, plain = fresh_database()
    out = migrate(data, url)
    assert out.returncode == 1, out
    assert backend.rows(plain, "SELECT count(*) AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace "
                               "WHERE s.nspname = 'public'")[0]["n"] == 0
    assert "while copying clicks: " in out.stderr, out.stderr  # where to look
    assert "nothing was written" in out.stderr and "as it was" in out.stderr, out.stderr
    # A database holding something of its own: the same tables, the same rows.
    held_url, held_plain = fresh_database()
    backend.execute(held_plain, "CREATE TABLE operator_notes (note text); INSERT INTO operator_notes VALUES ('kept')")
    out = migrate(data, held_url)
    assert out.returncode == 1, out
    assert backend.rows(held_plain, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'") == [
        {"tablename": "operator_notes"}]
    assert backend.rows(held_plain, "SELECT note FROM operator_notes") == [{"note": "kept"}]

    # Mended, the same command copies into the database it failed on.
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE clicks SET country = 'NZ' WHERE country = ?", ("N\x00Z",))
    db.close()
    out = migrate(data, url)
    assert out.returncode == 0, out
    counts = printed_counts(out.stdout)
    assert counts["clicks"] == sqlite_count(data, "SELECT count(*) FROM clicks") >= 4
    assert pg_counts(plain) == counts
