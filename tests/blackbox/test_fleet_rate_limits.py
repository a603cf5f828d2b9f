"""Issue 17 item 2: the resolver's rate limits hold for the fleet, not per node. Three edges on ONE
PostgreSQL database share their buckets (decision 0016): a burst spread round-robin over the three is
cut at the fleet limit, within the decision's bound of (n - 1) x ceil(L / 2n) beyond what one bucket
would admit (for three nodes, a third of the limit), not at three times the limit.

Issue 23 item 7: the live nodes are the `nodes` table's rows (their rate-limit mark), and the sync
says on /metrics what it did (syncs, failures, the age of the last one, the nodes, what a node admitted
while it decided alone).

PostgreSQL pass (`fleet`): on SQLite an edge is alone with its file, and has none of those metrics."""
import json, math, re, signal, time, uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

import backend
from edge import Edge, request
from fixtures_data import DEMO_APP_ID, DEMO_HOST, start_demo

fleet_only = pytest.mark.skipif(not backend.POSTGRESQL, reason="a fleet shares one PostgreSQL database")
LIVE = ("SELECT count(*) AS n FROM nodes WHERE listening <> '' AND rate_synced_at > "
        "(extract(epoch FROM clock_timestamp()) * 1000)::int8 - 5000")

NODES = 3
ROOMY = {"BIQLI_EDGE_RATE_PER_ADDRESS": "100000", "BIQLI_EDGE_RATE_PER_INSTANCE": "100000",
         "BIQLI_EDGE_RATE_PER_TOKEN": "1000", "BIQLI_EDGE_RATE_INVALID_PER_ADDRESS": "1000",
         "BIQLI_EDGE_RATE_PER_APP": "1000000"}


def bound(limit, nodes=NODES):
    """Decision 0016: how far beyond one bucket the fleet may go."""
    return (nodes - 1) * math.ceil(limit / (2 * nodes))


def fleet(edge_factory, env):
    """Three edges on one database: the first installs the demo data (and shows its keys once), the
    others serve the same data with their own data directories and ports."""
    first = start_demo(edge_factory, env=env)
    url = first.database_url
    others = [edge_factory(args=("serve", "--demo"), env={**env, "BIQLI_EDGE_DATABASE_URL": url})
              for _ in range(NODES - 1)]
    for e in others:
        e.publishable_key = first.publishable_key
    nodes = [first, *others]
    # Every node marks its row in `nodes` as it syncs (100 ms). Each must also have counted the
    # others (its own next sync): on a busy machine that can take longer than any fixed pause,
    # and a node that still counts itself alone spends a whole bucket.
    deadline = time.time() + 20
    while time.time() < deadline:
        if backend.rows(url, LIVE)[0]["n"] == NODES and all(
                metrics(e).get("biqli_fleet_rate_limit_nodes") == NODES for e in nodes):
            break
        time.sleep(0.05)
    assert [metrics(e).get("biqli_fleet_rate_limit_nodes") for e in nodes] == [NODES] * NODES
    return nodes


def open_android(edge, instance):
    event = "open_" + uuid.uuid4().hex
    body = {"eventId": event, "appId": DEMO_APP_ID, "appInstanceId": instance, "platform": "android",
            "firstOpen": False, "probabilisticAllowed": False, "handoffToken": None, "deepLink": None,
            "domain": None, "appVersion": "1.0", "osVersion": "14", "sdkVersion": "1.0.0",
            "occurredAt": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()), "attestation": None}
    headers = {"Authorization": "Bearer " + edge.publishable_key, "Content-Type": "application/json",
               "Accept": "application/json", "Idempotency-Key": event, "X-Biq-SDK": "android",
               "X-Biq-SDK-Version": "1.0.0", "X-Biq-Request-Id": "req_" + uuid.uuid4().hex}
    status, h, raw = request(edge.https_port, "/api/v1/track/open", method="POST", headers=headers,
                             body=json.dumps(body).encode(), tls=True, sni=DEMO_HOST, host=DEMO_HOST)
    return status, h, json.loads(raw)


def burst(nodes, count, instance=None, workers=12):
    """`count` opens spread round-robin over the nodes, `workers` at a time; returns the answers and
    how long the burst took."""
    started = time.monotonic()
    with ThreadPoolExecutor(workers) as pool:
        answers = list(pool.map(
            lambda i: open_android(nodes[i % len(nodes)], instance or "install_" + uuid.uuid4().hex),
            range(count)))
    return answers, time.monotonic() - started


