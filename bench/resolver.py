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

Usage: bench/resolver.py [--seconds N] [--loops N] [--connections N]
"""
import os, re, resource, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import Edge, Nginx, prepare, table, wrk

args = prepare()
here = os.path.dirname(os.path.abspath(__file__))
HOST = "go.example.test"
APP = "biq_mapp_01JDEM0APP00000000000000AA"
TOKEN = re.compile(r"bqmh_[A-Za-z0-9_-]{43}")
unlimited = {f"BIQLI_EDGE_RATE_{k}": "10000000" for k in
             ("PER_APP", "PER_ADDRESS", "PER_INSTANCE", "PER_TOKEN", "INVALID_PER_ADDRESS")}
work = tempfile.mkdtemp(prefix="bench-resolver-")
edge = Edge(args.loops, extra_env={"BIQLI_EDGE_HTTPS_REDIRECT": "off", **unlimited}, args=("serve", "--demo"),
            data_dir=f"{work}/demo-data")
nginx = Nginx(args.loops, "location / { return 302 https://www.example.com/invite; }")


def thread_cpu(pid):
    """CPU seconds (user + system) of every thread of `pid`, by thread name."""
    out = {}
    tick = os.sysconf("SC_CLK_TCK")
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            stat = open(f"/proc/{pid}/task/{tid}/stat").read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        out[name] = out.get(name, 0) + (int(fields[11]) + int(fields[12])) / tick
    return out


def measured(url, script, env):
    """wrk against the edge, with the CPU microseconds per request of the edge's threads and of wrk."""
    before, r0 = thread_cpu(edge.proc.pid), resource.getrusage(resource.RUSAGE_CHILDREN)
    r = wrk(url, args.seconds, connections=args.connections, script=script, env=env)
    after, r1 = thread_cpu(edge.proc.pid), resource.getrusage(resource.RUSAGE_CHILDREN)
    n = max(r["rps"] * args.seconds, 1)
    per = {k: (after[k] - before.get(k, 0)) * 1e6 / n for k in after}
    loops = sum(v for k, v in per.items() if k.startswith("biqli-loop"))
    r["cpu"] = {"writer": per.get("store-writer", 0), "loops": loops, "edge": sum(per.values()),
                "wrk": ((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1e6 / n}
    return r


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
        results[mode] = measured(f"http://127.0.0.1:{edge.http_port}/api/v1/track/open",
                                 f"{here}/track_open.lua", {**env, "MODE": mode})
    # What the run really did: count the opens by match type.
    import sqlite3
    db = sqlite3.connect(f"file:{edge.dir}/edge.sqlite3?mode=ro", uri=True)
    by_match = dict(db.execute("SELECT matched_by, COUNT(*) FROM open_events GROUP BY matched_by").fetchall())
    for mode, label in (("handoff", "handoff match (exact_install_referrer + receipt)"), ("none", "none answer")):
        r = results[mode]
        c = r["cpu"]
        rows.append([label, f"{n['rps']:,.0f}", f"{r['rps']:,.0f}", f"{r['rps'] / n['rps']:.2f}x",
                     f"{r['p99_ms']:.2f}", r["non2xx3xx"],
                     f"{c['edge']:.0f} ({c['writer']:.0f} / {c['loops']:.0f})", f"{c['wrk']:.0f}"])
finally:
    edge.stop()
    nginx.stop()
print(f"\nresolver: {args.loops} loops/workers, {args.connections} connections, {args.seconds}s per run, "
      f"wrk -t2 on the same {os.cpu_count()} cores; {count:,} tokens collected; open events by match: {by_match}")
table(rows, ["case", "nginx 302 req/s", "edge req/s", "edge/nginx", "edge p99 ms", "non-2xx",
             "edge CPU us/req (writer / loops)", "wrk CPU us/req"])
