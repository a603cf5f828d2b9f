#!/usr/bin/env python3
"""Transport benchmark (issue 2): the edge against nginx in one run, same workers,
same response size, wrk on loopback. Rows: keep-alive, pipelined 16 deep, HTTPS
keep-alive, and a new connection per request with wrk's TLS (Debian's wrk 4.1 negotiates
TLS 1.2 and resumes its previous session on every reconnection: an abbreviated
handshake; bench/clicks.py measures full TLS 1.3 handshakes). Prints both sides and
the ratio.

Usage: bench/transport.py [--seconds N] [--loops N]
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import Edge, Nginx, prepare, table, wrk

args = prepare()

edge = Edge(args.loops)
cert = f"{edge.dir}/certs/default.pem"
# nginx answers exactly what the edge's /healthz answers (same status, body, cache header).
nginx = Nginx(args.loops, """
        location = /healthz { default_type application/json; add_header Cache-Control no-store;
                              return 200 '{"status":"ok"}'; }""", cert=cert)
pipeline = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pipeline.lua")
rows = []
try:
    cases = [
        ("keep-alive", lambda port, tls: wrk(f"http://127.0.0.1:{port}/healthz", args.seconds,
                                             connections=args.connections)),
        ("pipelined x16", lambda port, tls: wrk(f"http://127.0.0.1:{port}/healthz", args.seconds,
                                                connections=args.connections, script=pipeline,
                                                env={"BENCH_PATH": "/healthz"})),
        ("https keep-alive", lambda port, tls: wrk(f"https://127.0.0.1:{port}/healthz", args.seconds,
                                                   connections=args.connections)),
        ("https new connection/request (TLS 1.2 resumed)", lambda port, tls: wrk(f"https://127.0.0.1:{port}/healthz", args.seconds,
                                                          connections=16, headers=["Connection: close"])),
    ]
    for name, run in cases:
        tls = name.startswith("https")
        n = run(nginx.https_port if tls else nginx.http_port, tls)
        e = run(edge.https_port if tls else edge.http_port, tls)
        for who, r in (("nginx", n), ("edge", e)):
            if r["non2xx3xx"] or r["socket_errors"]:
                print(f"warning: {who} {name}: non-2xx {r['non2xx3xx']} socket errors {r['socket_errors']}")
        rows.append([name, f"{n['rps']:,.0f}", f"{e['rps']:,.0f}", f"{e['rps'] / n['rps']:.2f}x",
                     f"{n['p99_ms']:.2f}", f"{e['p99_ms']:.2f}"])
finally:
    edge.stop()
    nginx.stop()
print(f"\ntransport: {args.loops} loops/workers, {args.connections} connections, {args.seconds}s per run, "
      f"wrk -t2 on the same {os.cpu_count()} cores")
table(rows, ["case", "nginx req/s", "edge req/s", "edge/nginx", "nginx p99 ms", "edge p99 ms"])
