#!/usr/bin/env python3
"""Visit benchmark (issue 5): short-link visits on the edge against nginx in one run.

Rows:
  desktop visit       edge: 302 to the web URL (click written asynchronously)   vs nginx `return 302`
  android visit       edge: 302 to Play with a durable click + handoff           vs nginx `return 302`
  iOS Deep View       edge: the Deep View page with a durable click + handoff    vs nginx serving a static
                      file of the same size
Targets (issue 5): desktop >= 0.8x, Android >= 0.7x, Deep View >= 0.5x.

Besides requests per second it prints the CPU each side spent per request (nginx's
processes; the edge's event loops and store writer; wrk in each run): on a shared
machine those move much less from run to run than the rates do.

With `--callgrind N` it measures instructions instead of time (the yardstick that a busy
machine does not move): the edge runs under callgrind, one keep-alive connection sends N
requests of each case one at a time, and it prints the instructions per request of the
event loops and the store writer; `/healthz` is the floor, and the desktop visit is
measured once more with the access log on (the default; the wall-clock rows run without
it, as nginx does). Needs valgrind; about a minute for N=1000.

Usage: bench/visits.py [--seconds N] [--loops N] [--connections N] [--callgrind N]
"""
import os, sys, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import (CallgrindEdge, Edge, Nginx, PostgresCluster, callgrind_option, prepare, scratch_dir, table,
                 with_cpu, wrk)

callgrind = callgrind_option()
args = prepare()

# pgbench's transaction for one durable Android visit: the click and the handoff the edge
# writes, with values of the same shape and size.
PGBENCH_ANDROID = """
BEGIN;
INSERT INTO clicks (id, link_id, app_id, domain, at, kind, platform, in_app_browser, dynamic, source_hash, os_version)
VALUES ('biq_clk_' || md5(random()::text), 'biq_lnk_01JDEM0HREF000000000000001', 'biq_mapp_01JDEM0APP00000000000000AA',
        'go.example.test', (extract(epoch from clock_timestamp()) * 1000)::bigint, 'android_redirect', 'android', NULL,
        '[["ref","BOB"]]', NULL, '14');
INSERT INTO handoffs (token_hash, click_id, app_id, platform, link_id, short_url, route, referral_code, metadata, dynamic,
                      created_at, expires_at)
VALUES (sha256(gen_random_uuid()::text::bytea), 'biq_clk_' || md5(random()::text), 'biq_mapp_01JDEM0APP00000000000000AA',
        'android', 'biq_lnk_01JDEM0HREF000000000000001', 'https://go.example.test/invite', '/invite', NULL,
        '{"campaign":"demo"}', '[["ref","BOB"]]', (extract(epoch from clock_timestamp()) * 1000)::bigint,
        (extract(epoch from clock_timestamp()) * 1000)::bigint + 86400000);
END;
"""

UA = {
    "desktop": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    "android": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
               "Chrome/126.0.6478.122 Mobile Safari/537.36",
    "ios": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
           "Version/17.4 Mobile/15E148 Safari/604.1",
}
HOST = "go.example.test"

work = scratch_dir("bench-visits-")


def instructions(n):
    """`--callgrind N`: loop and writer instructions per request of each case."""
    rows = []
    for access_log, cases in (("off", (("/healthz", "desktop", "/healthz (the floor)"),
                                        ("/invite", "desktop", "desktop visit"),
                                        ("/invite", "android", "Android visit (durable)"),
                                        ("/invite", "ios", "iOS Deep View (durable)"))),
                              ("on", (("/invite", "desktop", "desktop visit, access log on"),))):
        edge = CallgrindEdge(f"{work}/callgrind-log-{access_log}", args.loops,
                             extra_env={"BIQLI_EDGE_ACCESS_LOG": access_log})
        try:
            conn = edge.connect()
            parts = []
            for path, ua, label in cases:
                request = f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nUser-Agent: {UA[ua]}\r\n\r\n".encode()
                for _ in range(50):  # warm-up: caches, the classifier's answer for this UA
                    conn.roundtrip(request)
                edge.dump()
                for _ in range(n):
                    response = conn.roundtrip(request)
                    assert response.startswith((b"HTTP/1.1 200", b"HTTP/1.1 302")), response[:200]
                edge.dump()
                parts.append(label)
        finally:
            edge.stop()
        # Dumps: part 1 is start-up and the first warm-up; case i is part 2 * (i + 1).
        for i, label in enumerate(parts):
            per = edge.per_request(2 * (i + 1), n)
            rows.append([label, f"{per['loops']:,.0f}", f"{per['writer']:,.0f}"])
    print(f"\nvisits under callgrind: {n:,} requests per case, one connection, {args.loops} loops")
    table(rows, ["case", "loop instructions/req", "writer instructions/req"])
    print("(requests one at a time: every durable write is its own commit, so the writer's figure is not the "
          "batched one)")


if callgrind:
    instructions(callgrind)
    sys.exit(0)
postgres = PostgresCluster() if args.backend == "postgresql" else None
edge = Edge(args.loops, extra_env={"BIQLI_EDGE_HTTPS_REDIRECT": "off",
                                   **({"BIQLI_EDGE_DATABASE_URL": postgres.url} if postgres else {})},
            args=("serve", "--demo"), data_dir=f"{work}/demo-data")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a, **k):
        return None


