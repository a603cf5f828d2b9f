"""A real ACME CA for the black-box tests: Debian's `pebble`, with its `pebble-challtestsrv`
as the DNS server it resolves the test domains with (every name answers 127.0.0.1 unless a
test says otherwise), so that Pebble's validations connect to the edge's listeners for real.

Nothing reaches a real CA. Pebble's "always valid" shortcut (PEBBLE_VA_ALWAYS_VALID) is
never set: every authorization is validated over HTTP-01 or TLS-ALPN-01, and no valid
authorization is reused (PEBBLE_AUTHZREUSE=0)."""
import json, os, shutil, socket, ssl, subprocess, tempfile, time, urllib.request

PEBBLE = shutil.which("pebble")
CHALLTESTSRV = shutil.which("pebble-challtestsrv")


# Ports this process handed out: a port is only free until someone binds it. A test picks
# the edge's ports, then starts Pebble on ports it picks, then the edge; meanwhile the kernel
# may give the same port to another bind(0) or, as the local end of an outgoing connection,
# to any process (seen: "Address already in use", Pebble exiting). So the ports come from
# below the kernel's ephemeral range, never twice.
_HANDED_OUT = set()


def _ephemeral_floor():
    try:
        return int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port(udp_too=False):
    """A port free on 127.0.0.1 now (TCP, and UDP when `udp_too`: a DNS server takes both),
    below the ephemeral range and never one this process handed out before."""
    import random
    top = _ephemeral_floor() - 1
    while True:
        port = random.randint(max(1024, top - 12_000), top)
        if port in _HANDED_OUT:
            continue
        try:
            with socket.socket() as s:
                s.bind(("127.0.0.1", port))
            if udp_too:
                with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as u:
                    u.bind(("127.0.0.1", port))
        except OSError:
            continue
        _HANDED_OUT.add(port)
        return port


