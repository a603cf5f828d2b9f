#!/usr/bin/env python3
"""Webhooks benchmark (issue 26, decision 0028): what the outbox costs an app open, and how
fast the delivery threads empty it.

1. Matched resolutions per second (`POST /api/v1/track/open`, a fresh handoff match with a
   receipt each time, as bench/resolver.py) without any webhook endpoint, then with one
   endpoint subscribed to `open.created`: every open then writes an outbox row in its
   transaction, and the delivery threads send it meanwhile, to an nginx answering 204 on
   loopback. Target: at most 10 % fewer matched resolutions per second with the endpoint.
2. Deliveries per second: the rate at which the delivered count on /metrics grows while
   the outbox still holds deliveries after the second run (the backlog it left).

With `--backend postgresql --pg-statements` it also prints the statements of the backlog's
delivery (no resolutions run then): calls and server time per delivery.

Usage: bench/webhooks.py [--seconds N] [--loops N] [--connections N] [--backend sqlite|postgresql]
                         [--pg-statements]
"""
import json, os, re, sys, time, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import Edge, Nginx, PostgresCluster, prepare, scratch_dir, table, with_cpu, wrk  # noqa: E402

args = prepare()
here = os.path.dirname(os.path.abspath(__file__))
HOST = "go.example.test"
APP = "biq_mapp_01JDEM0APP00000000000000AA"
TOKEN = re.compile(r"bqmh_[A-Za-z0-9_-]{43}")
unlimited = {f"BIQLI_EDGE_RATE_{k}": "10000000" for k in
             ("PER_APP", "PER_ADDRESS", "PER_INSTANCE", "PER_TOKEN", "INVALID_PER_ADDRESS")}
work = scratch_dir("bench-webhooks-")
postgres = PostgresCluster(statements=args.pg_statements) if args.backend == "postgresql" else None
THREADS = os.environ.get("BENCH_WEBHOOK_THREADS", "4")
edge = Edge(args.loops, extra_env={"BIQLI_EDGE_HTTPS_REDIRECT": "off", **unlimited, "BIQLI_EDGE_WEBHOOK_THREADS": THREADS,
                                   "BIQLI_EDGE_WEBHOOK_ALLOW_PRIVATE": "on", "BIQLI_EDGE_WEBHOOK_ALLOW_HTTP": "on",
                                   **({"BIQLI_EDGE_DATABASE_URL": postgres.url} if postgres else {})},
            args=("serve", "--demo"), data_dir=f"{work}/demo-data")
receiver = Nginx(1, "location / { return 204; }")


def keys():
    for _ in range(100):
        text = open(f"{edge.dir}/edge.log").read()
        pk = re.search(r"publishable key \(shown once\):\s+(biqli_mobile_pk_[A-Za-z0-9_-]{64})", text)
        sk = re.search(r"secret key \(shown once\):\s+(biqli_sk_[A-Za-z0-9_-]+)", text)
        if pk and sk:
            return pk.group(1), sk.group(1)
        time.sleep(0.1)
    raise AssertionError("the demo did not print its keys")


def api(sk, method, path, body=None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{edge.http_port}/api/v1{path}", method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": "Bearer " + sk, "Content-Type": "application/json", "Host": HOST})
    with urllib.request.urlopen(request) as r:
        return json.loads(r.read())


