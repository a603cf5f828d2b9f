"""Black-box tests of several edges on one PostgreSQL database (issue 17): one fleet,
one truth, whichever node answers; a node killed behind a real HAProxy loses nothing;
a PostgreSQL primary failing over to its standby under load loses nothing.

Run on the PostgreSQL pass of scripts/test (each test makes its own database, or its
own primary and standby)."""
import json, os, shutil, signal, socket, subprocess, tempfile, threading, time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

import backend
from edge import ROOT, request
from fixtures_data import (DEMO_APP_ID, DEMO_HOST, UA_ANDROID, UA_DESKTOP, UA_IPHONE, android_token, api,
                           deep_view_token, handoff_key, link_id, referrer_token, start_demo, update_link, visit)
from test_resolver import (ROOMY, Device, enable_probabilistic, ios_click, jwks, ok, open_events, post, refused,
                           verify_receipt)

pytestmark = pytest.mark.skipif(not backend.POSTGRESQL, reason="the PostgreSQL pass of scripts/test runs these")

CLUSTER = os.path.join(ROOT, "scripts", "pg-cluster")
PROPAGATION = 1.0  # issue 17: a change on one node takes effect on every node within a second


def fleet(edge_factory, nodes=2, env=None, url=None):
    """`nodes` edges on one fresh database; the first installs the demo (its keys serve all)."""
    url = url or backend.database_url(tempfile.mkdtemp(prefix="fleet-"))
    common = {**ROOMY, "BIQLI_EDGE_DATABASE_URL": url, **(env or {})}
    first = start_demo(edge_factory, env={**common, "BIQLI_EDGE_NODE": "node-a"})
    edges = [first]
    for i in range(1, nodes):
        # --demo again: the data is there already; it gives the node the demo's certificate.
        e = edge_factory(args=("serve", "--demo"), env={**common, "BIQLI_EDGE_NODE": f"node-{chr(97 + i)}"})
        e.secret_key, e.publishable_key, e.barrier_clicks = first.secret_key, first.publishable_key, set()
        edges.append(e)
    return edges


def until(condition, limit, what):
    """Seconds until `condition()` holds, polling; fails past `limit` seconds."""
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < limit, f"{what}: not within {limit} s"
        time.sleep(0.02)
    return time.monotonic() - start


# ---------------------------------------------------------------- one fleet, one truth


def test_a_handoff_made_on_one_node_resolves_on_another(edge_factory):
    a, b = fleet(edge_factory)
    token = android_token(a, "invite", "?ref=BOB")
    body = ok(Device(b, "android").open(handoff=token), "exact_install_referrer")
    assert body["attribution"]["dynamic"] == {"ref": "BOB"}
    ios = deep_view_token(b, "promo", "?ref=ALICE")
    ok(Device(a, "ios").open(handoff=ios), "exact_handoff")


def test_an_ios_click_on_one_node_is_a_probabilistic_candidate_on_another(edge_factory):
    a, b = fleet(edge_factory)
    enable_probabilistic(a)
    until(lambda: api(b, "GET", f"/mobile-apps/{DEMO_APP_ID}")["ios"]["probabilisticFallback"], PROPAGATION,
          "the app's change on node b")
    ios_click(a)
    body = ok(Device(b, "ios").open(probabilistic=True, domain=DEMO_HOST, os_version="17.4"), "probabilistic")
    [consumed] = backend.rows(a.database_url, "SELECT id FROM clicks WHERE consumed_by_open = ?",
                              (body["open"]["id"],))
    assert consumed["id"] == body["click"]["id"]
    ok(Device(a, "ios").open(probabilistic=True, domain=DEMO_HOST, os_version="17.4"), "none")  # used once


def test_a_link_edited_disabled_or_deleted_on_one_node_takes_effect_on_every_node_within_a_second(edge_factory):
    a, b, c = fleet(edge_factory, nodes=3)
    for e in (a, b, c):  # every node has the link in its cache
        assert visit(e, "/docs", ua=UA_DESKTOP)[1]["location"] == "https://www.example.com/docs"
    times = {}
    update_link(a, "docs", url="https://www.example.com/docs-v2")
    for name, e in (("b", b), ("c", c)):
        times["edit " + name] = until(
            lambda: visit(e, "/docs", ua=UA_DESKTOP)[1].get("location") == "https://www.example.com/docs-v2",
            PROPAGATION, f"the edit on node {name}")
    update_link(b, "docs", enabled=False)
    for name, e in (("a", a), ("c", c)):
        times["disable " + name] = until(lambda: visit(e, "/docs", ua=UA_DESKTOP)[0] == 410, PROPAGATION,
                                         f"the disabled link on node {name}")
    api(c, "DELETE", f"/links/{link_id(c, 'docs')}")
    for name, e in (("a", a), ("b", b)):
        times["delete " + name] = until(lambda: visit(e, "/docs", ua=UA_DESKTOP)[0] == 404, PROPAGATION,
                                        f"the deleted link on node {name}")
    print("propagation (s):", {k: round(v, 3) for k, v in times.items()})


