"""Shared helpers of the bench scripts: start nginx and the edge on loopback, run wrk, parse it."""
import atexit, glob, os, re, resource, shutil, signal, socket, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def scratch_dir(prefix):
    """A temporary directory removed when the script ends: a bench's databases run to
    hundreds of MiB (the soak's to gigabytes). `BENCH_KEEP=1` keeps it (to read the
    callgrind profiles of `--callgrind`, for one) and prints where it is."""
    path = tempfile.mkdtemp(prefix=prefix)
    if os.environ.get("BENCH_KEEP"):
        print(f"keeping {path}", file=sys.stderr)
    else:
        atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def need(tool, package):
    if shutil.which(tool) is None:
        subprocess.run(["apt-get", "install", "-y", "-qq", package], check=True,
                       stdout=subprocess.DEVNULL, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"port {port} never opened")


def wrk(url, seconds, threads=2, connections=64, script=None, headers=(), env=None):
    cmd = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency"]
    for h in headers:
        cmd += ["-H", h]
    if script:
        cmd += ["-s", script]
    cmd.append(url)
    out = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **(env or {})}).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sock = re.search(r"Socket errors: (.*)", out)
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    p99ms = None
    if p99:
        v, unit = float(p99.group(1)), p99.group(2)
        p99ms = v / 1000 if unit == "us" else v if unit == "ms" else v * 1000
    return {"rps": rps, "non2xx3xx": int(errors.group(1)) if errors else 0,
            "socket_errors": sock.group(1) if sock else "", "p99_ms": p99ms, "raw": out}


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


def with_children(pid):
    """`pid` and its child processes (nginx's master and workers)."""
    pids = [pid]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                pids.append(int(entry))
    return pids


def tree_cpu(pid):
    """CPU seconds of `pid` and of its child processes (nginx's master and workers)."""
    pids = with_children(pid)
    return sum(sum(thread_cpu(p).values()) for p in pids)


def with_cpu(run, requests_of, server_pid=None, edge_pid=None):
    """`run()` (a wrk call) and the CPU microseconds per request it cost: r["cpu"] holds
    `wrk`, and `server` (the process tree of `server_pid`) or `edge`, `loops` and
    `writer` (the threads of `edge_pid`). CPU per request moves much less between runs
    on a shared machine than requests per second do."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    before = thread_cpu(edge_pid) if edge_pid else tree_cpu(server_pid)
    r = run()
    after = thread_cpu(edge_pid) if edge_pid else tree_cpu(server_pid)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    n = max(requests_of(r), 1)
    cpu = {"wrk": ((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1e6 / n}
    if edge_pid:
        per = {k: (after[k] - before.get(k, 0)) * 1e6 / n for k in after}
        cpu.update(edge=sum(per.values()), writer=sum(v for k, v in per.items() if k.startswith("store-writer")),
                   loops=sum(v for k, v in per.items() if k.startswith("biqli-loop")))
    else:
        cpu["server"] = (after - before) * 1e6 / n
    r["cpu"] = cpu
    return r


class Nginx:
    """nginx from Debian on loopback with `workers` worker processes and the given location blocks."""

    def __init__(self, workers, locations, cert=None):
        need("nginx", "nginx-light")
        self.dir = scratch_dir("bench-nginx-")
        self.http_port = free_port()
        self.https_port = free_port()
        tls = ""
        if cert:
            tls = f"""
    server {{
        listen 127.0.0.1:{self.https_port} ssl reuseport;
        ssl_certificate {cert}; ssl_certificate_key {cert};
        ssl_protocols TLSv1.2 TLSv1.3; ssl_session_cache shared:SSL:10m; ssl_session_tickets on;
        {locations}
    }}"""
        conf = f"""
