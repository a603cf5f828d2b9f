#!/usr/bin/env python3
"""Soak: mixed traffic for a bounded time, watching what must not grow.

Cycles through the edge's paths with wrk, a round each (`--round-seconds`, default 10):
desktop, Android (its Play redirects' tokens collected), resolver matches with those
tokens, resolver `none`, iOS Deep View, desktop over HTTPS. After every cycle it reads
the process's resident memory, open descriptors and threads, the database and WAL sizes,
the store's writer counters and the probabilistic candidates held, and at the end
prints them per cycle and the resident memory over the second half of the cycles.
Caches fill first, and the candidates (iOS clicks of the last hour) up to their limit;
after that a steady server stays flat: growth that continues is a leak. Every durable
write lands in the database: about 700 MiB a minute here, in a temporary directory
removed at the end.

Traffic goes to loopback only and stops after `--minutes` (default 3).

Usage: bench/soak.py [--minutes N] [--round-seconds N] [--loops N] [--connections N]
"""
import os, re, sys, time, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import Edge, prepare, scratch_dir, table, wrk

minutes, round_seconds = 3.0, 10
for flag in ("--minutes", "--round-seconds"):  # not prepare()'s options
    if flag in sys.argv:
        at = sys.argv.index(flag)
        value = float(sys.argv[at + 1])
        del sys.argv[at:at + 2]
        if flag == "--minutes":
            minutes = value
        else:
            round_seconds = int(value)

args = prepare()
here = os.path.dirname(os.path.abspath(__file__))
HOST = "go.example.test"
APP = "biq_mapp_01JDEM0APP00000000000000AA"
TOKEN = re.compile(r"bqmh_[A-Za-z0-9_-]{43}")
UA = {
    "desktop": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    "ios": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
           "Version/17.4 Mobile/15E148 Safari/604.1",
}
unlimited = {f"BIQLI_EDGE_RATE_{k}": "10000000" for k in
             ("PER_APP", "PER_ADDRESS", "PER_INSTANCE", "PER_TOKEN", "INVALID_PER_ADDRESS")}
work = scratch_dir("bench-soak-")
edge = Edge(args.loops, extra_env={"BIQLI_EDGE_HTTPS_REDIRECT": "off", **unlimited}, args=("serve", "--demo"),
            data_dir=f"{work}/data")


def status_kib(field):
    text = open(f"/proc/{edge.proc.pid}/status").read()
    return int(re.search(rf"^{field}:\s+(\d+) kB", text, re.M).group(1))


def metric(text, name):
    m = re.search(rf"^{name} (\S+)$", text, re.M)
    return float(m.group(1)) if m else 0.0


def sample():
    request = urllib.request.Request(f"http://127.0.0.1:{edge.http_port}/metrics", headers={"Host": "localhost"})
    text = urllib.request.urlopen(request).read().decode()
    size = lambda suffix: os.path.getsize(f"{edge.dir}/edge.sqlite3{suffix}") if os.path.exists(
        f"{edge.dir}/edge.sqlite3{suffix}") else 0
    return {"rss": status_kib("VmRSS") / 1024, "hwm": status_kib("VmHWM") / 1024,
            "fds": len(os.listdir(f"/proc/{edge.proc.pid}/fd")),
            "threads": len(os.listdir(f"/proc/{edge.proc.pid}/task")), "db": size("") / 2**20, "wal": size("-wal") / 2**20,
            "writes": metric(text, "biqli_store_jobs_total"),
            "failed": metric(text, "biqli_store_failed_jobs_total"),
            "candidates": metric(text, "biqli_probabilistic_candidates"),
            "dropped": metric(text, "biqli_clicks_dropped_total")}


def key():
    for _ in range(100):
        m = re.search(r"publishable key \(shown once\):\s+(biqli_mobile_pk_[A-Za-z0-9_-]{64})",
                      open(f"{edge.dir}/edge.log").read())
        if m:
            return m.group(1)
        time.sleep(0.1)
    raise SystemExit("the demo did not print its publishable key")


