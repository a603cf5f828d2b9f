#!/usr/bin/env python3
"""Analytics benchmark (issue 19, item 4): does a link's analytics page cost the same with
ten million clicks as with ten?

A workspace of 100,000 links is written straight into the store (SQL, the edge stopped),
then the edge serves `GET /api/v1/links/{id}/analytics?days=90` and
`GET /api/v1/mobile-apps/{id}/analytics?days=90` one request at a time on a kept-alive
connection, and the server time of each (the access log's `us`) is collected: first with
10 clicks in the store, then with 10 million more over the last 90 days (a tenth of them
on one hot link, the rest spread over every link; four platform/kind pairs, four in-app
browser tags, ten countries), with the per-link daily counts and the apps' hourly counts
they make, as the writer would have made them.

Prints p50/p99/max server time per case. The answer's cost follows the number of rows
the link has in its aggregates (days x (distinct platform/kind/browser values +
countries): at most 90 x (4 x 5 + 11) = 2,790 here, for the hot link), never the number
of clicks.

Usage: bench/analytics.py [--backend sqlite|postgresql] [--links N] [--clicks N] [--requests N]
(about 4 minutes with SQLite, 3 with PostgreSQL, on two cores; BIQLI_EDGE_BINARY names
the binary, else a release build is made).
"""
import argparse, http.client, json, os, random, statistics, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import ROOT, Edge, PostgresCluster, scratch_dir, table  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
ap.add_argument("--links", type=int, default=100_000)
ap.add_argument("--clicks", type=int, default=10_000_000)
ap.add_argument("--requests", type=int, default=2_000)
ap.add_argument("--days", type=int, default=90)
args = ap.parse_args()
if "BIQLI_EDGE_BINARY" not in os.environ:
    subprocess.run(["swift", "build", "-c", "release", "--product", "biqli-edge"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
BINARY = os.environ.get("BIQLI_EDGE_BINARY", f"{ROOT}/.build/release/biqli-edge")

from workspace import APP, HOST, HOT, Workspace, link_id  # noqa: E402

work = scratch_dir("bench-analytics-")
postgres = PostgresCluster() if args.backend == "postgresql" else None
env = {"BIQLI_EDGE_ACCESS_LOG": "on", "BIQLI_EDGE_LOG": "info", "BIQLI_EDGE_HTTPS_REDIRECT": "off"}
if postgres:
    env["BIQLI_EDGE_DATABASE_URL"] = postgres.url
workspace = Workspace(BINARY, work, env, postgres, links=args.links, days=args.days)


def server_times(edge, route):
    """The access log's `us` of every 200 answer of `route`, in order."""
    times = []
    path = f"{edge.dir}/edge.log"
    if os.path.exists(path):
        for line in open(path):
            if f'"route":"{route}"' in line:
                entry = json.loads(line)
                if entry.get("status") == 200:
                    times.append(entry["us"])
    return times


def measure(key, label):
    """One request at a time per case; the server times from the access log."""
    edge = Edge(2, extra_env=env, data_dir=work)
    rows = []
    try:
        conn = http.client.HTTPConnection("127.0.0.1", edge.http_port, timeout=30)
        headers = {"Authorization": "Bearer " + key, "Host": HOST}
        rng = random.Random(1)
        cases = (
            ("links.analytics", f"a link of {args.links:,} (uniform)",
             lambda: f"/api/v1/links/{link_id(rng.randrange(1, args.links))}/analytics?days={args.days}"),
            ("links.analytics", "the hot link", lambda: f"/api/v1/links/{HOT}/analytics?days={args.days}"),
            ("mobileApps.analytics", "the app", lambda: f"/api/v1/mobile-apps/{APP}/analytics?days={args.days}"),
        )
        for route, name, path in cases:
            for _ in range(50):  # warm-up: the page cache, prepared statements
                conn.request("GET", path(), headers=headers)
                conn.getresponse().read()
            time.sleep(0.3)  # the access log is written once per loop pass
            before = len(server_times(edge, route))
            client = []
            for _ in range(args.requests):
                t = time.perf_counter()
                conn.request("GET", path(), headers=headers)
                r = conn.getresponse()
                body = r.read()
                client.append((time.perf_counter() - t) * 1e6)
                assert r.status == 200, body[:300]
            time.sleep(0.3)
            server = sorted(server_times(edge, route)[before:])
            assert len(server) == args.requests, (len(server), args.requests)
            q = statistics.quantiles(server, n=100)
            rows.append([label, name, f"{q[49]:,.0f}", f"{q[98]:,.0f}", f"{server[-1]:,}",
                         f"{statistics.quantiles(client, n=100)[98]:,.0f}", f"{len(body):,}"])
    finally:
        edge.stop()
    return rows


key = workspace.create()
workspace.add_clicks(10, "small store", hot_share=2)
rows = measure(key, "10 clicks")
workspace.add_clicks(args.clicks, "large store")
rows += measure(key, f"{args.clicks:,} clicks")
print(f"\nanalytics, {args.backend}: {args.links:,} links, days={args.days}, {args.requests:,} requests per case, "
      "one at a time (server time from the access log, microseconds)")
table(rows, ["store", "case", "p50 server", "p99 server", "max server", "p99 client", "answer bytes"])