def test_a_revoked_or_rotated_key_is_refused_or_accepted_on_every_node_within_a_second(edge_factory):
    a, b = fleet(edge_factory)
    app = api(a, "POST", "/mobile-apps", {"name": "Fleet", "keyOverlapSeconds": 0,
                                          "android": {"packageName": "com.example.fleet", "sha256CertFingerprints": [
                                              "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}})
    old = app["publishableKey"]
    # The new app itself reaches node b within the promise (a busy machine saw a 404 at once).
    until(lambda: Device(b, "android", key=old, app_id=app["id"]).open().status == 200, PROPAGATION,
          "the new app known on node b")
    rotated = api(a, "POST", f"/mobile-apps/{app['id']}/keys/rotate")["publishableKey"]
    took = until(lambda: Device(b, "android", key=old, app_id=app["id"]).open().status == 401, PROPAGATION,
                 "the old key refused on node b")
    assert Device(b, "android", key=rotated, app_id=app["id"]).open().status == 200
    print(f"rotated key seen on node b after {took:.3f} s")


def test_association_files_and_the_jwks_are_the_same_on_every_node(edge_factory):
    a, b = fleet(edge_factory)
    for path in ("/.well-known/apple-app-site-association", "/.well-known/assetlinks.json"):
        answers = [visit(e, path) for e in (a, b)]
        assert answers[0][0] == answers[1][0] == 200
        assert answers[0][2] == answers[1][2], path
        assert answers[0][1]["etag"] == answers[1][1]["etag"], path
    assert jwks(a) == jwks(b)
    # A receipt from either node verifies with the other's JWKS.
    receipt = ok(Device(b, "android").open(handoff=android_token(a)), "exact_install_referrer")["attributionReceipt"]
    verify_receipt(receipt, jwks(a))


def test_signing_key_rotation_happens_once_for_the_fleet(edge_factory):
    a, b = fleet(edge_factory, env={"BIQLI_EDGE_SIGNING_KEY_ROTATION_SECONDS": "6"})
    keys = lambda: backend.rows(a.database_url, "SELECT kid, retired_at FROM signing_keys")
    assert len(keys()) == 1, "one first key for the fleet"
    time.sleep(6.5)
    # Both nodes sign now, each seeing the key due: one rotation, not two.
    with ThreadPoolExecutor(max_workers=8) as pool:
        bodies = list(pool.map(lambda e: ok(Device(e, "android").open(handoff=android_token(e))),
                               [a, b, a, b, a, b, a, b]))
    time.sleep(1)
    rows = keys()
    assert len(rows) == 2 and sum(1 for r in rows if r["retired_at"] is None) == 1, rows
    published = jwks(a)
    assert published == jwks(b)
    for body in bodies:
        verify_receipt(body["attributionReceipt"], published)


def test_fifty_identical_opens_split_across_two_nodes_give_one_open_event(edge_factory):
    a, b = fleet(edge_factory)
    phone = Device(a, "android")
    h, body = phone.prepare(handoff=android_token(a, "invite", "?ref=BOB"))
    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = list(pool.map(lambda i: post(a if i % 2 else b, h, body), range(50)))
    bodies = [ok(x, "exact_install_referrer") for x in answers]
    assert len({x["open"]["id"] for x in bodies}) == 1
    assert len(open_events(a, event_id=json.loads(body)["eventId"])) == 1


# ---------------------------------------------------------------- behind HAProxy


class HAProxy:
    """HAProxy from Debian in TCP mode in front of the edges' HTTPS listeners."""

    def __init__(self, edges):
        self.dir = tempfile.mkdtemp(prefix="haproxy-")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.https_port = s.getsockname()[1]
        servers = "\n".join(f"    server {chr(97 + i)} 127.0.0.1:{e.https_port} check inter 100ms fall 1 rise 2"
                            for i, e in enumerate(edges))
        config = f"""
global
    maxconn 4096
defaults
    mode tcp
    timeout connect 1s
    timeout client 30s
    timeout server 30s
    retries 3
    option redispatch
frontend https
    bind 127.0.0.1:{self.https_port}
    default_backend edges
backend edges
    balance roundrobin
{servers}
"""
        with open(f"{self.dir}/haproxy.cfg", "w") as f:
            f.write(config)
        self.proc = subprocess.Popen(["haproxy", "-f", f"{self.dir}/haproxy.cfg", "-db"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.https_port), timeout=1).close()
                break
            except OSError:
                assert time.time() < deadline, "haproxy did not listen"
                time.sleep(0.05)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


class Load:
    """Android visits through one port until stopped; keeps every 302 Location and every error."""

    def __init__(self, port, threads=4):
        self.port, self.stopped = port, threading.Event()
        self.locations, self.errors, self.lock = [], [], threading.Lock()
        self.threads = [threading.Thread(target=self.run) for _ in range(threads)]
        for t in self.threads:
            t.start()

    def run(self):
        while not self.stopped.is_set():
            try:
                status, headers, _ = request(self.port, "/invite?ref=LOAD", headers={"User-Agent": UA_ANDROID},
                                             tls=True, sni=DEMO_HOST, host=DEMO_HOST)
                with self.lock:
                    if status == 302:
                        self.locations.append(headers["location"])
                    else:
                        self.errors.append(status)
            except Exception as e:
                with self.lock:
                    self.errors.append(repr(e))
                time.sleep(0.01)

    def stop(self):
        self.stopped.set()
        for t in self.threads:
            t.join()

    def tokens(self):
        return [referrer_token(loc) for loc in self.locations if "referrer=" in loc]


def stored_handoffs(url):
    return {bytes(r["token_hash"]) for r in backend.rows(url, "SELECT token_hash FROM handoffs")}


def test_a_node_killed_behind_haproxy_loses_no_acknowledged_handoff(edge_factory):
    if not shutil.which("haproxy"):
        pytest.skip("haproxy is not installed (scripts/setup installs it)")
    a, b = fleet(edge_factory)
    proxy = HAProxy([a, b])
    try:
        load = Load(proxy.https_port)
        time.sleep(1.5)
        a.proc.send_signal(signal.SIGKILL)
        a.proc.wait()
        time.sleep(2.5)
        load.stop()
        tokens = load.tokens()
        assert len(tokens) > 20
        missing = [t for t in tokens if handoff_key(t) not in stored_handoffs(b.database_url)]
        assert missing == [], f"{len(missing)} of {len(tokens)} acknowledged handoffs lost"
        # The survivor serves everything, through the balancer too.
        assert b.proc.poll() is None
        status, headers, _ = request(proxy.https_port, "/invite", headers={"User-Agent": UA_ANDROID}, tls=True,
                                     sni=DEMO_HOST, host=DEMO_HOST)
        assert status == 302 and "referrer=" in headers["location"]
        ok(Device(b, "android").open(handoff=tokens[-1]), "exact_install_referrer")
        print(f"{len(tokens)} tokens acknowledged, {len(load.errors)} requests failed while node a died")
    finally:
        proxy.stop()


# ---------------------------------------------------------------- PostgreSQL failover


class ReplicatedCluster:
    """A primary with a synchronous streaming hot standby: a commit is acknowledged once
    the standby has it, so promoting the standby loses no acknowledged write."""

    def __init__(self):
        self.primary, self.standby = tempfile.mkdtemp(prefix="pg-primary-"), tempfile.mkdtemp(prefix="pg-standby-")
        os.rmdir(self.standby)
        self.primary_admin = self.run("start", self.primary)
        with psycopg.connect(self.primary_admin, autocommit=True) as conn:
            conn.execute("CREATE DATABASE edge")
        self.standby_admin = self.run("standby", self.standby, self.primary)
        with psycopg.connect(self.primary_admin, autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET synchronous_standby_names = '*'")
            conn.execute("SELECT pg_reload_conf()")
        until(lambda: self.sync_state() == "sync", 10, "the standby synchronous")
        hosts = [a.split("@", 1)[1].split("/")[0] for a in (self.primary_admin, self.standby_admin)]
        self.url = (f"host=127.0.0.1,127.0.0.1 port={hosts[0].split(':')[1]},{hosts[1].split(':')[1]} "
                    f"dbname=edge user=postgres target_session_attrs=read-write")

    def sync_state(self):
        with psycopg.connect(self.primary_admin, autocommit=True) as conn:
            rows = conn.execute("SELECT sync_state FROM pg_stat_replication").fetchall()
        return rows[0][0] if rows else None

    @staticmethod
    def run(*args):
        return subprocess.run([CLUSTER, *args], check=True, capture_output=True, text=True).stdout.strip()

    def stop(self):
        for d in (self.primary, self.standby):
            subprocess.run([CLUSTER, "stop", d], capture_output=True)


def test_edges_follow_a_promoted_standby_and_lose_nothing(edge_factory):
    cluster = ReplicatedCluster()
    try:
        a, b = fleet(edge_factory, url=cluster.url)
        pids = (a.proc.pid, b.proc.pid)
        loads = [Load(a.https_port, threads=2), Load(b.https_port, threads=2)]
        time.sleep(1.5)
        ReplicatedCluster.run("kill", cluster.primary)  # the primary dies
        killed = time.monotonic()
        ReplicatedCluster.run("promote", cluster.standby)
        promoted = time.monotonic()
        # Visits carry tokens again once the edges reached the new primary.
        back = until(lambda: "referrer=" in visit(a, "/invite", ua=UA_ANDROID)[1].get("location", "")
                     and "referrer=" in visit(b, "/invite", ua=UA_ANDROID)[1].get("location", ""), 20,
                     "the edges on the new primary")
        time.sleep(1)
        for load in loads:
            load.stop()
        tokens = [t for load in loads for t in load.tokens()]
        errors = [e for load in loads for e in load.errors]
        assert errors == [], errors[:5]  # visitors always got an answer (without a token meanwhile)
        new_primary = cluster.standby_admin.rsplit("/", 1)[0] + "/edge"
        stored = stored_handoffs(new_primary)
        missing = [t for t in tokens if handoff_key(t) not in stored]
        assert len(tokens) > 20 and missing == [], f"{len(missing)} of {len(tokens)} acknowledged handoffs lost"
        assert (a.proc.pid, b.proc.pid) == pids and a.proc.poll() is None and b.proc.poll() is None
        ok(Device(b, "android").open(handoff=tokens[0]), "exact_install_referrer")
        print(f"failover: promoted {promoted - killed:.2f} s after the kill, edges writing again "
              f"{back:.2f} s after the promotion; {len(tokens)} tokens acknowledged")
    finally:
        cluster.stop()


def test_a_change_whose_notification_was_lost_arrives_by_polling(edge_factory):
    (a,) = fleet(edge_factory, nodes=1)
    assert visit(a, "/docs", ua=UA_DESKTOP)[1]["location"] == "https://www.example.com/docs"
    with psycopg.connect(a.database_url, autocommit=True) as conn:
        # The edge's listening connection goes away, and the change is made before it is back:
        # nobody hears its notification.
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE datname = current_database() AND query = 'LISTEN biqli_changes'")
        conn.execute("UPDATE links SET url = 'https://www.example.com/docs-lost' WHERE key = 'docs'")
    took = until(lambda: visit(a, "/docs", ua=UA_DESKTOP)[1].get("location") == "https://www.example.com/docs-lost",
                 3, "the change without its notification")
    print(f"a change without its notification seen after {took:.3f} s")


# ---------------------------------------------------------------- races across two edges


def test_fifty_identical_opens_and_fifty_instances_for_one_handoff_race_across_two_edges(edge_factory):
    """Issue 24 item 1: each edge runs the resolver's writes on several connections at once
    (PGStore.Options.concurrentWriters) beside the other edge's: the database's unique keys and
    conditional updates keep the rules. 50 identical opens sent to both edges give one open event
    and one receipt; 50 installations claiming one handoff through both edges give one binding,
    and every other one an unavailable handoff."""
    a, b = fleet(edge_factory)
    phone = Device(a, "android")
    token = android_token(a, "invite", "?ref=BOB")
    h, body = phone.prepare(handoff=token)
    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = list(pool.map(lambda i: post((a, b)[i % 2], h, body), range(50)))
    bodies = [ok(x, "exact_install_referrer") for x in answers]
    assert len({x["open"]["id"] for x in bodies}) == 1
    assert bodies[0]["attributionReceipt"] and len({x["attributionReceipt"] for x in bodies}) == 1
    verify_receipt(bodies[0]["attributionReceipt"], jwks(b))
    assert len(open_events(a, event_id=json.loads(body)["eventId"])) == 1

    contested = android_token(b, "invite", "?ref=ZED")
    devices = [Device((a, b)[i % 2], "android") for i in range(50)]
    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = list(pool.map(lambda d: d.open(handoff=contested), devices))
    won = [d for d, x in zip(devices, answers)
           if x.status == 200 and x.json["open"]["matchedBy"] == "exact_install_referrer"]
    assert len(won) == 1, [x.status for x in answers]
    for d, x in zip(devices, answers):
        if d is not won[0]:
            assert x.status == 404 and x.json["error"]["code"] == "resource_not_found", x
    [row] = backend.rows(a.database_url, "SELECT claimed_instance FROM handoffs WHERE token_hash = ?",
                         (handoff_key(contested),))
    assert row["claimed_instance"] == won[0].instance