def get(url, headers=None):
    """(status, headers, body) of one GET, redirects not followed."""
    try:
        r = urllib.request.build_opener(NoRedirect).open(urllib.request.Request(url, headers=headers or {}))
        return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def fetch(ua):
    return get(f"http://127.0.0.1:{edge.http_port}/invite", {"Host": HOST, "User-Agent": ua})


status, headers, _ = fetch(UA["android"])
play = headers["Location"]
status, _, page = fetch(UA["ios"])
assert status == 200, status
static_dir = scratch_dir("bench-static-")
# nginx's workers run as an unprivileged user: mkdtemp's 0700 would make every request a 403.
os.chmod(static_dir, 0o755)
with open(f"{static_dir}/deepview.html", "wb") as f:
    f.write(page)
os.chmod(f"{static_dir}/deepview.html", 0o644)
nginx = Nginx(args.loops, f"""
        location = /invite {{ return 302 https://www.example.com/invite; }}
        location = /android {{ return 302 '{play}'; }}
        location = /deepview {{ root {static_dir}; try_files /deepview.html =404; default_type text/html;
                                add_header Cache-Control no-store; }}""")


def check_reference(path, want_status, want_len=None):
    """The reference must answer what it stands for, or its figure means nothing."""
    status, _, body = get(f"http://127.0.0.1:{nginx.http_port}{path}")
    assert status == want_status, f"nginx {path}: {status}, wanted {want_status}"
    assert want_len is None or len(body) == want_len, f"nginx {path}: {len(body)} bytes, wanted {want_len}"


rows = []
pg_cpu, edge_rps = {}, {}
try:
    check_reference("/invite", 302)
    check_reference("/android", 302)
    check_reference("/deepview", 200, len(page))
    for name, nginx_path, ua, target in (
        ("desktop visit", "/invite", UA["desktop"], 0.8),
        ("android visit (durable)", "/android", UA["android"], 0.7),
        ("iOS Deep View (durable)", "/deepview", UA["ios"], 0.5),
    ):
        count = lambda r: r["rps"] * args.seconds
        n = with_cpu(lambda: wrk(f"http://127.0.0.1:{nginx.http_port}{nginx_path}", args.seconds,
                                 connections=args.connections, headers=[f"User-Agent: {ua}"]),
                     count, server_pid=nginx.pid)
        pg_before = postgres.cpu_seconds() if postgres else 0
        e = with_cpu(lambda: wrk(f"http://127.0.0.1:{edge.http_port}/invite", args.seconds,
                                 connections=args.connections, headers=[f"Host: {HOST}", f"User-Agent: {ua}"]),
                     count, edge_pid=edge.proc.pid)
        pg_cpu[name] = (postgres.cpu_seconds() - pg_before) * 1e6 / max(count(e), 1) if postgres else None
        edge_rps[name] = (e["rps"], e["p99_ms"])
        for who, r in (("nginx", n), ("edge", e)):
            if r["non2xx3xx"] or r["socket_errors"]:
                print(f"warning: {who} {name}: non-2xx {r['non2xx3xx']} socket errors {r['socket_errors']}")
        ratio = e["rps"] / n["rps"]
        c = e["cpu"]
        rows.append([name, f"{n['rps']:,.0f}", f"{e['rps']:,.0f}", f"{ratio:.2f}x", f">= {target}x",
                     "ok" if ratio >= target else "BELOW", f"{e['p99_ms']:.2f}",
                     f"{n['cpu']['server']:.1f}", f"{c['edge']:.1f} ({c['loops']:.1f} / {c['writer']:.1f})",
                     f"{n['cpu']['wrk']:.1f} / {c['wrk']:.1f}"])
    if postgres:
        # PostgreSQL's own figure for what a durable Android visit writes: the same two
        # rows (a click, a handoff) in one transaction each, 64 clients, prepared.
        tps, latency = postgres.pgbench(PGBENCH_ANDROID, args.seconds)
finally:
    edge.stop()
    nginx.stop()
print(f"\nvisits: {args.loops} loops/workers, {args.connections} connections, {args.seconds}s per run, "
      f"wrk -t2 on the same {os.cpu_count()} cores; Deep View page {len(page)} bytes")
table(rows, ["case", "nginx req/s", "edge req/s", "edge/nginx", "target", "", "edge p99 ms", "nginx CPU us/req",
             "edge CPU us/req (loops / writer)", "wrk CPU us/req (nginx / edge run)"])
if postgres:
    rps, p99 = edge_rps["android visit (durable)"]
    print(f"\nPostgreSQL 15 on the same machine (scripts/pg-cluster), the edge on it:")
    table([[name, f"{edge_rps[name][0]:,.0f}", f"{edge_rps[name][1]:.2f}", f"{pg_cpu[name]:.1f}"] for name in edge_rps],
          ["case", "edge req/s", "edge p99 ms", "PostgreSQL CPU us/req"])
    print(f"pgbench, one Android visit's inserts per transaction, 64 clients: {tps:,.0f} tps, "
          f"{latency:.2f} ms average")
    print(f"Android visits / pgbench transactions: {rps / tps:.2f}x (target >= 1.0x), edge p99 {p99:.2f} ms "
          f"(target < 20 ms)")