def check_refusals(answers):
    for status, h, body in answers:
        assert status in (200, 429), (status, body)
        if status == 429:
            assert body["error"]["code"] == "rate_limited", body
            assert re.fullmatch(r"[1-9][0-9]*", h["retry-after"]), h


def published(url, bucket):
    return backend.rows(url, "SELECT coalesce(sum(count), 0)::int8 AS n FROM rate_counts WHERE bucket = ?",
                        (bucket,))[0]["n"]


def metrics(edge):
    """The fleet sync's series on /metrics: {name or name{labels}: value}."""
    status, _, body = request(edge.http_port, "/metrics")
    assert status == 200
    return {m.group(1): float(m.group(2))
            for m in re.finditer(r"^(biqli_fleet_rate_limit_[a-z_]+(?:\{[^}]*\})?) (\S+)$", body.decode(), re.M)}


def wait_for(what, check, seconds=15):
    deadline = time.time() + seconds
    while True:
        value = check()
        if value:
            return value
        assert time.time() < deadline, what
        time.sleep(0.1)


@fleet_only
def test_a_burst_over_three_nodes_is_cut_at_the_fleet_limit_per_app(edge_factory):
    limit = 60
    nodes = fleet(edge_factory, {**ROOMY, "BIQLI_EDGE_RATE_PER_APP": str(limit)})
    answers, took = burst(nodes, NODES * limit)
    check_refusals(answers)
    accepted = sum(1 for status, _, _ in answers if status == 200)
    # One bucket would admit the limit and one more every 60 s / limit while the burst lasts.
    single = limit + math.ceil(took * limit / 60)
    assert limit <= accepted <= single + bound(limit), (accepted, single, took)
    assert accepted < NODES * limit
    # Every node took part, and every admission was published for the others.
    per_node = [sum(1 for i, a in enumerate(answers) if i % NODES == n and a[0] == 200) for n in range(NODES)]
    assert all(n > 0 for n in per_node), per_node
    time.sleep(0.5)
    assert published(nodes[0].database_url, 1) == accepted


@fleet_only
def test_a_burst_of_one_instance_over_three_nodes_is_cut_at_the_fleet_limit(edge_factory):
    limit = 30
    nodes = fleet(edge_factory, {**ROOMY, "BIQLI_EDGE_RATE_PER_INSTANCE": str(limit)})
    answers, took = burst(nodes, NODES * limit, instance="install_" + uuid.uuid4().hex)
    check_refusals(answers)
    accepted = sum(1 for status, _, _ in answers if status == 200)
    single = limit + math.ceil(took * limit / 60)
    assert limit * 2 // 3 <= accepted <= single + bound(limit), (accepted, single, took)
    # Another instance of the same app is not limited.
    status, _, body = open_android(nodes[1], "install_" + uuid.uuid4().hex)
    assert status == 200, body


@fleet_only
def test_the_live_nodes_are_rows_of_nodes_and_a_stopped_or_killed_node_leaves_the_count(edge_factory):
    nodes = fleet(edge_factory, ROOMY)
    url = nodes[0].database_url
    assert backend.rows(url, "SELECT to_regclass('rate_nodes') IS NULL AS gone")[0]["gone"]
    names = {e.env["BIQLI_EDGE_NODE"] for e in nodes}
    marked = backend.rows(url, "SELECT name FROM nodes WHERE rate_synced_at IS NOT NULL")
    assert {r["name"] for r in marked} == names
    for e in nodes:
        wait_for("every node counts three", lambda: metrics(e).get("biqli_fleet_rate_limit_nodes") == 3)
    # A graceful stop clears the node's mark (its row stays, "stopped"): the others count two at once.
    assert nodes[2].stop() == 0
    row = backend.rows(url, "SELECT rate_synced_at, listening FROM nodes WHERE name = ?",
                       (nodes[2].env["BIQLI_EDGE_NODE"],))[0]
    assert row == {"rate_synced_at": None, "listening": ""}, row
    for e in nodes[:2]:
        wait_for("a stopped node leaves the count", lambda: metrics(e).get("biqli_fleet_rate_limit_nodes") == 2)
    # A killed node leaves its mark behind, which ages out within 5 s.
    nodes[1].proc.send_signal(signal.SIGKILL)
    nodes[1].proc.wait()
    wait_for("a killed node leaves the count", lambda: metrics(nodes[0]).get("biqli_fleet_rate_limit_nodes") == 1)
    assert backend.rows(url, LIVE)[0]["n"] == 1


