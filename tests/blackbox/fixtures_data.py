"""Seeding, changing and inspecting the data of a running edge, for the black-box tests.

The edge is started with `serve --demo` (domain go.example.test, also links.example.test, one
app with iOS and Android, links `invite`, `promo`, `docs`; the keys printed on stdout).

Changes go through the workspace API (`/api/v1`, issue 4) with the demo's secret key, and
through the helpers below only, so a test says what it changes, not how. The API answers a
write once it is committed and published to the readers, so a change is visible on the very
next request: no waiting.

Reading (`clicks`, `handoffs`) goes to the SQLite file: the tests check what was stored, not
only what was answered. Click writes that do not gate a response (desktop, fallback redirects)
are not awaited by the edge; `barrier` makes one Android visit, whose response waits for its
own durable write, which the single writer commits after every write queued before it. The
barrier's click and handoff are left out of `clicks` and `handoffs`.
"""
import backend
import base64, hashlib, json, os, re, sqlite3, time, urllib.parse, uuid

from edge import Conn, request

DEMO_HOST = "go.example.test"
SECOND_HOST = "links.example.test"
DEMO_APP_ID = "biq_mapp_01JDEM0APP00000000000000AA"
DEMO_TEAM = "ABCDE12345"
DEMO_BUNDLE = "com.example.demo"
DEMO_PACKAGE = "com.example.demo"
DEMO_FINGERPRINT = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
DEMO_APP_STORE_ID = "1234567890"
LINK_IDS = {
    "invite": "biq_lnk_01JDEM0HREF000000000000001",
    "promo": "biq_lnk_01JDEM0HREF000000000000002",
    "docs": "biq_lnk_01JDEM0HREF000000000000003",
}

UA_ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
              "Chrome/126.0.0.0 Mobile Safari/537.36")
UA_IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
             "Version/17.4 Mobile/15E148 Safari/604.1")
UA_INSTAGRAM_IOS = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                    "Mobile/15E148 Instagram 327.0.2.30.93 (iPhone15,3; iOS 17_4_1; en_US; en; scale=3.00; "
                    "1290x2796; 584233440)")
UA_DESKTOP = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
UA_MAC_SAFARI = ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                 "Version/17.4 Safari/605.1.15")

TOKEN_RE = re.compile(r"^bqmh_[A-Za-z0-9_-]{43}$")
HANDOFF_URL_RE = re.compile(r"https://([a-z0-9.-]+)/m/handoff\?biqli_token=(bqmh_[A-Za-z0-9_-]{43})")


# ---------------------------------------------------------------- starting


def start_demo(edge_factory, env=None, data_dir=None):
    """A demo edge with its keys read from the banner (on stderr): `edge.secret_key`, `edge.publishable_key`."""
    edge = edge_factory(args=("serve", "--demo"), env=env, data_dir=data_dir)
    deadline = time.time() + 10
    while time.time() < deadline:
        text = "\n".join(edge.stderr_lines)
        sk = re.search(r"Demo workspace secret key \(shown once\):\s+\"?(biqli_sk_[A-Za-z0-9_-]+)", text)
        pk = re.search(r"Demo app publishable key \(shown once\):\s+\"?(biqli_mobile_pk_[A-Za-z0-9_-]+)", text)
        if sk and pk:
            edge.secret_key, edge.publishable_key = sk.group(1), pk.group(1)
            edge.barrier_clicks = set()
            return edge
        time.sleep(0.02)
    raise AssertionError(f"no demo banner: {edge.stderr_lines} {edge.lines}")


# ---------------------------------------------------------------- requests


def visit(edge, path, ua=None, host=DEMO_HOST, method="GET", headers=None, tls=True):
    """One request to `host` over HTTPS with SNI `host` (or plain HTTP with tls=False)."""
    h = dict(headers or {})
    if ua is not None:
        h["User-Agent"] = ua
    port = edge.https_port if tls else edge.http_port
    return request(port, path, method=method, headers=h, tls=tls, sni=host, host=host)


def referrer_token(location):
    """The token as the Android SDK gets it: Play hands the `referrer` value over decoded once;
    the SDK parses it as a query and takes the first `biqli_token`."""
    query = urllib.parse.urlsplit(location).query
    raw = [item.split("=", 1)[1] for item in query.split("&") if item.startswith("referrer=")][0]
    decoded = urllib.parse.unquote(raw)
    return urllib.parse.parse_qs(decoded)["biqli_token"][0]


def android_token(edge, key="invite", query=""):
    status, headers, _ = visit(edge, f"/{key}{query}", ua=UA_ANDROID)
    assert status == 302, (status, headers)
    return referrer_token(headers["location"])


