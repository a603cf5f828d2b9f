#!/usr/bin/env python3
"""Console benchmark (issue 19): the operator console on a large workspace.

A workspace of 100,000 links, 10 million clicks and 1 million open events over the last 90
days is written straight into the store (`workspace.py`), then the edge serves the
console's pages one request at a time on a kept-alive, signed-in connection, and the
server time of each (the access log's `us`) is collected per page:

  overview            GET /console/
  links, first page   GET /console/links
  links, a later page GET /console/links?after=...  (the cursor the first page links to)
  links, search       GET /console/links?q=k4711
  link page           GET /console/links/{id}       (a link of 100,000, uniform)
  link page, hot      GET /console/links/{hot}?days=90  (a tenth of all clicks)

Target: p99 under 50 ms for each.

Then visits with the console open: Android visits (wrk, 64 connections) for `--seconds`,
first alone, then while a headless Chromium signed in to the console walks its pages
(overview, links, a link's page) once a second, then while a client requests link pages
back to back (the worst an operator can do). Prints the visits per second of each run.

Usage: bench/console.py [--backend sqlite|postgresql] [--links N] [--clicks N] [--opens N]
[--requests N] [--seconds N] [--no-browser]. BIQLI_EDGE_BINARY names the binary, else a
release build is made. About 6 minutes with SQLite on two cores.
"""
import argparse, http.client, json, os, random, re, statistics, subprocess, sys, threading, time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import ROOT, Edge, PostgresCluster, free_port, need, scratch_dir, table, wrk  # noqa: E402
from workspace import HOST, HOT, Workspace, link_id  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
ap.add_argument("--links", type=int, default=100_000)
ap.add_argument("--clicks", type=int, default=10_000_000)
ap.add_argument("--opens", type=int, default=1_000_000)
ap.add_argument("--requests", type=int, default=500)
ap.add_argument("--seconds", type=int, default=10)
ap.add_argument("--no-browser", action="store_true")
args = ap.parse_args()
need("wrk", "wrk")
try:
    import selenium  # noqa: F401
except ImportError:
    # The browser run needs selenium, which the tests' virtualenv has (BIQLI_SETUP_TEST=1 scripts/setup).
    venv = os.path.join(ROOT, ".build", "venv", "bin", "python")
    if os.path.exists(venv) and os.path.realpath(sys.executable) != os.path.realpath(venv):
        os.execv(venv, [venv, *sys.argv])
    print("selenium is missing: the run with the console open in Chromium is left out", file=sys.stderr)
    args.no_browser = True