def delivered():
    """biqli_webhook_attempts_total{result="delivered"} and the outbox's pending count, from /metrics."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{edge.http_port}/metrics").read().decode()
    d = re.search(r'biqli_webhook_attempts_total\{result="delivered"\} (\d+)', text)
    p = re.search(r"biqli_webhook_outbox_pending (\d+)", text)
    return int(d.group(1)), int(p.group(1))


def tokens(name):
    path = f"{work}/{name}.txt"
    wrk(f"http://127.0.0.1:{edge.http_port}/invite", max(4, 2 * args.seconds), threads=1,
        connections=args.connections, script=f"{here}/collect_tokens.lua",
        env={"TOKENS_FILE": path, "BENCH_HOST": HOST})
    good = [line for line in open(path) if TOKEN.fullmatch(line.strip())]
    open(path, "w").writelines(good)
    return path, len(good)


rows = []
try:
    pk, sk = keys()
    runs = {}
    for label in ("without an endpoint", "one disabled endpoint", "one endpoint on open.created"):
        if label == "one disabled endpoint":
            # The outbox's statement runs for every open, and matches no endpoint.
            hook = api(sk, "POST", "/webhooks", {"url": f"http://127.0.0.1:{receiver.http_port}/hook",
                                                  "events": ["open.created"], "enabled": False})
        if label.startswith("one endpoint"):
            api(sk, "PATCH", f"/webhooks/{hook['id']}", {"enabled": True})
        path, count = tokens(label[:8].replace(" ", "-"))
        env = {"PK": pk, "APP_ID": APP, "BENCH_HOST": HOST, "TOKENS_FILE": path, "THREADS": "2", "MODE": "handoff"}
        profile = None
        if os.environ.get("BENCH_PERF") and label.startswith("one endpoint"):
            import subprocess
            profile = subprocess.Popen(["perf", "record", "-q", "--call-graph", "dwarf,16384", "-o", os.environ["BENCH_PERF"], "-p", str(edge.proc.pid),
                                        "--", "sleep", str(args.seconds)])
        runs[label] = with_cpu(
            lambda: wrk(f"http://127.0.0.1:{edge.http_port}/api/v1/track/open", args.seconds,
                        connections=args.connections, script=f"{here}/track_open.lua", env=env),
            lambda r: r["rps"] * args.seconds, edge_pid=edge.proc.pid)
        runs[label]["tokens"] = count
        if profile:
            profile.wait()
            print("perf data: " + os.environ["BENCH_PERF"])
    # The backlog the second run left: how fast the delivery threads send it.
    if args.pg_statements:
        postgres.reset_statements()
    samples = []
    start = time.time()
    while time.time() - start < 60:
        d, pending = delivered()
        samples.append((time.time(), d, pending))
        if pending == 0 and len(samples) > 2:
            break
        time.sleep(0.5)
    busy = [s for s in samples if s[2] > 0] or samples
    if len(busy) >= 2 and busy[-1][0] > busy[0][0]:
        rate = (busy[-1][1] - busy[0][1]) / (busy[-1][0] - busy[0][0])
    else:
        rate = float("nan")
    statements = None
    if args.pg_statements and len(busy) >= 2:
        statements = postgres.top_statements(max(samples[-1][1] - samples[0][1], 1))
    base = runs["without an endpoint"]["rps"]
    for label, r in runs.items():
        c = r["cpu"]
        rows.append([label, f"{r['rps']:,.0f}", f"{r['rps'] / base:.3f}", f"{r['p99_ms']:.2f}", r["non2xx3xx"],
                     f"{c['edge']:.0f} ({c['writer']:.0f} / {c['loops']:.0f})"])
finally:
    edge.stop()
    receiver.stop()
    if postgres:
        postgres.stop()
print(f"\nwebhooks on {args.backend}: {args.loops} loops, {THREADS} delivery threads (BENCH_WEBHOOK_THREADS), "
      f"{args.connections} connections, {args.seconds}s per run, "
      f"{os.cpu_count()} cores shared with wrk and nginx")
table(rows, ["matched resolutions", "req/s", "vs without", "p99 ms", "non-2xx", "edge CPU us/req (writer / loops)"])
print(f"\ndeliveries to nginx (204) while the backlog lasted: {rate:,.0f}/s "
      f"(delivered {samples[-1][1]:,}, {samples[-1][2]:,} pending at the end)")
if statements:
    print("\nPostgreSQL statements while the backlog was sent (per delivery)")
    table(statements, ["calls", "server us", "statement"])
ratio = runs["one endpoint on open.created"]["rps"] / base
print(f"target: at most 10 % fewer matched resolutions with the endpoint: {'met' if ratio >= 0.9 else 'NOT met'} "
      f"({(1 - ratio) * 100:.1f} % fewer)")