worker_processes {workers};
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log crit;
events {{ worker_connections 4096; multi_accept on; }}
http {{
    access_log off;
    keepalive_requests 1000000;
    server_tokens off;
    default_type text/plain;
    server {{
        listen 127.0.0.1:{self.http_port} reuseport;
        {locations}
    }}{tls}
}}
"""
        with open(f"{self.dir}/nginx.conf", "w") as f:
            f.write(conf)
        subprocess.run(["nginx", "-c", f"{self.dir}/nginx.conf", "-p", self.dir, "-q"], check=True)
        wait_port(self.http_port)
        self.pid = int(open(f"{self.dir}/nginx.pid").read())

    def stop(self):
        try:
            pid = int(open(f"{self.dir}/nginx.pid").read())
            os.kill(pid, signal.SIGQUIT)
            time.sleep(0.3)
        except Exception:
            pass


class Edge:
    """The release binary on loopback with a fresh data directory."""

    def __init__(self, loops, extra_env=None, args=("serve",), data_dir=None):
        self.binary = os.environ.get("BIQLI_EDGE_BINARY", f"{ROOT}/.build/release/biqli-edge")
        self.dir = data_dir or scratch_dir("bench-edge-")
        self.http_port = free_port()
        self.https_port = free_port()
        env = {**os.environ, "BIQLI_EDGE_DATA_DIR": self.dir, "BIQLI_EDGE_LOOPS": str(loops),
               "BIQLI_EDGE_HTTP_ADDR": f"127.0.0.1:{self.http_port}",
               "BIQLI_EDGE_HTTPS_ADDR": f"127.0.0.1:{self.https_port}", "BIQLI_EDGE_CONSOLE_ADDR": "127.0.0.1:0",
               "BIQLI_EDGE_ACCESS_LOG": "off", "BIQLI_EDGE_LOG": "warn", **(extra_env or {})}
        os.makedirs(self.dir, exist_ok=True)
        self.log = open(f"{self.dir}/edge.log", "w")
        self.proc = subprocess.Popen([self.binary, *args], env=env, stdout=self.log, stderr=subprocess.STDOUT)
        wait_port(self.http_port)
        wait_port(self.https_port)

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class PostgresCluster:
    """A throwaway PostgreSQL server for a bench (scripts/pg-cluster), stopped at exit,
    with one database for the edge; `pid` is the postmaster's (its backends are its
    children, for `tree_cpu`)."""

    def __init__(self, statements=False):
        """`statements`: with pg_stat_statements, for `top_statements` (where the server's
        time goes)."""
        need("pgbench", "postgresql-contrib")
        self.dir = tempfile.mkdtemp(prefix="bench-pg-")
        self.cluster = os.path.join(ROOT, "scripts", "pg-cluster")
        admin = subprocess.run([self.cluster, "start", self.dir], check=True, capture_output=True,
                               text=True).stdout.strip()
        atexit.register(self.stop)
        if statements:
            with open(f"{self.dir}/data/postgresql.conf", "a") as conf:
                conf.write("shared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track = all\n")
            subprocess.run([self.cluster, "restart", self.dir, "fast"], check=True, capture_output=True)
        subprocess.run(["psql", admin, "-qc", "CREATE DATABASE edge"], check=True)
        self.url = admin.rsplit("/", 1)[0] + "/edge"
        if statements:
            subprocess.run(["psql", self.url, "-qc", "CREATE EXTENSION pg_stat_statements"], check=True)
        self.pid = int(open(f"{self.dir}/data/postmaster.pid").readline())

    def stop(self):
        subprocess.run([self.cluster, "stop", self.dir], capture_output=True)

    def reset_statements(self):
        subprocess.run(["psql", self.url, "-qc", "SELECT pg_stat_statements_reset()"], check=True,
                       stdout=subprocess.DEVNULL)

    def top_statements(self, per, n=12):
        """The statements that took the server's time since the last reset: calls per
        request and microseconds per request (`per` requests)."""
        query = ("SELECT calls, total_exec_time, regexp_replace(left(query, 90), '\\s+', ' ', 'g') "
                 "FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT %d" % n)
        out = subprocess.run(["psql", self.url, "-tAF", "\t", "-c", query], capture_output=True, text=True).stdout
        rows = []
        for line in out.splitlines():
            calls, total_ms, text = line.split("\t", 2)
            rows.append([f"{int(calls) / per:.2f}", f"{float(total_ms) * 1000 / per:.1f}", text])
        return rows

    def cpu_seconds(self):
        """CPU of the server: the postmaster with the backends it reaped (cutime, cstime)
        and those still running (pgbench's go when it ends)."""
        tick = os.sysconf("SC_CLK_TCK")

        def fields(pid):
            stat = open(f"/proc/{pid}/stat").read()
            return stat[stat.rindex(")") + 2:].split()

        own = fields(self.pid)
        total = sum(int(own[i]) for i in (11, 12, 13, 14)) / tick
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    f = fields(int(entry))
                except OSError:
                    continue
                if int(f[1]) == self.pid:
                    total += (int(f[11]) + int(f[12])) / tick
        return total

    def pgbench(self, script, seconds, clients=64, threads=2):
        """Runs a custom pgbench script (one transaction each): tps, average latency (ms)."""
        path = f"{self.dir}/bench.sql"
        with open(path, "w") as f:
            f.write(script)
        os.chmod(self.dir, 0o755)
        os.chmod(path, 0o644)
        out = subprocess.run(["pgbench", "-n", "-M", "prepared", "-c", str(clients), "-j", str(threads),
                              "-T", str(seconds), "-f", path, self.url], capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(out.stderr)
        tps = float(re.search(r"tps = ([\d.]+)", out.stdout).group(1))
        latency = float(re.search(r"latency average = ([\d.]+) ms", out.stdout).group(1))
        return tps, latency


def table(rows, headers):
    widths = [max(len(str(r[i])) for r in rows + [headers]) for i in range(len(headers))]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    print(line)
    print("-" * len(line))
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))


