#!/usr/bin/env python3
"""Resolver benchmark (issue 8): POST /api/v1/track/open resolutions per second on the
edge, for a fresh handoff match (exact_install_referrer, durable, with a signed receipt)
and for a `none` answer, against nginx `return 302` in the same run. Target: at least
25,000 matched resolutions per second.

Handoff tokens are made first by Android visits (wrk, collected from the Play
redirects); each token is then claimed exactly once. Rate limits are raised for the run.

Besides requests per second, it prints the CPU time each edge thread and wrk spent per
request (from /proc and getrusage): on a shared machine those move much less from run
to run than the rates do.

With `--callgrind N` it measures instructions instead of time, the yardstick that
survives a busy machine: the edge runs under `valgrind --tool=callgrind`, one keep-alive
connection (so one event loop) sends N matched then N `none` requests one at a time, and
it prints the instructions per request of each thread (event loop, store writer) for each
case. Needs valgrind; takes about a minute for N=1000.

Usage: bench/resolver.py [--seconds N] [--loops N] [--connections N] [--callgrind N]
"""
import os, re, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import track_open as lib_track_open  # noqa: E402
from lib import (CallgrindEdge, Edge, Nginx, PostgresCluster, callgrind_option, prepare, scratch_dir, table,
                 with_cpu, wrk)

callgrind = callgrind_option()
args = prepare()
here = os.path.dirname(os.path.abspath(__file__))
HOST = "go.example.test"
APP = "biq_mapp_01JDEM0APP00000000000000AA"
TOKEN = re.compile(r"bqmh_[A-Za-z0-9_-]{43}")
unlimited = {f"BIQLI_EDGE_RATE_{k}": "10000000" for k in
             ("PER_APP", "PER_ADDRESS", "PER_INSTANCE", "PER_TOKEN", "INVALID_PER_ADDRESS")}
work = scratch_dir("bench-resolver-")
PK = re.compile(r"publishable key \(shown once\):\s+(biqli_mobile_pk_[A-Za-z0-9_-]{64})")
ANDROID_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 "
              "Mobile Safari/537.36")


def track_open(pk, n, token):
    return lib_track_open(pk, f"{os.getpid():08x}{int(time.time()):08x}{n:016x}", token)


def instructions(n):
    """`--callgrind N`: instructions per request by thread, from callgrind dumps taken
    around the N matched and the N `none` requests (start-up and token collection apart)."""
    edge = CallgrindEdge(work, args.loops, extra_env=unlimited)
    try:
        pk = None
        for _ in range(1200):
            m = PK.search(open(edge.log_path).read())
            if m:
                pk = m.group(1)
                break
            time.sleep(0.1)
        assert pk, "the demo did not print its publishable key"
        conn = edge.connect()
        tokens = []
        for _ in range(n + 60):
            r = conn.roundtrip(f"GET /invite HTTP/1.1\r\nHost: {HOST}\r\nUser-Agent: {ANDROID_UA}\r\n\r\n".encode())
            tokens.append(re.search(rb"biqli_token%3D(bqmh_[A-Za-z0-9_-]{43})", r).group(1).decode())
        sent = 0

        def resolve(token):
            nonlocal sent
            sent += 1
            r = conn.roundtrip(track_open(pk, sent, token))
            assert r.startswith(b"HTTP/1.1 200") and (token is None or b'"attributionReceipt":"ey' in r), r[:400]

        for _ in range(50):  # warm-up of both paths
            resolve(tokens.pop())
            resolve(None)
        edge.dump()  # part 1: start-up and warm-up
        for _ in range(n):
            resolve(tokens.pop())
        edge.dump()  # part 2: matched
        for _ in range(n):
            resolve(None)
        edge.dump()  # part 3: none
    finally:
        edge.stop()
    rows = []
    for part, label in ((2, "handoff match (exact_install_referrer + receipt)"), (3, "none answer")):
        per = edge.per_request(part, n)
        rows.append([label, f"{per['loops']:,.0f}", f"{per['writer']:,.0f}", f"{per['other']:,.0f}"])
    print(f"\nresolver under callgrind: {n:,} requests per case, one connection, {args.loops} loops")
    table(rows, ["case", "loop instructions/req", "writer instructions/req", "other threads"])
    print("(requests one at a time: every write is its own commit, so the writer's figure is not the batched one)")


if callgrind:
    instructions(callgrind)
    sys.exit(0)