if "BIQLI_EDGE_BINARY" not in os.environ:
    subprocess.run(["swift", "build", "-c", "release", "--product", "biqli-edge"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
BINARY = os.environ.get("BIQLI_EDGE_BINARY", f"{ROOT}/.build/release/biqli-edge")
UA_ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
              "Chrome/124.0.0.0 Mobile Safari/537.36")

work = scratch_dir("bench-console-")
postgres = PostgresCluster() if args.backend == "postgresql" else None
console_port = free_port()
env = {"BIQLI_EDGE_ACCESS_LOG": "on", "BIQLI_EDGE_LOG": "info", "BIQLI_EDGE_HTTPS_REDIRECT": "off",
       "BIQLI_EDGE_CONSOLE_ADDR": f"127.0.0.1:{console_port}"}
if postgres:
    env["BIQLI_EDGE_DATABASE_URL"] = postgres.url
workspace = Workspace(BINARY, work, env, postgres, links=args.links, days=90)


class Console:
    """A signed-in console client on one kept-alive connection (cookies by hand)."""

    def __init__(self, port, key):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies = {}
        status, body = self.get("/console/sign-in")
        assert status == 200, (status, body[:300])
        csrf = re.search(r'name="csrf"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf"', body)
        form = {"key": key, "csrf": next(g for g in csrf.groups() if g)}
        status, body = self.request("POST", "/console/sign-in", urllib.parse.urlencode(form),
                                    {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 303 and "biqli_console" in self.cookies, (status, body[:300], self.cookies)

    def request(self, method, path, body=None, headers=None):
        h = dict(headers or {})
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        self.conn.request(method, path, body=body, headers=h)
        r = self.conn.getresponse()
        data = r.read().decode("utf-8", "replace")
        for value in r.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return r.status, data

    def get(self, path):
        return self.request("GET", path)


def server_times(edge, prefix):
    """The access log's `us` of every 200 answer whose path starts with `prefix`, in order."""
    times = []
    for line in open(f"{edge.dir}/edge.log"):
        if '"msg":"request"' in line and f'"path":"{prefix}' in line:
            entry = json.loads(line)
            if entry.get("status") == 200:
                times.append((entry["path"], entry["us"]))
    return times


def measure(edge, key):
    console = Console(console_port, key)
    status, first = console.get("/console/links")
    assert status == 200, first[:300]
    after = re.search(r'id="next-page"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*id="next-page"', first)
    assert after, "the first page of links links to no next page"
    later = next(g for g in after.groups() if g).replace("&amp;", "&")
    rng = random.Random(1)
    cases = (
        ("overview", lambda: "/console/", "/console/"),
        ("links, first page", lambda: "/console/links", "/console/links"),
        ("links, a later page", lambda: later, "/console/links"),
        ("links, search", lambda: f"/console/links?q=k{rng.randrange(args.links)}", "/console/links"),
        ("link page (uniform)", lambda: f"/console/links/{link_id(rng.randrange(1, args.links))}",
         "/console/links/biq_lnk_"),
        ("link page, hot link, 90 days", lambda: f"/console/links/{HOT}?days=90", "/console/links/biq_lnk_"),
    )
    rows = []
    for name, path, prefix in cases:
        for _ in range(20):  # warm-up: the page cache, prepared statements, the overview's cache
            status, _ = console.get(path())
        time.sleep(0.3)  # the access log is written once per loop pass
        before = len(server_times(edge, prefix))
        client, size = [], 0
        for _ in range(args.requests):
            t = time.perf_counter()
            status, body = console.get(path())
            client.append((time.perf_counter() - t) * 1e6)
            assert status == 200, (name, status, body[:300])
            size = len(body)
        time.sleep(0.5)
        server = sorted(us for p, us in server_times(edge, prefix)[before:])
        assert len(server) == args.requests, (name, len(server), args.requests)
        q = statistics.quantiles(server, n=100, method="inclusive")
        rows.append([name, f"{q[49]:,.0f}", f"{q[98]:,.0f}", f"{server[-1]:,}",
                     f"{statistics.quantiles(client, n=100, method='inclusive')[98]:,.0f}", f"{size:,}",
                     "yes" if q[98] < 50_000 else "NO"])
    return rows


def visits(edge, label):
    r = wrk(f"http://127.0.0.1:{edge.http_port}/k{random.randrange(args.links)}", args.seconds,
            headers=(f"Host: {HOST}", f"User-Agent: {UA_ANDROID}"))
    assert r["non2xx3xx"] == 0 and not r["socket_errors"], r["raw"]
    return [label, f"{r['rps']:,.0f}", f"{r['p99_ms']:.2f}"]


def browsing(key, stop):
    """A person with the console open: a headless Chromium walking its pages, one a second."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "blackbox"))
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,900"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    pages = 0
    try:
        base = f"http://127.0.0.1:{console_port}"
        driver.get(base + "/console/sign-in")
        driver.find_element(By.ID, "key").send_keys(key)
        driver.find_element(By.ID, "sign-in").click()
        rng = random.Random(2)
        while not stop.is_set():
            for path in ("/console/", "/console/links", f"/console/links/{link_id(rng.randrange(args.links))}"):
                driver.get(base + path)
                pages += 1
                if stop.wait(1.0):
                    break
    finally:
        driver.quit()
    return pages


def hammering(key, stop, counter):
    console = Console(console_port, key)
    rng = random.Random(3)
    while not stop.is_set():
        status, _ = console.get(f"/console/links/{link_id(rng.randrange(args.links))}")
        assert status == 200
        counter[0] += 1


key = workspace.create()
workspace.add_clicks(args.clicks, "clicks")
workspace.add_opens(args.opens, "opens")
edge = Edge(2, extra_env=env, data_dir=work)
try:
    page_rows = measure(edge, key)
    # Visits: the access log off would be fairer to the edge, but the same in every run.
    visits(edge, "warm-up")  # not printed: the first run after the load pays for the cold file
    visit_rows = [visits(edge, "visits alone")]
    if not args.no_browser:
        stop = threading.Event()
        result = {}
        t = threading.Thread(target=lambda: result.setdefault("pages", browsing(key, stop)))
        t.start()
        time.sleep(3)  # the browser started and signed in
        visit_rows.append(visits(edge, "visits, the console open in Chromium"))
        stop.set()
        t.join()
        visit_rows[-1][0] += f" ({result.get('pages', 0)} pages loaded)"
    stop, counter = threading.Event(), [0]
    t = threading.Thread(target=hammering, args=(key, stop, counter))
    t.start()
    visit_rows.append(visits(edge, "visits, link pages requested back to back"))
    stop.set()
    t.join()
    visit_rows[-1][0] += f" ({counter[0]:,} pages)"
finally:
    edge.stop()

print(f"\nconsole, {args.backend}: {args.links:,} links, {args.clicks:,} clicks, {args.opens:,} open events, "
      f"{args.requests:,} requests per page, one at a time (server time from the access log, microseconds)")
table(page_rows, ["page", "p50 server", "p99 server", "max server", "p99 client", "bytes", "p99 < 50 ms"])
print(f"\nAndroid visits (wrk, 2 threads, 64 connections, {args.seconds} s each)")
table(visit_rows, ["run", "visits/s", "p99 ms"])
