"""Black-box tests of node identity and rolling upgrades (issue 17, item 4), on the PostgreSQL
pass: every edge names its node (BIQLI_EDGE_NODE) in its log lines and on /metrics, writes a
heartbeat to the `nodes` table every 5 s, refuses a name another live process holds, and
`biqli-edge nodes` lists them. A rolling upgrade is played with one binary: a process started
with BIQLI_EDGE_TEST_EXTRA_MIGRATION (tests only) is the "new binary", one schema step ahead
(`1`: an additive step; `breaking`: that step and a breaking one after it), one started without
it the "old binary".
"""
import json, os, re, signal, subprocess, tempfile, time

import pytest

import backend
from edge import BINARY, Edge, request
from fixtures_data import android_token, resolve_android, start_demo, visit
from management_api import cli

pytestmark = pytest.mark.skipif(not backend.POSTGRESQL, reason="nodes and heartbeats need PostgreSQL")

HOOK = "BIQLI_EDGE_TEST_EXTRA_MIGRATION"
ROOMY = {"BIQLI_EDGE_RATE_PER_ADDRESS": "100000", "BIQLI_EDGE_RATE_PER_INSTANCE": "100000",
         "BIQLI_EDGE_RATE_PER_TOKEN": "1000", "BIQLI_EDGE_RATE_PER_APP": "1000000"}


@pytest.fixture
def url():
    """A fresh database for the test's nodes (each test's edges share it)."""
    return backend.database_url(tempfile.mkdtemp(prefix="nodes-db-"))


def version():
    out = subprocess.run([BINARY, "--version"], capture_output=True, text=True, timeout=10)
    assert out.returncode == 0 and out.stdout.startswith("biqli-edge "), out
    return out.stdout.split()[1]


def nodes(url, *args):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "BIQLI_EDGE_DATABASE_URL": url,
           "BIQLI_EDGE_DATA_DIR": tempfile.mkdtemp(prefix="nodes-cli-")}
    return subprocess.run([BINARY, "nodes", *args], env=env, capture_output=True, text=True, timeout=30)


def listed(url, *args):
    out = nodes(url, "--json", *args)
    assert out.returncode == 0, out
    return {n["name"]: n for n in json.loads(out.stdout)}


def schema(url):
    return backend.rows(url, "SELECT version, compatible_from FROM biqli_schema")[0]


def serve_once(url, node, **env):
    """`serve` that is expected to stop at start-up: (exit code, stderr lines, stdout)."""
    data = tempfile.mkdtemp(prefix="nodes-refused-")
    full = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "BIQLI_EDGE_DATA_DIR": data,
            "BIQLI_EDGE_HTTP_ADDR": "127.0.0.1:0", "BIQLI_EDGE_HTTPS_ADDR": "127.0.0.1:0",
            "BIQLI_EDGE_CONSOLE_ADDR": "127.0.0.1:0", "BIQLI_EDGE_DATABASE_URL": url, "BIQLI_EDGE_NODE": node, **env}
    out = subprocess.run([BINARY, "serve"], env=full, capture_output=True, text=True, timeout=60)
    return out.returncode, [line for line in out.stderr.splitlines() if line.strip()], out.stdout


def demo_beside(edge_factory, first, url, node, data_dir=None, **env):
    """Another demo edge on `first`'s database: the demo data exists, so it prints no keys;
    it takes `first`'s."""
    e = edge_factory(args=("serve", "--demo"), data_dir=data_dir,
                     env={**ROOMY, "BIQLI_EDGE_DATABASE_URL": url, "BIQLI_EDGE_NODE": node, **env})
    e.secret_key, e.publishable_key, e.barrier_clicks = first.secret_key, first.publishable_key, set()
    return e


def resolves(edge, token):
    status, body = resolve_android(edge, token)
    assert status == 200 and body["open"]["matchedBy"] == "exact_install_referrer", (status, body)


# ---------------------------------------------------------------- a rolling upgrade


