"""Black-box tests of the PostgreSQL store's faults (issue 16): a server that refuses,
restarts, goes away and comes back, and an edge killed under load. Each test runs its own
throwaway cluster (scripts/pg-cluster), since it restarts or stops it; they run on the
PostgreSQL pass of scripts/test.
"""
import json, os, re, signal, subprocess, tempfile, threading, time, urllib.parse

import psycopg
import pytest

import backend
from edge import BINARY, ROOT, Edge, request
from fixtures_data import (DEMO_HOST, UA_ANDROID, UA_DESKTOP, api, handoff_key, resolve_android, referrer_token,
                           start_demo, visit)

pytestmark = pytest.mark.skipif(not backend.POSTGRESQL, reason="the PostgreSQL pass of scripts/test runs these")

CLUSTER = os.path.join(ROOT, "scripts", "pg-cluster")
ROOMY = {"BIQLI_EDGE_RATE_PER_ADDRESS": "100000", "BIQLI_EDGE_RATE_PER_INSTANCE": "100000",
         "BIQLI_EDGE_RATE_PER_TOKEN": "1000", "BIQLI_EDGE_RATE_PER_APP": "1000000"}
PLAY = "https://play.google.com/store/apps/details?id=com.example.demo"


class Cluster:
    """A private PostgreSQL server for one test, with one database for the edge."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="biqli-pg-fault-")
        self.admin = subprocess.run([CLUSTER, "start", self.dir], check=True, capture_output=True,
                                    text=True).stdout.strip()
        with psycopg.connect(self.admin, autocommit=True) as conn:
            conn.execute("CREATE DATABASE edge")
        self.url = self.admin.rsplit("/", 1)[0] + "/edge"

    def control(self, *args):
        subprocess.run([CLUSTER, args[0], self.dir, *args[1:]], check=True, capture_output=True)

    def rows(self, sql, args=()):
        return backend.rows(self.url, sql, args)

    def stop(self):
        subprocess.run([CLUSTER, "stop", self.dir], capture_output=True)


@pytest.fixture
def cluster():
    c = Cluster()
    yield c
    c.stop()


def serve(args, env, timeout=60):
    data = tempfile.mkdtemp(prefix="edge-pg-start-")
    full = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "BIQLI_EDGE_DATA_DIR": data,
            "BIQLI_EDGE_HTTP_ADDR": "127.0.0.1:0", "BIQLI_EDGE_HTTPS_ADDR": "127.0.0.1:0",
            "BIQLI_EDGE_CONSOLE_ADDR": "127.0.0.1:0", **env}
    started = time.monotonic()
    out = subprocess.run([BINARY, *args], env=full, capture_output=True, text=True, timeout=timeout)
    return out, time.monotonic() - started


# ---------------------------------------------------------------- start-up


def test_a_bad_url_a_refused_connection_and_a_wrong_password_stop_start_up_with_one_line(cluster):
    secret = "s3cr3t-Pa55-never-shown"
    with psycopg.connect(cluster.admin, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE edgeuser LOGIN PASSWORD '{secret}'")
    # Passwords are checked for this role only; the rest of the cluster trusts loopback.
    hba = os.path.join(cluster.dir, "data", "pg_hba.conf")
    rules = open(hba).read()
    with open(hba, "w") as f:  # the file keeps its owner (the server's user)
        f.write("host all edgeuser 127.0.0.1/32 scram-sha-256\n" + rules)
    with psycopg.connect(cluster.admin, autocommit=True) as conn:
        conn.execute("SELECT pg_reload_conf()")
    port = cluster.admin.rsplit(":", 1)[1].split("/")[0]

    # A URL libpq cannot read: a usage error (2) naming the setting, the value never shown.
    out, _ = serve(["serve"], {"BIQLI_EDGE_DATABASE_URL": f"postgresql://edgeuser:{secret}@127.0.0.1:{port}/edge?bogus=1"})
    assert out.returncode == 2, out
    lines = [l for l in out.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and "BIQLI_EDGE_DATABASE_URL" in lines[0] and secret not in out.stderr + out.stdout

    # A wrong password: exit 1, one line naming the setting, neither password shown.
    wrong = "Wr0ng-Pa55"
    out, _ = serve(["serve"], {"BIQLI_EDGE_DATABASE_URL": f"postgresql://edgeuser:{wrong}@127.0.0.1:{port}/edge"})
    assert out.returncode == 1, out
    lines = [l for l in out.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and "BIQLI_EDGE_DATABASE_URL" in lines[0] and "password" in lines[0], lines
    assert wrong not in out.stderr + out.stdout and secret not in out.stderr + out.stdout

    # Nobody listening: tried again a few times (bounded), then exit 1 naming the setting.
    cluster.control("halt")
    out, took = serve(["serve"], {"BIQLI_EDGE_DATABASE_URL": f"host=127.0.0.1 port={port} dbname=edge "
                                                             f"user=edgeuser password={secret}"})
    assert out.returncode == 1 and 3 < took < 40, (out, took)
    lines = [l for l in out.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and "BIQLI_EDGE_DATABASE_URL" in lines[0] and f"port={port}" in lines[0], lines
    retries = [json.loads(l) for l in out.stdout.splitlines() if "trying again" in l]
    assert len(retries) >= 2 and all(secret not in json.dumps(r) for r in retries)
    assert secret not in out.stderr + out.stdout


def test_the_schema_is_migrated_once_by_edges_starting_together(cluster):
    edges = []
    threads = [threading.Thread(target=lambda: edges.append(Edge(env={"BIQLI_EDGE_DATABASE_URL": cluster.url})))
               for _ in range(3)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(edges) == 3 and all(e.proc.poll() is None for e in edges)
        # The binary's newest schema, which each node reports in its heartbeat row.
        known = cluster.rows("SELECT DISTINCT schema_version AS v FROM nodes")
        assert len(known) == 1 and cluster.rows("SELECT count(*) AS n FROM nodes")[0]["n"] == 3
        assert cluster.rows("SELECT version FROM biqli_schema") == [{"version": known[0]["v"]}]
        days = cluster.rows("SELECT count(*) AS n FROM pg_inherits JOIN pg_class p ON p.oid = inhparent "
                            "WHERE p.relname = 'clicks'")
        assert days[0]["n"] >= 15  # today and the coming days, made once
    finally:
        for e in edges:
            e.kill()


# ---------------------------------------------------------------- faults under load


class AndroidLoad:
    """Threads sending Android visits until stopped; keeps every 302 Location."""

    def __init__(self, edge, threads=4):
        self.edge = edge
        self.stopped = threading.Event()
        self.locations, self.statuses, self.errors = [], [], []
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run) for _ in range(threads)]
        for t in self.threads:
            t.start()

    def run(self):
        while not self.stopped.is_set():
            try:
                status, headers, _ = visit(self.edge, "/invite?ref=LOAD", ua=UA_ANDROID)
                with self.lock:
                    self.statuses.append(status)
                    if status == 302:
                        self.locations.append(headers["location"])
            except Exception as e:  # a dropped connection would be a failure of the test
                with self.lock:
                    self.errors.append(repr(e))

    def stop(self):
        self.stopped.set()
        for t in self.threads:
            t.join()

    def tokens(self):
        return [t for t in (token_in(loc) for loc in self.locations) if t]


def token_in(location):
    """The handoff token a Play redirect carries, or None (a visit answered without one)."""
    return referrer_token(location) if "referrer=" in location else None


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_a_restart_under_android_load_loses_no_acknowledged_handoff(cluster, edge_factory, mode):
    demo = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_DATABASE_URL": cluster.url})
    pid = demo.proc.pid
    load = AndroidLoad(demo)
    time.sleep(1.5)
    cluster.control("restart", mode)
    time.sleep(3)
    load.stop()
    assert load.errors == [], load.errors[:5]
    # Every answer is the documented one: Play, with a token when the handoff was committed,
    # without one while the server was away (decision 0011).
    assert set(load.statuses) == {302}
    assert all(loc.startswith(PLAY) for loc in load.locations)
    tokens = load.tokens()
    without = len(load.locations) - len(tokens)
    assert len(tokens) > 20, (len(tokens), without)
    stored = {bytes(r["token_hash"]) for r in cluster.rows("SELECT token_hash FROM handoffs")}
    missing = [t for t in tokens if handoff_key(t) not in stored]
    assert missing == [], f"{len(missing)} of {len(tokens)} acknowledged handoffs lost"
    # They resolve, through the edge, after the restart (a sample: each resolution is a request).
    for token in tokens[:: max(1, len(tokens) // 10)][:10]:
        status, body = resolve_android(demo, token)
        assert status == 200 and body["open"]["matchedBy"] == "exact_install_referrer", (
            body, [line for line in demo.lines if "failure" in line or "failed" in line][-6:])
    assert demo.proc.poll() is None and demo.proc.pid == pid, "the edge never restarts"
    deadline = time.time() + 10
    while request(demo.http_port, "/healthz")[2] != b'{"status":"ok"}':
        assert time.time() < deadline, "healthz never said ok again"
        time.sleep(0.2)


def shown(answer):
    """A response as a failed assertion shows it: status, headers and body."""
    status, headers, body = answer
    return f"{status} {headers}\n{body[:2000].decode(errors='replace')}"


def test_while_the_server_is_away_visits_answer_and_clicks_wait(cluster, edge_factory):
    demo = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_DATABASE_URL": cluster.url})
    assert visit(demo, "/invite", ua=UA_DESKTOP)[0] == 302  # the link is in the edge's memory now
    for _ in range(4):
        visit(demo, "/invite?ref=WARM", ua=UA_ANDROID)
    clicks_before = cluster.rows("SELECT count(*) AS n FROM clicks")[0]["n"]
    cluster.control("halt")
    try:
        deadline = time.time() + 10
        while json.loads(request(demo.http_port, "/healthz")[2]).get("status") != "degraded":
            assert time.time() < deadline, "healthz never said degraded"
            visit(demo, "/invite", ua=UA_DESKTOP)
            time.sleep(0.1)
        body = request(demo.http_port, "/metrics")[2].decode()
        assert re.search(r"^biqli_store_reachable 0$", body, re.M)
        # Android: to Play without a token, at once.
        started = time.monotonic()
        answer = visit(demo, "/invite?ref=AWAY", ua=UA_ANDROID)
        took = time.monotonic() - started
        assert (answer[0], answer[1].get("location")) == (302, PLAY) and took < 2, (took, shown(answer))
        # A desktop click is answered at once and waits for the server.
        away_since = int(time.time() * 1000)
        answer = visit(demo, "/invite?ref=WAITING", ua=UA_DESKTOP)
        assert (answer[0], answer[1].get("location")) == (302, "https://www.example.com/invite"), shown(answer)
        # The resolver and the API: their 500 envelopes, with Retry-After.
        status, body = resolve_android(demo, None)
        assert status == 500, body
        api_status, api_headers, api_body = request(
            demo.http_port, "/api/v1/domains", method="POST", host="localhost",
            headers={"Authorization": "Bearer " + demo.secret_key, "Content-Type": "application/json"},
            body=json.dumps({"hostname": "away.example.test"}).encode())
        assert api_status == 500 and api_headers.get("retry-after") == "2", (api_status, api_body)
        assert json.loads(api_body)["error"]["code"] == "internal_server_error"
        time.sleep(1)
    finally:
        cluster.control("resume")
    # Back: the waiting click is written, visits carry tokens again, health is ok.
    deadline = time.time() + 15
    while cluster.rows("SELECT count(*) AS n FROM clicks WHERE link_id IS NOT NULL AND at >= ?",
                       (away_since,))[0]["n"] == 0:
        assert time.time() < deadline, "the click that waited was never written"
        time.sleep(0.2)
    deadline = time.time() + 15
    while True:
        status, headers, _ = visit(demo, "/invite?ref=BACK", ua=UA_ANDROID)
        if token_in(headers["location"]):
            break
        assert time.time() < deadline, "visits never carried tokens again"
        time.sleep(0.2)
    assert cluster.rows("SELECT count(*) AS n FROM clicks")[0]["n"] > clicks_before
    deadline = time.time() + 10
    while request(demo.http_port, "/healthz")[2] != b'{"status":"ok"}':
        assert time.time() < deadline, "healthz never said ok again"
        time.sleep(0.2)


def test_a_link_one_loop_read_answers_on_every_loop_while_the_server_is_away(cluster, edge_factory):
    # Four loops, one visit: the kernel gave its connection to one loop, whose reader read
    # the link. The visits that follow land on any loop; each used to read the link from
    # its own cache only, and three in four got 503 "Something went wrong".
    demo = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_DATABASE_URL": cluster.url, "BIQLI_EDGE_LOOPS": "4"})
    assert visit(demo, "/invite", ua=UA_DESKTOP)[0] == 302
    cluster.control("halt")
    try:
        deadline = time.time() + 10
        while json.loads(request(demo.http_port, "/healthz")[2]).get("status") != "degraded":
            assert time.time() < deadline, "healthz never said degraded"
            time.sleep(0.1)
        for n in range(24):
            android = n % 2 == 0
            answer = visit(demo, "/invite?ref=AWAY", ua=UA_ANDROID if android else UA_DESKTOP)
            expected = PLAY if android else "https://www.example.com/invite"
            assert (answer[0], answer[1].get("location")) == (302, expected), (n, shown(answer))
        # A link this edge never read cannot be known while the server is away: the visitor
        # is asked to come back shortly (never sent to the domain's not-found URL).
        status, headers, _ = visit(demo, "/promo", ua=UA_DESKTOP)
        assert (status, headers.get("retry-after")) == (503, "5")
    finally:
        cluster.control("resume")


def test_a_killed_edge_loses_no_acknowledged_handoff(cluster, edge_factory):
    demo = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_DATABASE_URL": cluster.url})
    load = AndroidLoad(demo)
    time.sleep(3)
    demo.proc.send_signal(signal.SIGKILL)
    demo.proc.wait()
    load.stop()
    tokens = load.tokens()
    assert len(tokens) > 20
    stored = {bytes(r["token_hash"]) for r in cluster.rows("SELECT token_hash FROM handoffs")}
    assert [t for t in tokens if handoff_key(t) not in stored] == []