def deep_view_token(edge, key="invite", query="", ua=UA_IPHONE, headers=None):
    status, h, body = visit(edge, f"/{key}{query}", ua=ua, headers=headers)
    assert status == 200, (status, h)
    found = HANDOFF_URL_RE.findall(body.decode())
    assert len(found) == 1, found
    return found[0][1]


def barrier(edge, key="invite"):
    """Returns once every write the edge queued before now is committed (see the module doc);
    `key` is the mobile link its Android visit uses."""
    token = android_token(edge, key)
    row = handoff(edge, token)
    assert row is not None, "the barrier's handoff was not durable when its response arrived"
    edge.barrier_clicks.add(row["click_id"])
    return token


def resolve_android(edge, token, instance=None):
    """POST /api/v1/track/open as the Android SDK 1.0.0 sends a first open with a Play referrer."""
    event = "open_" + uuid.uuid4().hex
    body = {
        "eventId": event, "appId": DEMO_APP_ID, "appInstanceId": instance or "install_" + uuid.uuid4().hex,
        "platform": "android", "firstOpen": True, "probabilisticAllowed": False, "handoffToken": token,
        "deepLink": None, "domain": None, "appVersion": "1.0", "osVersion": "14", "sdkVersion": "1.0.0",
        "occurredAt": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()), "attestation": None,
    }
    headers = {
        "Authorization": "Bearer " + edge.publishable_key, "Content-Type": "application/json",
        "Accept": "application/json", "Idempotency-Key": event, "X-Biq-SDK": "android",
        "X-Biq-SDK-Version": "1.0.0", "X-Biq-Request-Id": "req_" + uuid.uuid4().hex,
    }
    status, _, raw = request(edge.https_port, "/api/v1/track/open", method="POST", headers=headers,
                             body=json.dumps(body).encode(), tls=True, sni=DEMO_HOST, host=DEMO_HOST)
    return status, json.loads(raw)


# ---------------------------------------------------------------- reading the store


def _connect(edge):
    """Read-only: the tests do not write behind the edge's back (one resolver test ages a
    handoff, since time cannot be moved from outside the process; it says so)."""
    path = os.path.join(edge.dir, "edge.sqlite3")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    db.row_factory = sqlite3.Row
    return db


def write_behind(data_dir, sql, args=()):
    """A write to the store behind the edge's back (the few tests that must age a row or
    make a state the API refuses); `?` placeholders. Returns the rows changed."""
    url = backend.database_url(data_dir)
    if url:
        import psycopg
        with psycopg.connect(url, autocommit=True) as conn:
            return conn.execute(sql.replace("?", "%s"), args).rowcount
    db = sqlite3.connect(os.path.join(data_dir, "edge.sqlite3"), timeout=10)
    try:
        with db:
            return db.execute(sql, args).rowcount
    finally:
        db.close()


def _rows(edge, sql, args=()):
    if edge.database_url:
        return backend.rows(edge.database_url, sql, args)
    db = _connect(edge)
    try:
        return [dict(r) for r in db.execute(sql, args)]
    finally:
        db.close()


def _pairs(text):
    return None if text is None else [tuple(p) for p in json.loads(text)]


def clicks(edge):
    """Every stored click except the barriers', oldest first; `dynamic` as a list of pairs."""
    out = []
    for r in _rows(edge, "SELECT * FROM clicks ORDER BY at, id"):
        if r["id"] in edge.barrier_clicks:
            continue
        r["dynamic"] = _pairs(r["dynamic"])
        out.append(r)
    return out


def handoffs(edge):
    out = []
    for r in _rows(edge, "SELECT * FROM handoffs ORDER BY created_at"):
        if r["click_id"] in edge.barrier_clicks:
            continue
        r["dynamic"] = _pairs(r["dynamic"])
        r["metadata"] = json.loads(r["metadata"])
        out.append(r)
    return out


def handoff_key(token):
    """The storage key of a token, as the edge computes it (Store/Keys/HandoffKey.swift): the
    token body's first 6 bytes (the click time) followed by SHA-256 of the whole token text."""
    body = token[len("bqmh_"):]
    raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    return raw[:6] + hashlib.sha256(token.encode()).digest()


def handoff(edge, token):
    """The handoff stored for `token` (looked up by its storage key, as the resolver does), or None."""
    rows = _rows(edge, "SELECT * FROM handoffs WHERE token_hash = ?", (handoff_key(token),))
    if not rows:
        return None
    r = rows[0]
    r["dynamic"] = _pairs(r["dynamic"])
    r["metadata"] = json.loads(r["metadata"])
    return r