def prepare():
    """The common start of every bench: `--seconds`, `--loops`, `--connections`; wrk
    present; a release binary (built unless `BIQLI_EDGE_BINARY` names one)."""
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--loops", type=int, default=2)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite",
                    help="the edge's store: its SQLite file, or a PostgreSQL cluster this bench starts")
    ap.add_argument("--pg-statements", action="store_true",
                    help="with --backend postgresql: print where the server's time went, per statement")
    args = ap.parse_args()
    need("wrk", "wrk")
    if "BIQLI_EDGE_BINARY" not in os.environ:
        subprocess.run(["swift", "build", "-c", "release", "--product", "biqli-edge"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    return args



def callgrind_option():
    """`--callgrind N` (not one of prepare()'s options): taken out of argv, N or None."""
    if "--callgrind" not in sys.argv:
        return None
    at = sys.argv.index("--callgrind")
    n = int(sys.argv[at + 1])
    del sys.argv[at:at + 2]
    return n


class CallgrindEdge:
    """The release binary under `valgrind --tool=callgrind --separate-threads=yes`, for
    instruction counts: the yardstick a busy machine does not move. valgrind cannot read
    Swift's DWARF, so it runs a copy stripped of debug information (symbols kept).
    `dump()` closes a part of the profile; `per_request(part, n)` sums that part's threads
    by kind (event loops, store writer, other) and divides by `n`."""

    def __init__(self, work, loops, extra_env=None, args=("serve", "--demo")):
        need("valgrind", "valgrind")
        self.work = work
        self.http_port = free_port()
        os.makedirs(f"{work}/data", exist_ok=True)
        binary = f"{work}/biqli-edge"
        subprocess.run(["strip", "--strip-debug", "-o", binary,
                        os.environ.get("BIQLI_EDGE_BINARY", f"{ROOT}/.build/release/biqli-edge")], check=True)
        env = {**os.environ, "BIQLI_EDGE_DATA_DIR": f"{work}/data", "BIQLI_EDGE_LOOPS": str(loops),
               "BIQLI_EDGE_HTTP_ADDR": f"127.0.0.1:{self.http_port}",
               "BIQLI_EDGE_HTTPS_ADDR": f"127.0.0.1:{free_port()}", "BIQLI_EDGE_CONSOLE_ADDR": "127.0.0.1:0",
               "BIQLI_EDGE_ACCESS_LOG": "off",
               "BIQLI_EDGE_LOG": "warn", "BIQLI_EDGE_HTTPS_REDIRECT": "off", **(extra_env or {})}
        self.log_path = f"{work}/edge.log"
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--separate-threads=yes",
                                          f"--callgrind-out-file={work}/cg.%p", binary, *args],
                                         env=env, stdout=log, stderr=subprocess.STDOUT)

    def connect(self):
        """One keep-alive connection, once the (slow) edge listens."""
        for _ in range(1200):
            try:
                return KeepAlive(socket.create_connection(("127.0.0.1", self.http_port)))
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the edge never listened under valgrind")

    def dump(self):
        subprocess.run(["callgrind_control", "-d", str(self.proc.pid)], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=300)

    def per_request(self, part, n):
        per = {"loops": 0, "writer": 0, "other": 0}
        for f in glob.glob(f"{self.work}/cg.{self.proc.pid}.{part}-*"):
            text = open(f, errors="replace").read()
            total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
            # By what the thread ran: an event loop's run, or the store writer's (SQLite's or
            # PostgreSQL's, whatever its type is called now: SQLiteWriter, SQLiteWriterLoop...).
            kind = ("loops" if re.search(r"EventLoopC3run", text)
                    else "writer" if re.search(r"(SQLite|PG)Writer\w*[CV]3run", text) else "other")
            per[kind] += int(total.group(1)) if total else 0
        return {k: v / n for k, v in per.items()}


class KeepAlive:
    """Requests one at a time on one connection; responses framed by Content-Length."""

    def __init__(self, conn):
        self.conn = conn
        self.pending = b""

    def roundtrip(self, request):
        self.conn.sendall(request)
        while True:
            head_end = self.pending.find(b"\r\n\r\n")
            if head_end >= 0:
                length = re.search(rb"(?i)content-length: *(\d+)", self.pending[:head_end])
                end = head_end + 4 + (int(length.group(1)) if length else 0)
                if len(self.pending) >= end:
                    response, self.pending = self.pending[:end], self.pending[end:]
                    return response
            data = self.conn.recv(65536)
            assert data, "the edge closed the connection"
            self.pending += data


def track_open(pk, id, token, host="go.example.test", app="biq_mapp_01JDEM0APP00000000000000AA"):
    """An open shaped like the official Android SDK's (track_open.lua's too): every id made
    from `id`, the handoff token or null."""
    body = ('{"eventId":"open_%s","appId":"%s","appInstanceId":"install_%s","platform":"android","firstOpen":true,'
            '"probabilisticAllowed":false,"handoffToken":%s,"deepLink":null,"domain":null,"appVersion":"2.4.0",'
            '"osVersion":"15","sdkVersion":"1.0.0","occurredAt":null}') % (id, app, id, f'"{token}"' if token else "null")
    return (f"POST /api/v1/track/open HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {pk}\r\n"
            "Content-Type: application/json\r\nAccept: application/json\r\nX-Biq-SDK: android\r\n"
            f"X-Biq-SDK-Version: 1.0.0\r\nContent-Length: {len(body)}\r\nIdempotency-Key: open_{id}\r\n"
            f"X-Biq-Request-Id: req_{id}\r\n\r\n{body}").encode()
