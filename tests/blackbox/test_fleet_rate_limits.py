"""Issue 17 item 2: the resolver's rate limits hold for the fleet, not per node. Three edges on ONE
PostgreSQL database share their buckets (decision 0016): a burst spread round-robin over the three is
cut at the fleet limit, within the decision's bound of (n - 1) x ceil(L / 2n) beyond what one bucket
would admit (for three nodes, a third of the limit), not at three times the limit.

PostgreSQL pass only: on SQLite an edge is alone with its file."""
import json, math, re, time, uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

import backend
from edge import Edge, request
from fixtures_data import DEMO_APP_ID, DEMO_HOST, start_demo

pytestmark = pytest.mark.skipif(not backend.POSTGRESQL, reason="a fleet shares one PostgreSQL database")

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
    # Every node heartbeats on each sync (100 ms); give them a few to count each other.
    deadline = time.time() + 10
    while time.time() < deadline:
        live = backend.rows(url, "SELECT count(*) AS n FROM rate_nodes WHERE seen_at > "
                                 "(extract(epoch FROM clock_timestamp()) * 1000)::int8 - 1000")[0]["n"]
        if live == NODES:
            break
        time.sleep(0.05)
    assert live == NODES, live
    time.sleep(0.3)
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
