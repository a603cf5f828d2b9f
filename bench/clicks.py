#!/usr/bin/env python3
"""Real clicks (issue 24, item 3): a new TLS connection per visit, the edge against
nginx `return 302` on the same certificate, interleaved round by round.

A person tapping a link in a message opens a new TLS connection, sends one request and
leaves: the handshake (TLS 1.3, X25519, the demo's ECDSA P-256 certificate, no session
resumption) is most of the work. Rows: a desktop visit (302 to the
web URL, click written after the answer) and an Android visit (302 to Play, click and
handoff durable before the answer), each against nginx answering the same 302 from the
same certificate and key. The runs alternate nginx, edge, nginx, edge... (`--rounds`),
so that a machine that slows down mid-run slows both sides.

The load comes from `bench/tlsclick.c` (built here with gcc against Debian's libssl):
every request a new connection with a full TLS 1.3 handshake (X25519, the certificate's
ECDSA P-256 signature), SNI `go.example.test` as a phone sends it (the edge picks its TLS
context by SNI), no session resumption, one request, close. Not wrk: Debian's wrk 4.1
negotiates TLS 1.2 and resumes its previous session on every reconnection, so its
"handshake per request" (bench/transport.py) is an abbreviated TLS 1.2 handshake.

With `--perf`, each side's last run is recorded with `perf record -e cpu-clock -g`
(this machine's virtual CPUs have no hardware counters) and the script prints where
each side's time went by shared object and by symbol. `BENCH_KEEP=1` keeps the
`perf.data` files for `perf report -i`.

Usage: bench/clicks.py [--seconds N] [--loops N] [--connections N] [--rounds N] [--perf]
"""
import json, os, shutil, subprocess, sys, time, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import Edge, Nginx, need, prepare, scratch_dir, table, with_children, with_cpu

HOST = "go.example.test"
UA = {
    "desktop": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    "android": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
               "Chrome/126.0.6478.122 Mobile Safari/537.36",
}


def option(name, default=None, flag=False):
    """An option of this script only, taken out of argv before prepare() parses the rest."""
    if name not in sys.argv:
        return default
    at = sys.argv.index(name)
    if flag:
        del sys.argv[at]
        return True
    value = sys.argv[at + 1]
    del sys.argv[at:at + 2]
    return int(value)


rounds = option("--rounds", 3)
profile = option("--perf", False, flag=True)
args = prepare()
if profile:
    need("perf", "linux-perf")
work = scratch_dir("bench-clicks-")

tool = f"{work}/tlsclick"
subprocess.run(["gcc", "-O2", "-o", tool, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tlsclick.c"),
                "-lssl", "-lcrypto", "-lpthread"], check=True)


def click_load(port, ua):
    """One run of tlsclick: a new TLS 1.3 connection per visit; wrk's fields for lib's helpers."""
    request = f"{work}/request-{ua[:20].replace(' ', '_').replace('/', '_')}"
    with open(request, "w") as f:
        f.write(f"GET /invite HTTP/1.1\r\nHost: {HOST}\r\nUser-Agent: {ua}\r\nConnection: close\r\n\r\n")
    out = subprocess.run([tool, "127.0.0.1", str(port), HOST, str(args.seconds), str(args.connections), "2", request],
                         capture_output=True, text=True, check=True).stdout
    r = json.loads(out)
    assert r["resumed"] == 0 and r["tls13"] >= r["requests"], r
    r["non2xx3xx"] = r["status_other"]
    r["socket_errors"] = r["errors"] or ""
    return r


def recorded(pids, path, run):
    """`run()` while perf samples `pids` (every thread) into `path`."""
    p = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-F", "2000", "-g", "-o", path,
                          "-p", ",".join(map(str, pids))], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        return run()
    finally:
        p.send_signal(2)
        p.wait()


def report(path, sort, limit):
    out = subprocess.run(["perf", "report", "-i", path, "--stdio", "--no-children", "--sort", sort,
                          "--percent-limit", str(limit), "-g", "none"],
                         capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line.strip() and not line.startswith("#")]


edge = Edge(args.loops, extra_env={"BIQLI_EDGE_HTTPS_REDIRECT": "off"}, args=("serve", "--demo"),
            data_dir=f"{work}/demo-data")
cert = f"{work}/both.pem"
# The certificate the edge serves for the demo domain, and its key, for nginx too.
served = subprocess.run(["openssl", "s_client", "-connect", f"127.0.0.1:{edge.https_port}", "-servername", HOST,
                         "-showcerts"], input="", capture_output=True, text=True).stdout
leaf = served[served.index("-----BEGIN CERTIFICATE-----"):served.index("-----END CERTIFICATE-----") + 25]
key_file = None
for root, _, files in os.walk(f"{work}/demo-data"):
    for name in files:
        path = os.path.join(root, name)
        try:
            text = open(path).read()
        except (UnicodeDecodeError, OSError):
            continue
        if leaf.split("\n")[1] in text and "PRIVATE KEY" in text:
            key_file = path