def test_old_and_new_binaries_serve_side_by_side_over_one_schema(edge_factory, url):
    old = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_DATABASE_URL": url, "BIQLI_EDGE_NODE": "a"})
    n = schema(url)["version"]
    assert n >= 2

    # The new binary migrates one additive step while the old one runs.
    new = demo_beside(edge_factory, old, url, "b", **{HOOK: "1"})
    assert schema(url)["version"] == n + 1 and schema(url)["compatible_from"] <= n
    assert backend.rows(url, "SELECT count(*) AS n FROM rolling_upgrade_probe") == [{"n": 0}]

    # Both serve visits and resolutions, and a handoff made on one resolves on the other.
    for edge in (old, new):
        assert visit(edge, "/invite", ua="Mozilla/5.0 (X11; Linux x86_64)")[0] == 302
    resolves(new, android_token(old))
    resolves(old, android_token(new))
    resolves(old, android_token(old))

    # The old binary restarts on the newer schema: it knows it may run beside it.
    old.stop()
    old = demo_beside(edge_factory, new, url, "a", data_dir=old.dir)
    assert schema(url)["version"] == n + 1
    resolves(old, android_token(new))
    resolves(new, android_token(old))

    # `nodes` lists both, with their versions, schemas and fresh heartbeats.
    seen = listed(url)
    assert set(seen) == {"a", "b"}, seen
    assert seen["a"]["version"] == seen["b"]["version"] == version()
    assert (seen["a"]["schemaVersion"], seen["b"]["schemaVersion"]) == (n, n + 1)
    for node, edge in (("a", old), ("b", new)):
        assert seen[node]["state"] == "live" and seen[node]["heartbeatSecondsAgo"] <= 6, seen[node]
        assert f"https=127.0.0.1:{edge.https_port}" in seen[node]["listening"], seen[node]
    table = nodes(url)
    assert table.returncode == 0
    assert f"Schema {n + 1}; binaries that know schema" in table.stdout, table.stdout
    rows = {line.split()[0]: line.split() for line in table.stdout.splitlines()[2:]}
    assert rows["a"][1:4] == [version(), str(n), "live"] and rows["b"][1:4] == [version(), str(n + 1), "live"]


def test_a_breaking_step_above_a_binary_makes_it_refuse_to_start_with_one_line(edge_factory, url):
    old = edge_factory(env={"BIQLI_EDGE_DATABASE_URL": url, "BIQLI_EDGE_NODE": "a"})
    n = schema(url)["version"]
    old.stop()  # before a breaking step, every old binary is stopped (README, "Upgrading a fleet")
    newest = edge_factory(env={"BIQLI_EDGE_DATABASE_URL": url, "BIQLI_EDGE_NODE": "c", HOOK: "breaking"})
    assert schema(url) == {"version": n + 2, "compatible_from": n + 2}
    for node, env in (("a", {}), ("b", {HOOK: "1"})):
        code, lines, stdout = serve_once(url, node, **env)
        assert code == 1 and len(lines) == 1, (code, lines, stdout)
        assert "BIQLI_EDGE_DATABASE_URL" in lines[0] and f"schema is version {n + 2}" in lines[0], lines
        assert "upgrade this binary" in lines[0]
    assert request(newest.http_port, "/healthz")[0] == 200
    assert set(listed(url)) == {"a", "c"}  # the refused ones never claimed a name


# ---------------------------------------------------------------- names


def test_a_second_live_process_with_the_same_name_is_refused_and_a_killed_ones_name_is_free(edge_factory, url):
    first = edge_factory(env={"BIQLI_EDGE_DATABASE_URL": url, "BIQLI_EDGE_NODE": "dup"})
    code, lines, _ = serve_once(url, "dup")
    assert code == 1 and len(lines) == 1, lines
    assert 'node "dup"' in lines[0] and "BIQLI_EDGE_NODE" in lines[0] and str(first.https_port) in lines[0]
    assert request(first.http_port, "/healthz")[0] == 200  # the first is untouched
    # The listeners, the console's last.
    assert f"https=127.0.0.1:{first.https_port} console=127.0.0.1:{first.console_port}" in listed(url)["dup"]["listening"]

    # Killed (no last heartbeat): the database releases the name with its connection, so a
    # supervisor's restart is not refused for the 15 s the heartbeat still looks live.
    first.proc.send_signal(signal.SIGKILL)
    first.proc.wait()
    again = None
    for _ in range(20):
        try:
            again = edge_factory(env={"BIQLI_EDGE_DATABASE_URL": url, "BIQLI_EDGE_NODE": "dup"})
            break
        except RuntimeError:
            time.sleep(0.1)
    assert again is not None, "the killed process's name stayed taken"
    deadline = time.time() + 10
    while f"https=127.0.0.1:{again.https_port}" not in listed(url)["dup"]["listening"]:
        assert time.time() < deadline
        time.sleep(0.1)

    # Stopped gracefully: the last heartbeat says so, and the name is free at once.
    assert again.stop() == 0
    entry = listed(url)["dup"]
    assert entry["state"] == "stopped" and entry["listening"] == "", entry
    edge_factory(env={"BIQLI_EDGE_DATABASE_URL": url, "BIQLI_EDGE_NODE": "dup"})