class Pebble:
    """Pebble and its DNS, validating against the edge's HTTP port `http_port` and HTTPS
    port `tls_port`. `nonce_reject`: the percentage of good nonces refused as badNonce;
    `validity`: seconds a certificate lasts (Pebble's default: 5 years); `eab`: kid -> MAC
    key, which makes external account binding required."""

    def __init__(self, http_port, tls_port, nonce_reject=0, validity=None, eab=None):
        self.dir = tempfile.mkdtemp(prefix="pebble-")
        self.cert = f"{self.dir}/pebble-cert.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-keyout", f"{self.dir}/pebble-key.pem", "-out", self.cert, "-days", "2", "-subj",
                        "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                       check=True, capture_output=True)
        self.dns_port = free_port(udp_too=True)
        self.dns_management = free_port()
        self.acme_port = free_port()
        self.management_port = free_port()
        config = {"pebble": {
            "listenAddress": f"127.0.0.1:{self.acme_port}",
            "managementListenAddress": f"127.0.0.1:{self.management_port}",
            "certificate": self.cert, "privateKey": f"{self.dir}/pebble-key.pem",
            "httpPort": http_port, "tlsPort": tls_port, "ocspResponderURL": "",
            "externalAccountBindingRequired": bool(eab), "externalAccountMACKeys": eab or {},
        }}
        if validity:
            config["pebble"]["certificateValidityPeriod"] = validity
        with open(f"{self.dir}/pebble.json", "w") as f:
            json.dump(config, f)
        self.logs = []
        self.dns = subprocess.Popen(
            [CHALLTESTSRV, "-dns01", f"127.0.0.1:{self.dns_port}", "-management", f"127.0.0.1:{self.dns_management}",
             "-defaultIPv4", "127.0.0.1", "-defaultIPv6", "", "-http01", "", "-https01", "", "-tlsalpn01", ""],
            stdout=open(f"{self.dir}/challtestsrv.log", "w"), stderr=subprocess.STDOUT)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PEBBLE_")}
        env.update({"PEBBLE_VA_NOSLEEP": "1", "PEBBLE_WFE_NONCEREJECT": str(nonce_reject), "PEBBLE_AUTHZREUSE": "0"})
        assert "PEBBLE_VA_ALWAYS_VALID" not in env
        self.pebble = subprocess.Popen([PEBBLE, "-config", f"{self.dir}/pebble.json", "-dnsserver",
                                        f"127.0.0.1:{self.dns_port}"],
                                       env=env, stdout=open(f"{self.dir}/pebble.log", "w"), stderr=subprocess.STDOUT)
        self._wait()

    @property
    def directory(self):
        return f"https://localhost:{self.acme_port}/dir"

    def edge_env(self, **extra):
        """The edge's settings to order from this CA."""
        return {"BIQLI_EDGE_ACME": "on", "BIQLI_EDGE_ACME_DIRECTORY": self.directory,
                "BIQLI_EDGE_ACME_CA_ROOTS": self.cert, "BIQLI_EDGE_ACME_EMAIL": "ops@example.test", **extra}

    def _context(self):
        return ssl.create_default_context(cafile=self.cert)

    def _wait(self, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for p, name in ((self.pebble, "pebble"), (self.dns, "challtestsrv")):
                if p.poll() is not None:
                    raise RuntimeError(f"{name} exited: {self.log()}")
            try:
                urllib.request.urlopen(self.directory, context=self._context(), timeout=2).read()
                urllib.request.urlopen(f"http://127.0.0.1:{self.dns_management}/", timeout=2)
                return
            except urllib.error.HTTPError:
                return  # the DNS management answers 404 at /: it is up
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"pebble never listened: {self.log()}")

    def root(self):
        """Pebble's root certificate (PEM), made at its start."""
        with urllib.request.urlopen(f"https://127.0.0.1:{self.management_port}/roots/0",
                                    context=self._context(), timeout=5) as r:
            return r.read().decode()

    def root_file(self):
        path = f"{self.dir}/root.pem"
        with open(path, "w") as f:
            f.write(self.root())
        return path

    def _dns(self, path, body):
        req = urllib.request.Request(f"http://127.0.0.1:{self.dns_management}{path}",
                                     data=json.dumps(body).encode(), method="POST")
        urllib.request.urlopen(req, timeout=5).read()

    def answer(self, host, address):
        """The DNS answers `address` for `host` from now on."""
        self._dns("/add-a", {"host": host, "addresses": [address]})

    def forget(self, host):
        """The DNS answers `host` with the default (127.0.0.1) again."""
        self._dns("/clear-a", {"host": host})

    def log(self):
        out = ""
        for name in ("pebble.log", "challtestsrv.log"):
            try:
                out += open(f"{self.dir}/{name}").read()[-3000:]
            except OSError:
                pass
        return out

    def stop(self):
        for p in (self.pebble, self.dns):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    p.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def served_certificate(port, sni, cafile=None):
    """The certificate (cryptography's x509) the edge presents for `sni`. With `cafile`
    the handshake verifies the chain against it and the name (else it fails)."""
    from cryptography import x509
    if cafile:
        ctx = ssl.create_default_context(cafile=cafile)
    else:
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        with ctx.wrap_socket(s, server_hostname=sni) as t:
            return x509.load_der_x509_certificate(t.getpeercert(binary_form=True))


