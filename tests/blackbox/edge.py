"""Starting the real biqli-edge binary on loopback and talking to it over real sockets."""
import json, os, queue, re, signal, socket, ssl, subprocess, tempfile, threading, time
import backend

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("BIQLI_EDGE_BINARY", f"{ROOT}/.build/release/biqli-edge")


class Edge:
    """One running edge. Ports are chosen by the kernel (port 0) and read back from the
    `listening` log line; every stdout line is kept in `lines` for log assertions."""

    def __init__(self, args=("serve",), env=None, data_dir=None, wait=True, cwd=None):
        self.dir = data_dir or tempfile.mkdtemp(prefix="edge-test-")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "BIQLI_EDGE_DATA_DIR": self.dir,
            "BIQLI_EDGE_HTTP_ADDR": "127.0.0.1:0",
            "BIQLI_EDGE_HTTPS_ADDR": "127.0.0.1:0",
            # The console's default (127.0.0.1:8091) would be shared by every edge of a run.
            "BIQLI_EDGE_CONSOLE_ADDR": "127.0.0.1:0",
            "BIQLI_EDGE_LOOPS": "2",
            # One node name per data directory (a restart on it is the same node): edges of
            # one test sharing a PostgreSQL database would otherwise all be the host name,
            # and the second would refuse to start.
            "BIQLI_EDGE_NODE": re.sub(r"[^A-Za-z0-9._-]", "-", os.path.basename(self.dir.rstrip("/")))[-64:] or "edge",
            **(env or {}),
        }
        self.env = {k: v for k, v in self.env.items() if v is not None}  # None: leave the variable unset
        # On the PostgreSQL run, each data directory has its own database; a test that
        # names one (or "": the SQLite file, whatever the run) keeps what it named.
        if "BIQLI_EDGE_DATABASE_URL" in self.env:
            self.database_url = self.env["BIQLI_EDGE_DATABASE_URL"] or None
        else:
            self.database_url = backend.database_url(self.dir)
            if self.database_url:
                self.env["BIQLI_EDGE_DATABASE_URL"] = self.database_url
        self.proc = subprocess.Popen([BINARY, *args], env=self.env, cwd=cwd or self.dir,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines = []
        self.stderr_lines = []
        self._events = queue.Queue()
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines, True), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.stderr_lines, False), daemon=True).start()
        self.http_port = self.https_port = self.metrics_port = self.console_port = None
        if wait:
            self.wait_listening()

    def _pump(self, stream, sink, is_stdout):
        for raw in stream:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            sink.append(line)
            if is_stdout:
                self._events.put(line)

    def wait_listening(self, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                line = self._events.get(timeout=0.2)
            except queue.Empty:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"edge exited {self.proc.returncode}: {self.stderr_lines} {self.lines}")
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("msg") == "listening":
                self.http_port = port_of(entry.get("http"))
                self.https_port = port_of(entry.get("https"))
                self.metrics_port = port_of(entry.get("metrics"))
                self.console_port = port_of(entry.get("console"))
                return entry
        raise RuntimeError(f"edge never listened: {self.lines} {self.stderr_lines}")

    def log_entries(self):
        out = []
        for line in list(self.lines):
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
        return out

    def stop(self, sig=signal.SIGTERM, timeout=20):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def port_of(address):
    if not address:
        return None
    return int(address.rsplit(":", 1)[1])


# One client context for every test connection, verifying nothing (the edges' certificates
# are the tests' own): a default context per connection loaded the system's CA bundle
# each time, about 19 ms of the test process's CPU per TLS request.
_CLIENT_TLS = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
_CLIENT_TLS.check_hostname = False
_CLIENT_TLS.verify_mode = ssl.CERT_NONE


def connect(port, tls=False, sni="localhost", timeout=5):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    if tls:
        s = _CLIENT_TLS.wrap_socket(s, server_hostname=sni)
    return s


class Conn:
    """A socket with a pending-bytes buffer so several responses can be read in order."""

    def __init__(self, port, tls=False, sni="localhost", timeout=5):
        self.sock = connect(port, tls, sni, timeout)
        self.pending = b""

    def send(self, data):
        self.sock.sendall(data if isinstance(data, bytes) else data.encode())

    def response(self, head_only=False):
        buf = self.pending
        while b"\r\n\r\n" not in buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError(f"closed before a response head: {buf!r}")
            buf += chunk
        head, rest = buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            k, v = line.split(":", 1)
            headers.setdefault(k.strip().lower(), v.strip())
        length = 0 if head_only or status in (204, 304) or status < 200 else int(headers.get("content-length", "0"))
        while len(rest) < length:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("closed inside a body")
            rest += chunk
        self.pending = rest[length:]
        return status, headers, rest[:length]

    def is_closed(self, timeout=3):
        """True when the server closed (EOF or reset) within `timeout` with nothing more to read."""
        self.sock.settimeout(timeout)
        try:
            data = self.pending or self.sock.recv(65536)
            self.pending = b""
            return data == b""
        except (ConnectionResetError, ssl.SSLError, BrokenPipeError):
            return True
        except socket.timeout:
            return False

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def request(port, path="/", method="GET", headers=None, body=b"", tls=False, sni="localhost", host=None):
    """One request on a fresh connection; returns (status, headers, body)."""
    c = Conn(port, tls, sni)
    try:
        h = {"Host": host or sni or "localhost", "Connection": "close", **(headers or {})}
        if body or method in ("POST", "PUT", "PATCH"):
            h.setdefault("Content-Length", str(len(body)))
        head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items()) + "\r\n"
        c.send(head.encode() + (body if isinstance(body, bytes) else body.encode()))
        return c.response(head_only=(method == "HEAD"))
    finally:
        c.close()


def make_cert(path, names, days=30, not_before_days=None):
    """Self-signed P-256 certificate plus key in one PEM, via the openssl CLI."""
    with tempfile.TemporaryDirectory() as d:
        san = ",".join(f"DNS:{n}" for n in names)
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                        "-nodes", "-keyout", f"{d}/k.pem", "-out", f"{d}/c.pem", "-days", str(days),
                        "-subj", f"/CN={names[0]}", "-addext", f"subjectAltName={san}"],
                       check=True, capture_output=True)
        with open(path + ".tmp", "wb") as f:
            f.write(open(f"{d}/c.pem", "rb").read() + open(f"{d}/k.pem", "rb").read())
        os.replace(path + ".tmp", path)


def peer_cert_names(port, sni):
    """The subject CN of the certificate the edge presents for `sni`."""
    s = connect(port, tls=True, sni=sni)
    der = s.getpeercert(binary_form=True)
    s.close()
    out = subprocess.run(["openssl", "x509", "-inform", "DER", "-noout", "-subject"], input=der,
                         capture_output=True).stdout.decode()
    return out.strip().split("CN", 1)[1].lstrip(" =")