@fleet_only
def test_the_sync_says_on_metrics_what_it_did_and_counts_what_a_node_admitted_alone(edge_factory):
    from test_postgresql import Cluster  # a private server, halted and resumed here
    cluster = Cluster()
    try:
        demo = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_DATABASE_URL": cluster.url})
        first = wait_for("syncs are counted", lambda: (m := metrics(demo))["biqli_fleet_rate_limit_syncs_total"] > 0
                         and m)
        assert first["biqli_fleet_rate_limit_sync_failures_total"] == 0
        assert first["biqli_fleet_rate_limit_nodes"] == 1
        assert 0 <= first["biqli_fleet_rate_limit_sync_age_seconds"] < 5
        buckets = {"app", "address", "instance", "token", "failures", "click_address", "click_key", "conversion_key"}
        assert {k for k in first if k.startswith("biqli_fleet_rate_limit_unsynced_admissions_total")} == {
            f'biqli_fleet_rate_limit_unsynced_admissions_total{{bucket="{b}"}}' for b in buckets}
        assert all(v == 0 for k, v in first.items() if "unsynced" in k)
        status, _, _ = open_android(demo, "install_" + uuid.uuid4().hex)
        assert status == 200
        assert metrics(demo)['biqli_fleet_rate_limit_unsynced_admissions_total{bucket="address"}'] == 0

        cluster.control("halt")
        try:
            away = wait_for("failures are counted and the last sync ages past a second", lambda: (
                m := metrics(demo))["biqli_fleet_rate_limit_sync_failures_total"] >= 3
                and m["biqli_fleet_rate_limit_sync_age_seconds"] > 1.5 and m)
            syncs = away["biqli_fleet_rate_limit_syncs_total"]
            assert away["biqli_fleet_rate_limit_nodes"] == 1
            # Opens now: whatever they answer (the store is away: 500), the address bucket admits them
            # first thing, alone.
            for _ in range(5):
                open_android(demo, "install_" + uuid.uuid4().hex)
            # The sync keeps failing (the next try may come after the five opens: waited for).
            later = wait_for("another failed sync is counted", lambda: (m := metrics(demo))[
                "biqli_fleet_rate_limit_sync_failures_total"] > away["biqli_fleet_rate_limit_sync_failures_total"] and m)
            assert later['biqli_fleet_rate_limit_unsynced_admissions_total{bucket="address"}'] == 5, later
            assert later["biqli_fleet_rate_limit_syncs_total"] == syncs
        finally:
            cluster.control("resume")
        back = wait_for("syncs succeed again", lambda: (m := metrics(demo))["biqli_fleet_rate_limit_syncs_total"] > syncs
                        and m["biqli_fleet_rate_limit_sync_age_seconds"] < 1 and m)
        assert back['biqli_fleet_rate_limit_unsynced_admissions_total{bucket="address"}'] == 5, "a counter"
        assert back["biqli_fleet_rate_limit_sync_failures_total"] >= later["biqli_fleet_rate_limit_sync_failures_total"]
        # HELP and TYPE for each series.
        body = request(demo.http_port, "/metrics")[2].decode()
        for name, kind in [("syncs_total", "counter"), ("sync_failures_total", "counter"),
                           ("sync_age_seconds", "gauge"), ("nodes", "gauge"),
                           ("unsynced_admissions_total", "counter")]:
            assert f"# TYPE biqli_fleet_rate_limit_{name} {kind}\n" in body, name
            assert f"# HELP biqli_fleet_rate_limit_{name} " in body, name
    finally:
        cluster.stop()


@pytest.mark.skipif(backend.POSTGRESQL, reason="about an edge alone on its SQLite file")
def test_a_lone_edge_on_sqlite_has_no_fleet_sync_metrics(edge):
    status, _, body = request(edge.http_port, "/metrics")
    assert status == 200 and b"biqli_node_info" in body
    assert b"biqli_fleet_rate_limit" not in body