postgres = PostgresCluster(statements=args.pg_statements) if args.backend == "postgresql" else None
statements = {}
edge = Edge(args.loops, extra_env={"BIQLI_EDGE_HTTPS_REDIRECT": "off", **unlimited,
                                   **({"BIQLI_EDGE_DATABASE_URL": postgres.url} if postgres else {})},
            args=("serve", "--demo"), data_dir=f"{work}/demo-data")
nginx = Nginx(args.loops, "location / { return 302 https://www.example.com/invite; }")


def measured(url, script, env):
    """wrk against the edge, with the CPU microseconds per request of the edge's threads and of wrk."""
    return with_cpu(lambda: wrk(url, args.seconds, connections=args.connections, script=script, env=env),
                    lambda r: r["rps"] * args.seconds, edge_pid=edge.proc.pid)


rows = []
try:
    pk = None
    for _ in range(100):
        text = open(f"{edge.dir}/edge.log").read()
        m = re.search(r"publishable key \(shown once\):\s+(biqli_mobile_pk_[A-Za-z0-9_-]{64})", text)
        if m:
            pk = m.group(1)
            break
        time.sleep(0.1)
    assert pk, "the demo did not print its publishable key"
    tokens = f"{work}/tokens.txt"
    # One wrk thread: two threads appending to one file can splice a line of each into a
    # token-shaped line that no visit made. Enough tokens for the matched run at ~40k/s.
    wrk(f"http://127.0.0.1:{edge.http_port}/invite", max(4, 2 * args.seconds), threads=1,
        connections=args.connections, script=f"{here}/collect_tokens.lua",
        env={"TOKENS_FILE": tokens, "BENCH_HOST": HOST})
    good = [line for line in open(tokens) if TOKEN.fullmatch(line.strip())]
    open(tokens, "w").writelines(good)
    count = len(good)
    env = {"PK": pk, "APP_ID": APP, "BENCH_HOST": HOST, "TOKENS_FILE": tokens, "THREADS": "2"}
    n = wrk(f"http://127.0.0.1:{nginx.http_port}/", args.seconds, connections=args.connections)
    results = {}
    for mode in ("handoff", "none"):
        if args.pg_statements:
            postgres.reset_statements()
        server_before = postgres.cpu_seconds() if postgres else 0
        results[mode] = measured(f"http://127.0.0.1:{edge.http_port}/api/v1/track/open",
                                 f"{here}/track_open.lua", {**env, "MODE": mode})
        if postgres:
            done = results[mode]["rps"] * args.seconds
            results[mode]["server_us"] = (postgres.cpu_seconds() - server_before) * 1e6 / done
        if args.pg_statements:
            statements[mode] = postgres.top_statements(results[mode]["rps"] * args.seconds)
    # What the run really did: count the opens by match type.
    query = "SELECT matched_by, COUNT(*) FROM open_events GROUP BY matched_by"
    if postgres:
        import subprocess
        out = subprocess.run(["psql", postgres.url, "-tAF", "|", "-c", query], capture_output=True, text=True).stdout
        by_match = {k: int(v) for k, v in (line.split("|") for line in out.split())}
    else:
        import sqlite3
        db = sqlite3.connect(f"file:{edge.dir}/edge.sqlite3?mode=ro", uri=True)
        by_match = dict(db.execute(query).fetchall())
    for mode, label in (("handoff", "handoff match (exact_install_referrer + receipt)"), ("none", "none answer")):
        r = results[mode]
        c = r["cpu"]
        rows.append([label, f"{n['rps']:,.0f}", f"{r['rps']:,.0f}", f"{r['rps'] / n['rps']:.2f}x",
                     f"{r['p99_ms']:.2f}", r["non2xx3xx"],
                     f"{c['edge']:.0f} ({c['writer']:.0f} / {c['loops']:.0f})", f"{c['wrk']:.0f}",
                     f"{r['server_us']:.0f}" if "server_us" in r else "-"])
finally:
    edge.stop()
    nginx.stop()
print(f"\nresolver on {args.backend}: {args.loops} loops/workers, {args.connections} connections, {args.seconds}s per run, "
      f"wrk -t2 on the same {os.cpu_count()} cores; {count:,} tokens collected; open events by match: {by_match}")
table(rows, ["case", "nginx 302 req/s", "edge req/s", "edge/nginx", "edge p99 ms", "non-2xx",
             "edge CPU us/req (writer / loops)", "wrk CPU us/req", "PostgreSQL CPU us/req"])
for mode, rows in statements.items():
    print(f"\nPostgreSQL statements, {mode} run (per request)")
    table(rows, ["calls", "server us", "statement"])
