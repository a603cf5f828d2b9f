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
import argparse, http.client, json, os, random, sqlite3, statistics, subprocess, sys, time

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

HOST = "go.bench.test"
APP = "biq_mapp_01BENCH000000000000000000"
HOT = "biq_lnk_" + "0" * 26
DAY = 86_400_000
NOW = int(time.time() * 1000)
work = scratch_dir("bench-analytics-")
postgres = PostgresCluster() if args.backend == "postgresql" else None
env = {"BIQLI_EDGE_ACCESS_LOG": "on", "BIQLI_EDGE_LOG": "info", "BIQLI_EDGE_HTTPS_REDIRECT": "off"}
if postgres:
    env["BIQLI_EDGE_DATABASE_URL"] = postgres.url


def link_id(n):
    return "biq_lnk_" + str(n).rjust(26, "0")


def sql(statements):
    """Runs SQL on the edge's store, the edge stopped."""
    if postgres:
        subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", postgres.url], input=statements, text=True,
                       check=True, stdout=subprocess.DEVNULL)
    else:
        db = sqlite3.connect(os.path.join(work, "edge.sqlite3"))
        db.execute("PRAGMA synchronous = OFF")
        db.executescript(statements)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()


def seq(n):
    """`n` rows numbered i = 0..n-1."""
    if postgres:
        return f"generate_series(0, {n - 1}) AS g(i)"
    return f"(WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < {n - 1}) SELECT i FROM s)"


def rand(n):
    """A random whole number 0..n-1 per row."""
    return f"floor(random() * {n})::bigint" if postgres else f"((random() & 9223372036854775807) % {n})"


def pad(expr):
    return f"lpad(({expr})::text, 26, '0')" if postgres else f"printf('%026d', {expr})"


def day_of(column):
    return f"CASE WHEN {column} >= 0 THEN {column} / {DAY} ELSE ({column} - {DAY - 1}) / {DAY} END"


def make_workspace():
    """The schema (by starting the edge once), a secret key, the domain, the app and the links."""
    edge = Edge(1, extra_env=env, data_dir=work)
    edge.stop()
    out = subprocess.run([BINARY, "keys", "create", "--name", "bench"], capture_output=True, text=True, check=True,
                         env={**os.environ, "BIQLI_EDGE_DATA_DIR": work, **env})
    now = NOW
    sql(f"""
        INSERT INTO domains VALUES ('{HOST}', true, true, NULL, NULL, {now}, {now});
        INSERT INTO mobile_apps VALUES ('{APP}', 'Bench', true, NULL, NULL,
            '{{"packageName":"com.bench","sha256CertFingerprints":[],"playStoreUrl":null,"fallbackUrl":null,"sdkEnabled":true}}',
            86400, 604800, {now}, {now});
        INSERT INTO app_domains VALUES ('{APP}', '{HOST}', 0);
        INSERT INTO links (id, domain, key, url, enabled, app_id, route, metadata, dynamic_keys, deep_view, has_preview,
                           created_at, updated_at)
            SELECT 'biq_lnk_' || {pad('i')}, '{HOST}', 'k' || i, 'https://www.example.com/' || i, true, '{APP}', '/r',
                   '{{}}', '[]', true, false, {now}, {now}
            FROM {seq(args.links)};
    """)
    return out.stdout.strip()


def add_clicks(count, label, hot_share=10):
    """`count` clicks over the last `args.days` days (every `hot_share`-th on the hot link),
    and the counts they make, as the writer keeps them."""
    started = time.time()
    if postgres:
        # The day partitions the data needs (the edge makes only the coming days').
        days = range(NOW // DAY - args.days - 1, NOW // DAY + 1)
        sql("".join(f"CREATE TABLE IF NOT EXISTS {t}_p{d} PARTITION OF {t} FOR VALUES FROM ({d * DAY}) "
                    f"TO ({(d + 1) * DAY});\n" for t in ("clicks", "open_events") for d in days))
    pairs = ("CASE {r} WHEN 0 THEN 'ios' WHEN 1 THEN 'ios' WHEN 2 THEN 'android' ELSE 'desktop' END",
             "CASE {r} WHEN 0 THEN 'deep_view' WHEN 1 THEN 'ios_fallback' WHEN 2 THEN 'android_redirect' "
             "ELSE 'desktop' END")
    browser = f"CASE {rand(8)} WHEN 0 THEN 'instagram' WHEN 1 THEN 'facebook' WHEN 2 THEN 'tiktok' " \
              f"WHEN 3 THEN 'webview' ELSE NULL END"
    countries = ["DE", "FR", "US", "GB", "JP", "BR", "IN", "ES", "IT", "NL"]
    country = "CASE " + rand(12) + " " + " ".join(f"WHEN {i} THEN '{c}'" for i, c in enumerate(countries)) + \
              " ELSE NULL END"
    table_name = "tmp_new_clicks"
    sql(f"""
        CREATE TABLE {table_name} AS
        SELECT 'biq_clk_' || {pad('i + ' + str(random.randrange(10 ** 12)))} AS id,
               CASE WHEN i % {hot_share} = 0 THEN '{HOT}' ELSE 'biq_lnk_' || {pad(rand(args.links))} END AS link_id,
               {NOW} - {rand(args.days * DAY)} AS at, {rand(4)} AS pk,
               {browser} AS in_app_browser, {country} AS country
        FROM {seq(count)};
        INSERT INTO clicks (id, link_id, app_id, domain, at, kind, platform, in_app_browser, country)
            SELECT id, link_id, '{APP}', '{HOST}', at, {pairs[1].format(r='pk')}, {pairs[0].format(r='pk')},
                   in_app_browser, country FROM {table_name};
        INSERT INTO link_click_counts (link_id, day, platform, kind, in_app_browser, count)
            SELECT link_id, {day_of('at')}, {pairs[0].format(r='pk')}, {pairs[1].format(r='pk')},
                   coalesce(in_app_browser, ''), count(*)
            FROM {table_name} GROUP BY 1, 2, 3, 4, 5
            ON CONFLICT (link_id, day, platform, kind, in_app_browser)
                DO UPDATE SET count = link_click_counts.count + excluded.count;
        INSERT INTO link_country_counts (link_id, day, country, count)
            SELECT link_id, {day_of('at')}, coalesce(country, ''), count(*)
            FROM {table_name} GROUP BY 1, 2, 3
            ON CONFLICT (link_id, day, country) DO UPDATE SET count = link_country_counts.count + excluded.count;
        INSERT INTO click_counts (app_id, hour, platform, kind, count)
            SELECT '{APP}', at / 3600000, {pairs[0].format(r='pk')}, {pairs[1].format(r='pk')}, count(*)
            FROM {table_name} GROUP BY 1, 2, 3, 4
            ON CONFLICT (app_id, hour, platform, kind) DO UPDATE SET count = click_counts.count + excluded.count;
        DROP TABLE {table_name};
        {"ANALYZE;" if postgres else ""}
    """)
    print(f"{label}: {count:,} clicks written in {time.time() - started:.0f} s", file=sys.stderr)


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


key = make_workspace()
add_clicks(10, "small store", hot_share=2)
rows = measure(key, "10 clicks")
add_clicks(args.clicks, "large store")
rows += measure(key, f"{args.clicks:,} clicks")
print(f"\nanalytics, {args.backend}: {args.links:,} links, days={args.days}, {args.requests:,} requests per case, "
      "one at a time (server time from the access log, microseconds)")
table(rows, ["store", "case", "p50 server", "p99 server", "max server", "p99 client", "answer bytes"])