def click(edge, click_id):
    rows = _rows(edge, "SELECT * FROM clicks WHERE id = ?", (click_id,))
    if not rows:
        return None
    rows[0]["dynamic"] = _pairs(rows[0]["dynamic"])
    return rows[0]


# ---------------------------------------------------------------- changing the data (workspace API)


def api(edge, method, path, body=None, expect=(200, 201, 204)):
    """One workspace API call with the demo secret key; the decoded JSON answer (None for no body)."""
    headers = {"Authorization": "Bearer " + edge.secret_key, "Accept": "application/json"}
    raw = b""
    if body is not None:
        headers["Content-Type"] = "application/json"
        raw = json.dumps(body).encode()
    headers["Host"] = DEMO_HOST
    headers["Content-Length"] = str(len(raw))
    head = f"{method} /api/v1{path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
    for attempt in (1, 2):
        # One kept-alive connection per edge: a TLS handshake per call would dominate the tests' time.
        conn = getattr(edge, "_api_conn", None)
        if conn is None:
            conn = edge._api_conn = Conn(edge.https_port, tls=True, sni=DEMO_HOST, timeout=15)
        try:
            conn.send(head.encode() + raw)
            status, response_headers, answer = conn.response()
            break
        except (EOFError, OSError):
            conn.close()
            edge._api_conn = None
            if attempt == 2:
                raise
    if response_headers.get("connection", "").lower() == "close":
        conn.close()
        edge._api_conn = None
    assert status in expect, (method, path, body, status, answer[:2000])
    return json.loads(answer) if answer else None


def link_id(edge, key, host=DEMO_HOST):
    if host == DEMO_HOST and key in LINK_IDS:
        return LINK_IDS[key]
    for link in api(edge, "GET", f"/links?domain={host}")["data"]:
        if link["key"] == key:
            return link["id"]
    raise AssertionError(f"no link {host}/{key}")


def update_link(edge, key, host=DEMO_HOST, **patch):
    """JSON merge patch of a link: url, enabled, mobile={route, referralCode, metadata,
    dynamicKeys, deepView}, preview={title, description, imageUrl}."""
    return api(edge, "PATCH", f"/links/{link_id(edge, key, host)}", patch)


def update_domain(edge, hostname, **patch):
    """JSON merge patch of a domain: deepViewEnabled, rootUrl, notFoundUrl, verified."""
    return api(edge, "PATCH", f"/domains/{hostname}", patch)


def put_domain(edge, hostname, **fields):
    return api(edge, "POST", "/domains", {"hostname": hostname, "verified": True, **fields})


def ios_platform(team_id, bundle_id, app_store_id=None, fallback_url=None, web_credentials=False,
                 app_clip_bundle_id=None):
    return {"teamId": team_id, "bundleId": bundle_id, "appStoreId": app_store_id, "testFlightUrl": None,
            "fallbackUrl": fallback_url, "probabilisticFallback": False, "probabilisticWindowMinutes": 60,
            "sdkEnabled": True, "webCredentials": web_credentials, "appClipBundleId": app_clip_bundle_id}


def android_platform(package_name, fingerprints, play_store_url=None):
    return {"packageName": package_name, "sha256CertFingerprints": list(fingerprints),
            "playStoreUrl": play_store_url, "fallbackUrl": None, "sdkEnabled": True}


def demo_ios(**overrides):
    """The demo app's iOS platform as DemoData.swift creates it, with `overrides` (camelCase keys)."""
    return {**ios_platform(DEMO_TEAM, DEMO_BUNDLE, app_store_id=DEMO_APP_STORE_ID,
                           fallback_url="https://www.example.com/ios"),
            "probabilisticFallback": True, **overrides}


def demo_android(**overrides):
    return {**android_platform(DEMO_PACKAGE, [DEMO_FINGERPRINT]), **overrides}


def create_app(edge, name, ios=None, android=None, domains=()):
    """A new Mobile App; returns its id."""
    return api(edge, "POST", "/mobile-apps", {"name": name, "ios": ios, "android": android,
                                              "domains": list(domains)})["id"]


def update_app(edge, app_id, **patch):
    """JSON merge patch of an app: ios / android (a platform object; None removes the platform),
    enabled, name, domains, handoffLifetimeSeconds."""
    return api(edge, "PATCH", f"/mobile-apps/{app_id}", patch)


def delete_app(edge, app_id):
    """Revokes its keys, turns its links into web links, removes it from the association files."""
    api(edge, "DELETE", f"/mobile-apps/{app_id}")