class AcmeProxy:
    """Pebble behind a small HTTPS proxy of the tests' own, for what Debian's Pebble (2.4)
    cannot do. Every request passes unchanged, its Host header too (Pebble checks each
    JWS's `url` against the Host and builds its URLs from it, so they all lead back here),
    except:
    - the directory gains `renewalInfo` (RFC 9773), answered here from `window(cert_id)`
      (a pair of Unix times; the CertIDs asked about are kept in `asked`) after
      `window_delay` seconds (a slow CA: two nodes asking at once then overlap);
    - newOrder is answered 429 `rateLimited` with `Retry-After: retry_after` while
      `rate_limited` is above zero;
    - `on_certificate(pem)` runs when Pebble has answered a certificate's download, before
      the edge gets it (the test may take the database away there).
    The payloads of the newOrder requests are kept in `orders`, the certificates issued
    (PEM chains) in `issued`."""

    def __init__(self, pebble, window=None, rate_limited=0, retry_after=4, on_certificate=None, window_delay=0):
        import http.server, threading
        self.pebble = pebble
        self.window = window
        self.rate_limited = rate_limited
        self.retry_after = retry_after
        self.on_certificate = on_certificate
        self.window_delay = window_delay
        self.asked, self.orders, self.issued = [], [], []
        self.lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                proxy._handle(self)

            do_POST = do_HEAD = do_GET

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(pebble.cert, f"{pebble.dir}/pebble-key.pem")
        self.server.socket = ctx.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def directory(self):
        return f"https://localhost:{self.port}/dir"

    def edge_env(self, **extra):
        return {**self.pebble.edge_env(**extra), "BIQLI_EDGE_ACME_DIRECTORY": self.directory}

    def _forward(self, method, path, headers, body):
        import http.client
        ctx = ssl.create_default_context(cafile=self.pebble.cert)
        conn = http.client.HTTPSConnection("localhost", self.pebble.acme_port, context=ctx, timeout=10)
        try:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for name, value in headers:
                if name.lower() not in ("connection", "content-length", "transfer-encoding"):
                    conn.putheader(name, value)
            conn.putheader("Content-Length", str(len(body)))
            conn.endheaders(body)
            r = conn.getresponse()
            return r.status, [(k, v) for k, v in r.getheaders()], r.read()
        finally:
            conn.close()

    def _handle(self, h):
        import base64
        body = h.rfile.read(int(h.headers.get("Content-Length") or 0))
        host = h.headers.get("Host")
        headers = list(h.headers.items())
        if h.command == "GET" and h.path.startswith("/renewal-info/"):
            cert_id = h.path[len("/renewal-info/"):]
            with self.lock:
                self.asked.append(cert_id)
            time.sleep(self.window_delay)
            start, end = self.window(cert_id)
            iso = lambda t: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))  # noqa: E731
            doc = json.dumps({"suggestedWindow": {"start": iso(start), "end": iso(end)}}).encode()
            return self._reply(h, 200, [("Content-Type", "application/json"), ("Retry-After", "3600")], doc)
        if h.command == "POST" and h.path == "/order-plz":
            encoded = json.loads(body).get("payload", "")
            payload = json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))) if encoded else {}
            with self.lock:
                self.orders.append(payload)
                limited = self.rate_limited > 0
                self.rate_limited -= 1 if limited else 0
            if limited:
                _, nonce_headers, _ = self._forward("HEAD", "/nonce-plz", [("Host", host)], b"")
                nonce = dict((k.lower(), v) for k, v in nonce_headers)["replay-nonce"]
                doc = json.dumps({"type": "urn:ietf:params:acme:error:rateLimited",
                                  "detail": "too many new orders (the tests' proxy)", "status": 429}).encode()
                return self._reply(h, 429, [("Content-Type", "application/problem+json"), ("Replay-Nonce", nonce),
                                            ("Retry-After", str(self.retry_after))], doc)
        status, out_headers, out = self._forward(h.command, h.path, headers, body)
        if status == 200 and dict((k.lower(), v) for k, v in out_headers).get(
                "content-type", "").startswith("application/pem-certificate-chain"):
            with self.lock:
                self.issued.append(out)
            if self.on_certificate:
                self.on_certificate(out)
        if h.command == "GET" and h.path == "/dir" and status == 200:
            directory = json.loads(out)
            directory["renewalInfo"] = f"https://{host}/renewal-info"
            out = json.dumps(directory).encode()
        keep = [(k, v) for k, v in out_headers if k.lower() not in ("connection", "content-length", "transfer-encoding")]
        self._reply(h, status, keep, out, head=h.command == "HEAD")

    @staticmethod
    def _reply(h, status, headers, body, head=False):
        h.send_response(status)
        for name, value in headers:
            h.send_header(name, value)
        h.send_header("Content-Length", str(len(body)))
        h.send_header("Connection", "close")
        h.end_headers()
        if not head:
            h.wfile.write(body)
        h.close_connection = True

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def cert_id(certificate):
    """The certificate's CertID (RFC 9773, section 4.1): the base64url of its authority key
    identifier, a dot, the base64url of its serial number's DER content octets."""
    import base64
    from cryptography import x509
    b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()  # noqa: E731
    aki = certificate.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier
    serial = certificate.serial_number
    return b64(aki) + "." + b64(serial.to_bytes(serial.bit_length() // 8 + 1, "big"))
