"""A small client of the workspace API (/api/v1) and the CLI, for the management black-box tests."""
import backend
import json, os, subprocess, tempfile

from edge import BINARY, Edge, request

FINGERPRINT = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
FINGERPRINT_RAW = FINGERPRINT.replace(":", "").lower()


class Response:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.raw = status, headers, body
        try:
            self.json = json.loads(body) if body else None
        except ValueError:
            self.json = None

    @property
    def code(self):
        return (self.json or {}).get("error", {}).get("code")

    @property
    def details(self):
        return (self.json or {}).get("error", {}).get("details", {})

    @property
    def fields(self):
        """(field, rule) of every broken rule of a validation answer."""
        return [(e["field"], e["rule"]) for e in self.details.get("errors", [])]

    def __repr__(self):
        return f"<{self.status} {self.raw[:400]!r}>"


def cli(args, data_dir, env=None, stdin=None, timeout=30):
    """Runs `biqli-edge ARGS` on `data_dir`; returns CompletedProcess with text output."""
    full_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "BIQLI_EDGE_DATA_DIR": data_dir, **(env or {})}
    # The pass's database unless the caller named one; an empty one (given) is the SQLite file.
    if "BIQLI_EDGE_DATABASE_URL" not in full_env:
        url = backend.database_url(data_dir)
        if url:
            full_env["BIQLI_EDGE_DATABASE_URL"] = url
    return subprocess.run([BINARY, *args], env=full_env, capture_output=True, text=True, input=stdin,
                          timeout=timeout, cwd=data_dir)


def new_key(data_dir, name="test"):
    out = cli(["keys", "create", "--name", name], data_dir)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


class Api:
    """Calls the API of a running edge over plain HTTP with a secret key."""

    def __init__(self, edge, key):
        self.edge, self.key = edge, key

    def call(self, method, path, body=None, headers=None, key=None, raw=None):
        h = {"Authorization": f"Bearer {key or self.key}"} if (key or self.key) else {}
        if key == "":
            h = {}
        if body is not None or raw is not None:
            h["Content-Type"] = "application/json"
        h.update(headers or {})
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else b"")
        status, headers, payload = request(self.edge.http_port, path, method=method, headers=h, body=data)
        return Response(status, headers, payload)

    def get(self, path, **kw):
        return self.call("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.call("POST", path, body, **kw)

    def patch(self, path, body=None, **kw):
        return self.call("PATCH", path, body, **kw)

    def delete(self, path, **kw):
        return self.call("DELETE", path, **kw)

    # ---- fixtures

    def domain(self, hostname, **fields):
        r = self.post("/api/v1/domains", {"hostname": hostname, "verified": True, **fields})
        assert r.status == 201, r
        return r.json

    def app(self, name="App", domains=(), ios=True, android=True, **fields):
        body = {"name": name, "domains": list(domains), **fields}
        if ios:
            body["ios"] = ios if isinstance(ios, dict) else {"teamId": "ABCDE12345", "bundleId": f"com.example.{slug(name)}",
                                                              "appStoreId": "1234567890"}
        if android:
            body["android"] = android if isinstance(android, dict) else {
                "packageName": f"com.example.{slug(name)}", "sha256CertFingerprints": [FINGERPRINT]}
        r = self.post("/api/v1/mobile-apps", body)
        assert r.status == 201, r
        return r.json

    def link(self, domain, url="https://www.example.com/", **fields):
        r = self.post("/api/v1/links", {"domain": domain, "url": url, **fields})
        assert r.status == 201, r
        return r.json


def slug(name):
    return "".join(c for c in name.lower() if c.isalnum()) or "app"


def start_with_key(env=None, args=("serve",)):
    """An edge on a fresh data directory with one workspace key made by the CLI first."""
    data = tempfile.mkdtemp(prefix="edge-mgmt-")
    key = new_key(data)
    edge = Edge(args=args, env=env, data_dir=data)
    return edge, Api(edge, key)
