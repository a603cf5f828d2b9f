"""Seeding, changing and inspecting the data of a running edge, for the black-box tests.

The edge is started with `serve --demo` (domain go.example.test, also links.example.test, one
app with iOS and Android, links `invite`, `promo`, `docs`). Changes go through the helpers
below and nowhere else, so that they can switch to the workspace API (`/api/v1`, issue 4)
once it exists without touching a test.

Today they write straight into the edge's SQLite file with Python's sqlite3, in the JSON
shapes of Sources/Store/SQLite/ModelCodec.swift. The edge notices commits by another process
(`PRAGMA data_version`, polled about once a second) and then, in one step, drops every cached
link and swaps in a freshly loaded catalog of domains and apps. To wait for that without blind
sleeps, each change commits, in the same transaction, a new root URL for a sentinel domain
(`sync.edge.test`), and `sync` asks for `/` there with HEAD until the new URL comes back. Domains
are only ever read from the catalog, so from then on the edge serves everything that
transaction wrote. (A sentinel *link* would not do: a link missing from a loop's cache is read
straight from SQLite and can show the commit up to a second before the catalog does.)

Reading (`clicks`, `handoffs`) also goes to the file: the tests check what was stored, not only
what was answered. Click writes that do not gate a response (desktop, fallback redirects) are
not awaited by the edge; `barrier` makes one Android visit, whose response waits for its own
durable write, which the single writer commits after every write queued before it. The
barrier's click and handoff are left out of `clicks` and `handoffs`.
"""
import hashlib, json, os, re, sqlite3, time, urllib.parse, uuid

from edge import request

DEMO_HOST = "go.example.test"
SECOND_HOST = "links.example.test"
DEMO_APP_ID = "biq_mapp_01JDEM0APP00000000000000AA"
DEMO_TEAM = "ABCDE12345"
DEMO_BUNDLE = "com.example.demo"
DEMO_PACKAGE = "com.example.demo"
DEMO_FINGERPRINT = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
DEMO_APP_STORE_ID = "1234567890"
LINK_IDS = {
    "invite": "biq_lnk_01JDEM0L1NK000000000000001",
    "promo": "biq_lnk_01JDEM0L1NK000000000000002",
    "docs": "biq_lnk_01JDEM0L1NK000000000000003",
}
SYNC_HOST = "sync.edge.test"

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