rows, samples, problems = [], [], []
try:
    pk = key()
    tokens = f"{work}/tokens.txt"
    base = f"http://127.0.0.1:{edge.http_port}"
    rounds = (
        ("desktop", lambda: wrk(f"{base}/invite", round_seconds, connections=args.connections,
                                headers=[f"Host: {HOST}", f"User-Agent: {UA['desktop']}"])),
        # One wrk thread: two appending to one file could splice lines.
        ("android", lambda: wrk(f"{base}/invite", round_seconds, threads=1, connections=args.connections,
                                script=f"{here}/collect_tokens.lua",
                                env={"TOKENS_FILE": tokens, "BENCH_HOST": HOST})),
        ("resolver match", lambda: wrk(f"{base}/api/v1/track/open", round_seconds, connections=args.connections,
                                       script=f"{here}/track_open.lua",
                                       env={"PK": pk, "APP_ID": APP, "BENCH_HOST": HOST, "TOKENS_FILE": tokens,
                                            "THREADS": "2", "MODE": "handoff"})),
        ("resolver none", lambda: wrk(f"{base}/api/v1/track/open", round_seconds, connections=args.connections,
                                      script=f"{here}/track_open.lua",
                                      env={"PK": pk, "APP_ID": APP, "BENCH_HOST": HOST, "MODE": "none"})),
        ("iOS Deep View", lambda: wrk(f"{base}/invite", round_seconds, connections=args.connections,
                                      headers=[f"Host: {HOST}", f"User-Agent: {UA['ios']}"])),
        ("desktop HTTPS", lambda: wrk(f"https://127.0.0.1:{edge.https_port}/invite", round_seconds,
                                      connections=args.connections,
                                      headers=[f"Host: {HOST}", f"User-Agent: {UA['desktop']}"])),
    )
    deadline = time.time() + minutes * 60
    cycle = 0
    while time.time() + len(rounds) * round_seconds <= deadline or cycle == 0:
        cycle += 1
        requests, bad = 0, 0
        for name, run in rounds:
            if name == "android" and os.path.exists(tokens):
                os.remove(tokens)  # the matches use this round's tokens only
            if name == "resolver match":
                good = [t for t in open(tokens) if TOKEN.fullmatch(t.strip())]
                open(tokens, "w").writelines(good)
            r = run()
            requests += r["rps"] * round_seconds
            bad += r["non2xx3xx"]
            if r["socket_errors"]:
                problems.append(f"cycle {cycle} {name}: socket errors {r['socket_errors']}")
        s = sample()
        samples.append(s)
        rows.append([cycle, f"{requests:,.0f}", bad, f"{s['rss']:.1f}", f"{s['hwm']:.1f}", s["fds"], s["threads"],
                     f"{s['db']:.1f}", f"{s['wal']:.1f}", f"{s['writes']:,.0f}", f"{s['failed']:.0f}",
                     f"{s['candidates']:,.0f}", f"{s['dropped']:,.0f}"])
finally:
    edge.stop()
print(f"\nsoak: {len(rows)} cycles of {len(rounds)} rounds x {round_seconds}s, {args.loops} loops, "
      f"{args.connections} connections, wrk on the same {os.cpu_count()} cores (resolver matches past the "
      f"round's tokens reuse the last one: those answers are refusals, counted as non-2xx when they are)")
table(rows, ["cycle", "requests", "non-2xx", "RSS MiB", "peak MiB", "fds", "threads", "db MiB", "wal MiB",
             "store writes", "failed writes",
             "iOS candidates", "clicks dropped"])
if len(samples) > 1:
    # Caches and the candidate index fill during the first cycles: judge the second half.
    half = samples[len(samples) // 2:]
    print(f"resident memory: {samples[0]['rss']:.1f} MiB after the first cycle, {half[0]['rss']:.1f} -> "
          f"{half[-1]['rss']:.1f} MiB over the last {len(half)} cycles")
for p in problems:
    print("problem:", p)