def test_logs_and_metrics_name_the_node_and_heartbeats_come_every_5_s(edge_factory, url):
    e = edge_factory(env={"BIQLI_EDGE_DATABASE_URL": url, "BIQLI_EDGE_NODE": "edge-7.eu_west"})
    request(e.http_port, "/healthz")
    status, _, body = request(e.http_port, "/metrics")
    assert status == 200
    assert f'biqli_node_info{{node="edge-7.eu_west",version="{version()}",backend="postgresql"}} 1' in body.decode()
    first = backend.rows(url, "SELECT heartbeat_at FROM nodes WHERE name = 'edge-7.eu_west'")[0]["heartbeat_at"]
    time.sleep(5.6)
    later = backend.rows(url, "SELECT heartbeat_at FROM nodes WHERE name = 'edge-7.eu_west'")[0]["heartbeat_at"]
    assert 4_000 <= later - first <= 7_000, (first, later)
    e.stop()
    entries = e.log_entries()
    assert {x["msg"] for x in entries} >= {"listening", "request", "shutting down", "stopped"}
    assert all(x.get("node") == "edge-7.eu_west" for x in entries), [x for x in entries if "node" not in x]
    assert len(entries) == len(e.lines), "every stdout line is a JSON object"
    assert not any(url in line for line in e.lines + e.stderr_lines)


def test_nodes_lists_the_last_minute_or_everything_and_answers_usage_errors(edge_factory, url):
    out = nodes(url)
    assert out.returncode == 0 and "No node sent a heartbeat in the last minute" in out.stdout, out
    assert nodes(url, "--json").stdout.strip() == "[]"
    e = edge_factory(env={"BIQLI_EDGE_DATABASE_URL": url, "BIQLI_EDGE_NODE": "live-one"})
    backend.execute(url, "INSERT INTO nodes (name, version, schema_version, started_at, heartbeat_at, listening) "
                         "VALUES ('gone', '0.0.1', 1, 1000, 2000, 'http=10.0.0.9:80')")
    assert set(listed(url)) == {"live-one"}
    everything = listed(url, "--all")
    assert set(everything) == {"gone", "live-one"}
    assert everything["gone"]["state"] == "silent" and everything["gone"]["startedAt"] == "1970-01-01T00:00:01.000Z"
    text = nodes(url, "--all").stdout
    assert re.search(r"^NAME +VERSION +SCHEMA +STATE +STARTED +LAST HEARTBEAT +LISTENING$", text, re.M), text
    assert re.search(r"^gone +0\.0\.1 +1 +silent ", text, re.M) and re.search(r"^live-one ", text, re.M), text
    for args in (["extra"], ["--bogus"], ["--config"]):
        bad = nodes(url, *args)
        assert bad.returncode == 2 and bad.stderr.strip() and bad.stdout == "", (args, bad)
    # A database that cannot be reached: exit 1, one line, never the password.
    down = nodes("postgresql://edge:n0t-shown@127.0.0.1:1/x?connect_timeout=2")
    assert down.returncode == 1 and "n0t-shown" not in down.stderr + down.stdout
    assert len(down.stderr.strip().splitlines()) == 1 and "BIQLI_EDGE_DATABASE_URL" in down.stderr
    assert request(e.http_port, "/healthz")[0] == 200


def test_a_scoped_key_waits_for_the_nodes_that_would_read_it_as_every_power(edge_factory, url):
    """A binary before schema 9 reads `secret_keys.scopes` as absent, so a scoped key would do
    everything on it: `keys create --scope` refuses while such a node is live, names it, and
    stores nothing; a key without scopes is made; once the node stopped, the scoped key is."""
    e = edge_factory(env={"BIQLI_EDGE_DATABASE_URL": url, "BIQLI_EDGE_NODE": "new-one"})
    data = tempfile.mkdtemp(prefix="nodes-keys-")
    env = {"BIQLI_EDGE_DATABASE_URL": url}
    scoped = ["keys", "create", "--name", "shop", "--scope", "conversions.create"]
    now = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"
    backend.execute(url, "INSERT INTO nodes (name, version, schema_version, started_at, heartbeat_at, listening) "
                         f"VALUES ('old-one', '0.1.0', 8, {now}, {now}, 'http=10.0.0.8:80')")
    before = backend.rows(url, "SELECT count(*) AS n FROM secret_keys")[0]["n"]
    out = cli(scoped, data, env=env)
    assert out.returncode == 1 and out.stdout == "", out
    assert "old-one (0.1.0, schema 8)" in out.stderr and "new-one" not in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert backend.rows(url, "SELECT count(*) AS n FROM secret_keys")[0]["n"] == before, "nothing stored"
    plain = cli(["keys", "create", "--name", "full"], data, env=env)
    assert plain.returncode == 0 and plain.stdout.startswith("biqli_sk_"), plain
    # The old node stops gracefully (its last heartbeat clears its listeners).
    backend.execute(url, "UPDATE nodes SET listening = '' WHERE name = 'old-one'")
    made = cli(scoped, data, env=env)
    assert made.returncode == 0 and made.stdout.startswith("biqli_sk_"), made
    assert backend.rows(url, "SELECT scopes FROM secret_keys WHERE name = 'shop'") == [{"scopes": "conversions.create"}]
    assert request(e.http_port, "/healthz")[0] == 200