def start_demo(edge_factory, env=None):
    """A demo edge with its keys read from the banner: `edge.secret_key`, `edge.publishable_key`."""
    edge = edge_factory(args=("serve", "--demo"), env=env)
    deadline = time.time() + 10
    while time.time() < deadline:
        text = "\n".join(edge.lines)
        sk = re.search(r"Demo workspace secret key \(shown once\):\s+(biqli_sk_[A-Za-z0-9_-]+)", text)
        pk = re.search(r"Demo app publishable key \(shown once\):\s+(biqli_mobile_pk_[A-Za-z0-9_-]+)", text)
        if sk and pk:
            edge.secret_key, edge.publishable_key = sk.group(1), pk.group(1)
            edge.barrier_clicks = set()
            return edge
        time.sleep(0.02)
    raise AssertionError(f"no demo banner: {edge.lines}")


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
    db = sqlite3.connect(os.path.join(edge.dir, "edge.sqlite3"), timeout=10, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA foreign_keys = ON")
    return db


def _rows(edge, sql, args=()):
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
    for r in _rows(edge, "SELECT * FROM clicks ORDER BY at, rowid"):
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


def handoff(edge, token):
    """The handoff stored for `token` (looked up by its SHA-256, as the resolver does), or None."""
    rows = _rows(edge, "SELECT * FROM handoffs WHERE token_hash = ?", (hashlib.sha256(token.encode()).digest(),))
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


# ---------------------------------------------------------------- changing the data


def _now():
    return int(time.time() * 1000)


def _write(edge, statements):
    """Runs `statements` ([(sql, args)]) plus the sentinel bump in one transaction, then `sync`."""
    marker = uuid.uuid4().hex
    now = _now()
    db = _connect(edge)
    try:
        db.execute("BEGIN IMMEDIATE")
        for sql, args in statements:
            db.execute(sql, args)
        db.execute(
            "INSERT INTO domains (hostname, verified, deep_view_enabled, root_url, not_found_url, created_at,"
            " updated_at) VALUES (?, 1, 1, ?, NULL, ?, ?)"
            " ON CONFLICT (hostname) DO UPDATE SET root_url = excluded.root_url",
            (SYNC_HOST, f"https://sync.invalid/{marker}", now, now))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    finally:
        db.close()
    sync(edge, marker)


def sync(edge, marker, timeout=10):
    """Waits until the edge serves the transaction that wrote `marker` (see the module doc)."""
    deadline = time.time() + timeout
    want = f"https://sync.invalid/{marker}"
    while True:
        status, headers, _ = visit(edge, "/", ua=UA_DESKTOP, host=SYNC_HOST, method="HEAD")
        if status == 302 and headers.get("location") == want:
            return
        if time.time() > deadline:
            raise AssertionError(f"the edge never picked up the change ({status} {headers.get('location')})")
        time.sleep(0.05)


_DOMAIN_FIELDS = {"deep_view_enabled", "root_url", "not_found_url", "verified"}
_LINK_FIELDS = {"url", "enabled", "route", "referral_code", "deep_view", "app_id", "preview_title",
                "preview_description", "preview_image_url", "has_preview"}


def update_domain(edge, hostname, **fields):
    """Changes columns of a domain: deep_view_enabled, root_url, not_found_url, verified."""
    assert fields and set(fields) <= _DOMAIN_FIELDS, fields
    sets = ", ".join(f"{k} = ?" for k in fields)
    _write(edge, [(f"UPDATE domains SET {sets}, updated_at = ? WHERE hostname = ?",
                   (*fields.values(), _now(), hostname))])


def update_link(edge, key, host=DEMO_HOST, metadata=None, dynamic_keys=None, **fields):
    """Changes a link (url, enabled, route, referral_code, deep_view, metadata, dynamic_keys...)."""
    assert set(fields) <= _LINK_FIELDS, fields
    if metadata is not None:
        fields["metadata"] = json.dumps(metadata, separators=(",", ":"))
    if dynamic_keys is not None:
        fields["dynamic_keys"] = json.dumps(dynamic_keys)
    assert fields
    sets = ", ".join(f"{k} = ?" for k in fields)
    _write(edge, [(f"UPDATE links SET {sets}, updated_at = ? WHERE domain = ? AND key = ?",
                   (*fields.values(), _now(), host, key))])


def ios_platform(team_id, bundle_id, app_store_id=None, fallback_url=None, web_credentials=False,
                 app_clip_bundle_id=None):
    return {"teamId": team_id, "bundleId": bundle_id, "appStoreId": app_store_id, "testFlightUrl": None,
            "fallbackUrl": fallback_url, "probabilisticFallback": False, "probabilisticWindowMinutes": 60,
            "sdkEnabled": True, "webCredentials": web_credentials, "appClipBundleId": app_clip_bundle_id}


def android_platform(package_name, fingerprints, play_store_url=None):
    return {"packageName": package_name, "sha256CertFingerprints": list(fingerprints),
            "playStoreUrl": play_store_url, "fallbackUrl": None, "sdkEnabled": True}


def _app_statements(app_id, name, ios, android, domains, enabled=True):
    now = _now()
    enc = (lambda v: None if v is None else json.dumps(v, separators=(",", ":")))
    out = [(
        "INSERT INTO mobile_apps (id, name, enabled, icon_url, ios, android, handoff_lifetime_seconds,"
        " key_overlap_seconds, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?, 86400, 604800, ?, ?)"
        " ON CONFLICT (id) DO UPDATE SET name = excluded.name, enabled = excluded.enabled, ios = excluded.ios,"
        " android = excluded.android, updated_at = excluded.updated_at",
        (app_id, name, int(enabled), enc(ios), enc(android), now, now))]
    out.append(("DELETE FROM app_domains WHERE app_id = ?", (app_id,)))
    for position, host in enumerate(domains):
        out.append(("INSERT INTO app_domains (app_id, hostname, position) VALUES (?, ?, ?)", (app_id, host, position)))
    return out


def demo_ios(**overrides):
    """The demo app's iOS platform as DemoData.swift creates it, with `overrides` (camelCase keys)."""
    return {**ios_platform(DEMO_TEAM, DEMO_BUNDLE, app_store_id=DEMO_APP_STORE_ID,
                           fallback_url="https://www.example.com/ios"),
            "probabilisticFallback": True, **overrides}


def demo_android(**overrides):
    return {**android_platform(DEMO_PACKAGE, [DEMO_FINGERPRINT]), **overrides}


_APP_FIELDS = {"name", "enabled", "icon_url", "ios", "android", "handoff_lifetime_seconds"}


def update_app(edge, app_id, **fields):
    """Changes columns of an app: ios / android (a platform dict, or None to remove it), enabled,
    name, icon_url, handoff_lifetime_seconds. Attachments stay as they are."""
    assert fields and set(fields) <= _APP_FIELDS, fields
    for k in ("ios", "android"):
        if k in fields and fields[k] is not None:
            fields[k] = json.dumps(fields[k], separators=(",", ":"))
    if "enabled" in fields:
        fields["enabled"] = int(fields["enabled"])
    sets = ", ".join(f"{k} = ?" for k in fields)
    _write(edge, [(f"UPDATE mobile_apps SET {sets}, updated_at = ? WHERE id = ?", (*fields.values(), _now(), app_id))])


def put_domain(edge, hostname, deep_view_enabled=True, root_url=None, not_found_url=None):
    now = _now()
    _write(edge, [(
        "INSERT INTO domains (hostname, verified, deep_view_enabled, root_url, not_found_url, created_at,"
        " updated_at) VALUES (?, 1, ?, ?, ?, ?, ?)",
        (hostname, int(deep_view_enabled), root_url, not_found_url, now, now))])


def put_app(edge, app_id, name, ios=None, android=None, domains=(), enabled=True):
    """Creates or replaces a Mobile App and its domain attachments (like the API's PUT)."""
    _write(edge, _app_statements(app_id, name, ios, android, domains, enabled))


def put_apps(edge, apps):
    """Several `put_app` argument dicts in one transaction (one wait)."""
    statements = []
    for a in apps:
        statements += _app_statements(a["app_id"], a["name"], a.get("ios"), a.get("android"), a.get("domains", ()),
                                      a.get("enabled", True))
    _write(edge, statements)


def attach_domains(edge, app_id, domains):
    """Replaces the hostnames an app is attached to."""
    statements = [("DELETE FROM app_domains WHERE app_id = ?", (app_id,))]
    for position, host in enumerate(domains):
        statements.append(("INSERT INTO app_domains (app_id, hostname, position) VALUES (?, ?, ?)",
                           (app_id, host, position)))
    _write(edge, statements)


def delete_app(edge, app_id):
    """What deleting an app does in the store (SQLiteTransaction.deleteApp): keys revoked, its links
    become web links, attachments removed, app deleted."""
    now = _now()
    _write(edge, [
        ("UPDATE publishable_keys SET revoked_at = ? WHERE app_id = ? AND revoked_at IS NULL", (now, app_id)),
        ("UPDATE links SET app_id = NULL, route = NULL, referral_code = NULL, metadata = NULL, dynamic_keys = NULL,"
         " deep_view = NULL, updated_at = ? WHERE app_id = ?", (now, app_id)),
        ("DELETE FROM app_domains WHERE app_id = ?", (app_id,)),
        ("DELETE FROM mobile_apps WHERE id = ?", (app_id,)),
    ])