if key_file is None:
    sys.exit("the demo certificate's PEM file (certificate and key) was not found in the data directory")
shutil.copy(key_file, cert)
kind = subprocess.run(["openssl", "x509", "-noout", "-text"], input=leaf, capture_output=True, text=True).stdout
assert "prime256v1" in kind or "P-256" in kind, "the demo certificate is not ECDSA P-256"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a, **k):
        return None


def location(ua):
    try:
        urllib.request.build_opener(NoRedirect).open(urllib.request.Request(
            f"http://127.0.0.1:{edge.http_port}/invite", headers={"Host": HOST, "User-Agent": ua}))
    except urllib.error.HTTPError as e:
        assert e.code == 302, e.code
        return e.headers["Location"]
    raise AssertionError("no redirect")


web, play = location(UA["desktop"]), location(UA["android"])
nginx = Nginx(args.loops, "", cert=cert)
# Lib's Nginx puts the same locations in both servers; this bench chooses by user agent.
conf = open(f"{nginx.dir}/nginx.conf").read()
conf = conf.replace("ssl_session_tickets on;", f"""ssl_session_tickets on;
        location = /invite {{ if ($http_user_agent ~ Android) {{ return 302 '{play}'; }}
                              return 302 '{web}'; }}""")
with open(f"{nginx.dir}/nginx.conf", "w") as f:
    f.write(conf)
subprocess.run(["nginx", "-c", f"{nginx.dir}/nginx.conf", "-p", nginx.dir, "-s", "reload"], check=True,
               stderr=subprocess.DEVNULL)
time.sleep(0.5)  # the reload's new workers

results = {}
perf_files = {}
try:
    for case in ("desktop", "android"):
        for i in range(rounds):
            for who in ("nginx", "edge"):
                port = nginx.https_port if who == "nginx" else edge.https_port
                count = lambda r: r["rps"] * args.seconds
                run = lambda: click_load(port, UA[case])
                server = {"server_pid": nginx.pid} if who == "nginx" else {"edge_pid": edge.proc.pid}
                if profile and i == rounds - 1:
                    pids = with_children(nginx.pid) if who == "nginx" else [edge.proc.pid]
                    path = f"{work}/perf-{case}-{who}.data"
                    perf_files[(case, who)] = path
                    r = recorded(pids, path, lambda: with_cpu(run, count, **server))
                else:
                    r = with_cpu(run, count, **server)
                if r["non2xx3xx"] or r["socket_errors"]:
                    print(f"warning: {who} {case}: non-2xx {r['non2xx3xx']} socket errors {r['socket_errors']}")
                results.setdefault((case, who), []).append(r)
finally:
    edge.stop()
    nginx.stop()

rows = []
for case in ("desktop", "android"):
    n, e = results[(case, "nginx")], results[(case, "edge")]
    ratios = [b["rps"] / a["rps"] for a, b in zip(n, e)]
    cpu_n = sum(r["cpu"]["server"] for r in n) / len(n)
    cpu_e = sum(r["cpu"]["edge"] for r in e) / len(e)
    rows.append([f"{case} click (new TLS)", ", ".join(f"{r['rps']:,.0f}" for r in n),
                 ", ".join(f"{r['rps']:,.0f}" for r in e), ", ".join(f"{x:.2f}" for x in ratios),
                 f"{sum(r['rps'] for r in e) / sum(r['rps'] for r in n):.2f}x",  # all rounds together
                 f"{cpu_n:.0f}", f"{cpu_e:.0f}",
                 f"{sum(r['cpu']['wrk'] for r in n) / len(n):.0f} / {sum(r['cpu']['wrk'] for r in e) / len(e):.0f}",
                 f"{max(r['p99_ms'] for r in n):.1f} / {max(r['p99_ms'] for r in e):.1f}"])
print(f"\nclicks: a new TLS 1.3 connection per visit (X25519, ECDSA P-256, SNI {HOST}, no resumption), {args.loops} "
      f"loops/workers, {args.connections} connections, {args.seconds}s per run, {rounds} interleaved rounds, "
      f"the client (2 threads) on the same {os.cpu_count()} cores")
table(rows, ["case", "nginx req/s", "edge req/s", "edge/nginx by round", "edge/nginx", "nginx CPU us/req",
             "edge CPU us/req", "client CPU us/req (nginx / edge run)", "p99 ms max (nginx / edge)"])
for (case, who), path in perf_files.items():
    print(f"\n{who}, {case} clicks: CPU samples by shared object (perf, cpu-clock)")
    for line in report(path, "dso", 1.0):
        print("  " + line.strip())
    print(f"{who}, {case} clicks: by symbol (>= 1.5 %)")
    for line in report(path, "dso,sym", 1.5):
        print("  " + line.strip())
