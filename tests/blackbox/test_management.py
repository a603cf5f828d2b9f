"""Black-box tests of the workspace API (/api/v1, issue 4) against the real binary: every route,
auth failures, the error envelope, pagination, idempotent writes, key rotation, app deletion,
analytics, and the effect of each change on visits, association files and the resolver."""
import datetime, json, os, re, sqlite3, tempfile, time, uuid
from types import SimpleNamespace

import pytest
from edge import Edge, make_cert, request
from management_api import FINGERPRINT, FINGERPRINT_RAW, Api, cli, new_key

UA_ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
              "Chrome/126.0.0.0 Mobile Safari/537.36")
UA_DESKTOP = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
REQUEST_ID = re.compile(r"^req_[0-9a-f]{32}$")
PK = re.compile(r"^biqli_mobile_pk_[A-Za-z0-9_-]{64}$")
SECURE_HOST = "secure.example.test"


@pytest.fixture(scope="module")
def env():
    data = tempfile.mkdtemp(prefix="edge-mgmt-")
    os.makedirs(f"{data}/certs", exist_ok=True)
    make_cert(f"{data}/certs/{SECURE_HOST}.pem", [SECURE_HOST])
    key = new_key(data)
    edge = Edge(env={"BIQLI_EDGE_HTTPS_REDIRECT": "off"}, data_dir=data)
    yield SimpleNamespace(edge=edge, api=Api(edge, key), data=data, key=key)
    edge.kill()


@pytest.fixture
def api(env):
    return env.api


def host():
    return f"t{uuid.uuid4().hex[:12]}.example.test"


def visit(edge, hostname, path, ua=UA_DESKTOP):
    return request(edge.http_port, path, headers={"User-Agent": ua}, host=hostname)


def resolve(edge, pk, app_id, platform="android", deep_link=None):
    event = "open_" + uuid.uuid4().hex
    body = {"eventId": event, "appId": app_id, "appInstanceId": "install_" + uuid.uuid4().hex, "platform": platform,
            "firstOpen": True, "probabilisticAllowed": False, "deepLink": deep_link, "sdkVersion": "1.0.0"}
    headers = {"Authorization": f"Bearer {pk}", "Content-Type": "application/json", "Idempotency-Key": event,
               "X-Biq-SDK": platform, "X-Biq-SDK-Version": "1.0.0", "X-Biq-Request-Id": "req_" + uuid.uuid4().hex}
    status, _, payload = request(edge.http_port, "/api/v1/track/open", "POST", headers, json.dumps(body).encode())
    return status, json.loads(payload)


def association(edge, hostname, which):
    path = "/.well-known/apple-app-site-association" if which == "aasa" else "/.well-known/assetlinks.json"
    status, _, body = request(edge.http_port, path, host=hostname)
    return status, (json.loads(body) if status == 200 else None)


def iso(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def eventually(check, timeout=5.0):
    deadline = time.time() + timeout
    while True:
        value = check()
        if value or time.time() > deadline:
            return value
        time.sleep(0.05)


# ---------------------------------------------------------------- envelope, routing


def test_every_answer_carries_a_request_id_and_no_store(api):
    h = host()
    answers = [
        api.post("/api/v1/domains", {"hostname": h}),  # 201
        api.get(f"/api/v1/domains/{h}"),  # 200
        api.get("/api/v1/domains", key=""),  # 401
        api.get("/api/v1/domains/none.example.test"),  # 404
        api.call("PUT", "/api/v1/domains"),  # 405
        api.post("/api/v1/domains", {"hostname": "Bad"}),  # 422
        api.post("/api/v1/domains", raw=b"{"),  # 400
        api.post("/api/v1/domains", {"hostname": h}),  # 409
        api.get("/api/v1/openapi.json", key=""),  # 200, public
    ]
    assert [a.status for a in answers] == [201, 200, 401, 404, 405, 422, 400, 409, 200]
    for a in answers:
        assert REQUEST_ID.match(a.headers["x-biq-request-id"]), a
        assert a.headers["cache-control"] == "no-store"
        assert a.headers["content-type"] == "application/json"
    for a in answers[2:8]:
        assert set(a.json) == {"error", "request_id"} and a.json["request_id"] == a.headers["x-biq-request-id"]
        assert a.json["error"]["code"] and a.json["error"]["message"]


def test_a_valid_request_id_is_echoed_and_an_invalid_one_replaced(api):
    r = api.get("/api/v1/domains/none.example.test", headers={"X-Biq-Request-Id": "req_abc.DEF~123-_x"})
    assert r.headers["x-biq-request-id"] == "req_abc.DEF~123-_x" and r.json["request_id"] == "req_abc.DEF~123-_x"
    for bad in ["short", "has space in it", "x" * 101, "req_é1234567"]:
        r = api.get("/api/v1/domains", headers={"X-Biq-Request-Id": bad})
        assert REQUEST_ID.match(r.headers["x-biq-request-id"]), bad


@pytest.mark.parametrize("path", ["/api/v1", "/api/v1/", "/api/v1/nope", "/api/v1/domains/a.example.test/extra",
                                  "/api/v1/links/", "/api/v1/mobile-apps/x/keys", "/api/v1/keys"])
def test_unknown_routes_under_api_v1_are_json_404(api, path):
    r = api.get(path)
    assert r.status == 404 and r.code == "resource_not_found", r


@pytest.mark.parametrize("method,path,allowed", [
    ("PUT", "/api/v1/domains", {"GET", "HEAD", "POST"}),
    ("DELETE", "/api/v1/links", {"GET", "HEAD", "POST"}),
    ("POST", "/api/v1/links/biq_lnk_01JDEM0HREF000000000000001", {"GET", "HEAD", "PATCH", "DELETE"}),
    ("GET", "/api/v1/mobile-apps/biq_mapp_x/keys/rotate", {"POST"}),
    ("OPTIONS", "/api/v1/mobile-apps", {"GET", "HEAD", "POST"}),
    ("POST", "/api/v1/openapi.json", {"GET", "HEAD"}),
])
def test_a_wrong_method_is_405_with_allow(api, method, path, allowed):
    r = api.call(method, path)
    assert r.status == 405 and r.code == "method_not_allowed", r
    assert set(m.strip() for m in r.headers["allow"].split(",")) == allowed


def test_the_resolver_keeps_its_own_route_and_errors(api):
    r = api.post("/api/v1/track/open", {})
    assert r.json["error"]["code"] in ("invalid_headers", "invalid_mobile_key") and "requestId" in r.json, r
    r = api.get("/api/v1/track/open")
    assert r.status == 405 and r.headers["allow"] == "POST"


def test_head_answers_like_get_without_a_body(env):
    status, headers, body = request(env.edge.http_port, "/api/v1/domains", "HEAD",
                                    {"Authorization": f"Bearer {env.key}"})
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0


def test_the_openapi_document_needs_no_key_and_names_the_public_url(api):
    r = api.get("/api/v1/openapi.json", key="")
    assert r.status == 200 and r.json["openapi"] == "3.1.0"
    assert r.json["servers"] == [{"url": "https://localhost:8443"}]


# ---------------------------------------------------------------- auth


def revoked_key(env):
    key = new_key(env.data, "to-revoke")
    listed = json.loads(cli(["keys", "list", "--json"], env.data).stdout)
    key_id = [k["id"] for k in listed if k["name"] == "to-revoke" and k["hint"] == key[-4:]][0]
    assert cli(["keys", "revoke", key_id], env.data).returncode == 0
    return key


@pytest.mark.parametrize("case", ["missing", "basic", "empty_bearer", "unknown", "malformed", "revoked",
                                  "browser_pk", "mobile_pk", "secret_with_space"])
def test_auth_failures_are_401_invalid_token(env, api, case):
    unknown = "biqli_sk_" + "A" * 43
    headers = {
        "missing": {},
        "basic": {"Authorization": "Basic dXNlcjpwYXNz"},
        "empty_bearer": {"Authorization": "Bearer "},
        "unknown": {"Authorization": f"Bearer {unknown}"},
        "malformed": {"Authorization": "Bearer biqli_sk_short"},
        "revoked": lambda: {"Authorization": f"Bearer {revoked_key(env)}"},
        "browser_pk": {"Authorization": "Bearer biqli_pk_" + "B" * 43},
        "mobile_pk": lambda: {"Authorization": f"Bearer {api.app(name='Auth ' + uuid.uuid4().hex[:6])['publishableKey']}"},
        "secret_with_space": {"Authorization": f"Bearer {env.key} x"},
    }[case]
    headers = headers() if callable(headers) else headers
    for method, path in [("GET", "/api/v1/domains"), ("POST", "/api/v1/links"), ("DELETE", "/api/v1/links/x")]:
        r = api.call(method, path, headers=headers, key="")
        assert r.status == 401 and r.code == "invalid_token", (case, r)
        assert r.headers["www-authenticate"].startswith("Bearer")
        assert env.key not in r.raw.decode()


def test_the_bearer_scheme_is_case_insensitive(env, api):
    r = api.get("/api/v1/domains", key="", headers={"Authorization": f"bearer {env.key}"})
    assert r.status == 200


def test_keys_made_and_revoked_by_the_cli_take_effect_on_a_running_edge(env, api):
    key = new_key(env.data, "live")
    assert api.get("/api/v1/domains", key=key).status == 200
    listed = json.loads(cli(["keys", "list", "--json"], env.data).stdout)
    key_id = [k["id"] for k in listed if k["name"] == "live"][0]
    assert cli(["keys", "revoke", key_id], env.data).returncode == 0
    assert api.get("/api/v1/domains", key=key).status == 401


# ---------------------------------------------------------------- domains


def test_domain_create_get_list_update_delete(api):
    h = host()
    r = api.post("/api/v1/domains", {"hostname": h})
    assert r.status == 201
    d = r.json
    assert d["hostname"] == h and d["verified"] is False and d["deepViewEnabled"] is True
    assert d["httpsActive"] is False and d["rootUrl"] is None and d["notFoundUrl"] is None
    assert d["createdAt"].endswith("Z") and d["createdAt"] == d["updatedAt"]
    assert api.get(f"/api/v1/domains/{h}").json == d
    assert h in [x["hostname"] for x in all_pages(api, "/api/v1/domains")]
    r = api.patch(f"/api/v1/domains/{h}", {"verified": True, "rootUrl": "https://www.example.com/home"})
    assert r.status == 200 and r.json["verified"] is True and r.json["rootUrl"] == "https://www.example.com/home"
    assert r.json["deepViewEnabled"] is True and r.json["createdAt"] == d["createdAt"]
    r = api.patch(f"/api/v1/domains/{h}", {"rootUrl": None})
    assert r.status == 200 and r.json["rootUrl"] is None and r.json["verified"] is True
    r = api.delete(f"/api/v1/domains/{h}")
    assert r.status == 200 and r.json == {"hostname": h, "deleted": True}
    assert api.get(f"/api/v1/domains/{h}").status == 404
    assert api.delete(f"/api/v1/domains/{h}").status == 404
    assert api.patch(f"/api/v1/domains/{h}", {"verified": False}).status == 404


@pytest.mark.sqlite_only
def test_a_change_that_cannot_commit_is_500_and_changes_nothing(tmp_path):
    """Another process holds the database's write lock past BIQLI_EDGE_STORE_LOCK_WAIT_MS: the
    change is the 500 envelope and leaves nothing behind; the same call afterwards works."""
    data = str(tmp_path)
    key = new_key(data)
    edge = Edge(env={"BIQLI_EDGE_HTTPS_REDIRECT": "off", "BIQLI_EDGE_STORE_LOCK_WAIT_MS": "300"}, data_dir=data)
    try:
        api = Api(edge, key)
        kept, refused = host(), host()
        assert api.post("/api/v1/domains", {"hostname": kept}).status == 201
        holder = sqlite3.connect(os.path.join(data, "edge.sqlite3"), isolation_level=None, timeout=10)
        holder.execute("BEGIN IMMEDIATE")  # the write lock, as an operator's sqlite3 session takes it
        try:
            answers = [api.patch(f"/api/v1/domains/{kept}", {"rootUrl": "https://www.example.com/new"}),
                       api.post("/api/v1/domains", {"hostname": refused})]
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        for r in answers:
            assert r.status == 500 and r.code == "internal_server_error" and r.json["error"]["message"], r
            assert REQUEST_ID.match(r.headers["x-biq-request-id"]), r.headers
        assert api.get(f"/api/v1/domains/{kept}").json["rootUrl"] is None
        assert api.get(f"/api/v1/domains/{refused}").status == 404
        assert api.patch(f"/api/v1/domains/{kept}", {"rootUrl": "https://www.example.com/new"}).status == 200
        assert api.post("/api/v1/domains", {"hostname": refused}).status == 201
    finally:
        edge.kill()


def test_a_taken_hostname_is_409_domain_taken(api):
    h = host()
    api.domain(h)
    r = api.post("/api/v1/domains", {"hostname": h})
    assert r.status == 409 and r.code == "domain_taken" and r.details["hostname"] == h


def test_the_hostname_cannot_be_changed(api):
    h = host()
    api.domain(h)
    r = api.patch(f"/api/v1/domains/{h}", {"hostname": host()})
    assert r.status == 422 and r.fields[0][0] == "hostname"
    assert api.patch(f"/api/v1/domains/{h}", {"hostname": h}).status == 200


def test_https_active_reflects_a_loaded_certificate(api):
    d = api.domain(SECURE_HOST)
    assert d["httpsActive"] is True
    assert api.get(f"/api/v1/domains/{SECURE_HOST}").json["httpsActive"] is True


def test_root_and_not_found_urls_drive_visits(env, api):
    h = host()
    api.domain(h, rootUrl="https://www.example.com/root", notFoundUrl="https://www.example.com/missing")
    status, headers, _ = visit(env.edge, h, "/")
    assert status == 302 and headers["location"] == "https://www.example.com/root"
    status, headers, _ = visit(env.edge, h, "/nothing-here")
    assert status == 302 and headers["location"] == "https://www.example.com/missing"


def test_deleting_a_domain_deletes_its_links_and_detaches_it_from_apps(env, api):
    h1, h2 = host(), host()
    api.domain(h1)
    api.domain(h2)
    app = api.app("Detach " + h1[:8], domains=[h1, h2])
    link = api.link(h1, key="gone")
    assert association(env.edge, h1, "assetlinks")[0] == 200
    assert api.delete(f"/api/v1/domains/{h1}").status == 200
    assert api.get(f"/api/v1/links/{link['id']}").status == 404
    assert api.get(f"/api/v1/mobile-apps/{app['id']}").json["domains"] == [h2]
    assert association(env.edge, h1, "assetlinks")[0] == 404


# ---------------------------------------------------------------- mobile apps


def test_app_create_returns_the_first_publishable_key_once(env, api):
    h = host()
    api.domain(h)
    r = api.post("/api/v1/mobile-apps", {
        "name": "Key Once", "domains": [h],
        "ios": {"teamId": "ABCDE12345", "bundleId": "com.example.keyonce", "appStoreId": "1234567890"},
        "android": {"packageName": "com.example.keyonce", "sha256CertFingerprints": [FINGERPRINT_RAW]}})
    assert r.status == 201, r
    app = r.json
    assert app["id"].startswith("biq_mapp_") and len(app["id"]) == 35
    assert PK.match(app["publishableKey"])
    assert app["android"]["sha256CertFingerprints"] == [FINGERPRINT]
    assert [k["hint"] for k in app["publishableKeys"]] == [app["publishableKey"][-4:]]
    assert app["handoffLifetimeSeconds"] == 86400 and app["keyOverlapSeconds"] == 604800
    got = api.get(f"/api/v1/mobile-apps/{app['id']}").json
    assert "publishableKey" not in got and app["publishableKey"] not in json.dumps(got)
    assert got == {k: v for k, v in app.items() if k != "publishableKey"}
    assert app["id"] in [a["id"] for a in all_pages(api, "/api/v1/mobile-apps")]
    status, body = resolve(env.edge, app["publishableKey"], app["id"])
    assert status == 200 and body["open"]["matchedBy"] == "none", body


def test_an_attached_app_appears_in_both_association_files(env, api):
    h = host()
    api.domain(h)
    app = api.app("Assoc " + h[:8], domains=[h])
    status, aasa = association(env.edge, h, "aasa")
    assert status == 200 and "ABCDE12345." + app["ios"]["bundleId"] in json.dumps(aasa)
    status, links = association(env.edge, h, "assetlinks")
    assert status == 200 and links[0]["target"]["package_name"] == app["android"]["packageName"]
    assert links[0]["target"]["sha256_cert_fingerprints"] == [FINGERPRINT]


def test_app_patch_merges_platforms_one_level_and_null_removes_one(env, api):
    h = host()
    api.domain(h)
    app = api.app("Patch " + h[:8], domains=[h])
    r = api.patch(f"/api/v1/mobile-apps/{app['id']}", {"ios": {"appStoreId": "42"}, "keyOverlapSeconds": 60})
    assert r.status == 200, r
    assert r.json["ios"]["appStoreId"] == "42" and r.json["ios"]["teamId"] == "ABCDE12345"
    assert r.json["keyOverlapSeconds"] == 60 and r.json["name"] == app["name"]
    assert r.json["createdAt"] == app["createdAt"]
    r = api.patch(f"/api/v1/mobile-apps/{app['id']}", {"android": None})
    assert r.status == 200 and r.json["android"] is None
    assert association(env.edge, h, "assetlinks")[0] == 404
    r = api.patch(f"/api/v1/mobile-apps/{app['id']}", {"ios": None})
    assert r.status == 422 and r.fields[0][0] == "ios"


def test_an_app_id_may_appear_once_per_domain(api):
    h = host()
    api.domain(h)
    api.app("First " + h[:6], domains=[h], ios={"teamId": "ABCDE12345", "bundleId": "com.example.same"}, android=False)
    r = api.post("/api/v1/mobile-apps", {"name": "Second", "domains": [h],
                                         "ios": {"teamId": "ABCDE12345", "bundleId": "com.example.same"}})
    assert r.status == 422 and r.code == "validation_error" and r.fields[0][0] == "ios.bundleId", r
    r = api.post("/api/v1/mobile-apps", {"name": "Second", "domains": [h], "android": {
        "packageName": "com.example.other", "sha256CertFingerprints": [FINGERPRINT]}})
    assert r.status == 201


def test_app_domains_must_exist(api):
    r = api.post("/api/v1/mobile-apps", {"name": "No domain", "domains": ["absent.example.test"],
                                         "android": {"packageName": "com.example.nodomain"}})
    assert r.status == 422 and r.fields == [("domains[0]", r.fields[0][1])] and "absent.example.test" in r.fields[0][1]


def test_deleting_an_app_revokes_its_keys_and_removes_its_association_entries(env, api):
    h = host()
    api.domain(h)
    app = api.app("Delete " + h[:8], domains=[h])
    link = api.link(h, key="mob", mobile={"appId": app["id"], "route": "/x"})
    assert resolve(env.edge, app["publishableKey"], app["id"])[0] == 200
    r = api.delete(f"/api/v1/mobile-apps/{app['id']}")
    assert r.status == 200 and r.json == {"id": app["id"], "deleted": True}
    status, body = resolve(env.edge, app["publishableKey"], app["id"])
    assert status == 401 and body["error"]["code"] == "invalid_mobile_key"
    assert association(env.edge, h, "aasa")[0] == 404 and association(env.edge, h, "assetlinks")[0] == 404
    assert api.get(f"/api/v1/links/{link['id']}").json["mobile"] is None
    assert api.get(f"/api/v1/mobile-apps/{app['id']}").status == 404
    assert api.delete(f"/api/v1/mobile-apps/{app['id']}").status == 404


def test_rotation_keeps_the_previous_key_working_until_the_overlap_ends(env, api):
    app = api.app("Rotate " + uuid.uuid4().hex[:6], keyOverlapSeconds=3)
    old = app["publishableKey"]
    before = time.time()
    r = api.post(f"/api/v1/mobile-apps/{app['id']}/keys/rotate")
    assert r.status == 200, r
    new = r.json["publishableKey"]
    assert PK.match(new) and new != old and r.json["appId"] == app["id"] and r.json["hint"] == new[-4:]
    until = iso(r.json["previousKeyExpiresAt"])
    assert before + 2 <= until <= time.time() + 4
    assert resolve(env.edge, new, app["id"])[0] == 200
    assert resolve(env.edge, old, app["id"])[0] == 200
    assert len(api.get(f"/api/v1/mobile-apps/{app['id']}").json["publishableKeys"]) == 2
    time.sleep(max(0, until - time.time()) + 0.3)
    assert resolve(env.edge, old, app["id"])[0] == 401
    assert resolve(env.edge, new, app["id"])[0] == 200
    keys = api.get(f"/api/v1/mobile-apps/{app['id']}").json["publishableKeys"]
    assert [k["hint"] for k in keys] == [new[-4:]] and keys[0]["expiresAt"] is None


def test_rotation_with_no_overlap_ends_the_previous_key_at_once(env, api):
    app = api.app("Rotate0 " + uuid.uuid4().hex[:6], keyOverlapSeconds=0)
    r = api.post(f"/api/v1/mobile-apps/{app['id']}/keys/rotate")
    assert r.status == 200
    assert resolve(env.edge, app["publishableKey"], app["id"])[0] == 401
    assert resolve(env.edge, r.json["publishableKey"], app["id"])[0] == 200


def test_rotation_takes_no_body_and_needs_an_existing_app(api):
    app = api.app("RotateBody " + uuid.uuid4().hex[:6])
    r = api.post(f"/api/v1/mobile-apps/{app['id']}/keys/rotate", {"x": 1})
    assert r.status == 422 and r.fields[0][0] == "x"
    assert api.post(f"/api/v1/mobile-apps/{app['id']}/keys/rotate", {}).status == 200
    assert api.post("/api/v1/mobile-apps/biq_mapp_01ARZ3NDEKTSV4RRFFQ69G5FAV/keys/rotate").status == 404


def test_analytics_counts_clicks_by_kind_and_opens_by_match(env, api):
    h = host()
    api.domain(h)
    app = api.app("Stats " + h[:6], domains=[h])
    api.link(h, key="stats", url="https://www.example.com/stats", mobile={"appId": app["id"], "route": "/s"})
    assert visit(env.edge, h, "/stats", UA_ANDROID)[0] == 302
    assert visit(env.edge, h, "/stats", UA_DESKTOP)[0] == 302
    assert resolve(env.edge, app["publishableKey"], app["id"])[0] == 200
    assert resolve(env.edge, app["publishableKey"], app["id"], deep_link=f"https://{h}/stats")[0] == 200

    def counted():
        r = api.get(f"/api/v1/mobile-apps/{app['id']}/analytics?days=30")
        return r.json if r.json["clicks"]["total"] == 2 else None
    a = eventually(counted)
    assert a, api.get(f"/api/v1/mobile-apps/{app['id']}/analytics").json
    assert a["appId"] == app["id"] and a["days"] == 30
    assert a["clicks"]["byKind"] == {"android_redirect": 1, "deep_view": 0, "ios_fallback": 0, "desktop": 1,
                                     "preview_bot": 0, "play_intent": 0, "app_intent": 0,
                                     "in_app_page": 0}
    assert a["clicks"]["byPlatform"]["android"] == 1 and a["clicks"]["byPlatform"]["desktop"] == 1
    assert a["opens"]["total"] == 2 and a["opens"]["firstOpens"] == 2
    assert a["opens"]["byMatchType"]["none"] == 1 and a["opens"]["byMatchType"]["exact_app_link"] == 1
    assert {(e["matchedBy"], e["firstOpen"], e["sdkVersion"], e["platform"]) for e in a["recentEvents"]} == {
        ("none", True, "1.0.0", "android"), ("exact_app_link", True, "1.0.0", "android")}
    assert a["recentEvents"][0]["at"] >= a["recentEvents"][1]["at"]


@pytest.mark.parametrize("query", ["days=0", "days=366", "days=abc", "days=", "since=1", "days=1&days=2"])
def test_analytics_query_is_checked(api, query):
    app = api.app("Q " + uuid.uuid4().hex[:6])
    r = api.get(f"/api/v1/mobile-apps/{app['id']}/analytics?{query}")
    assert r.status == 400 and r.code == "validation_error", r


@pytest.mark.parametrize("method,suffix", [("GET", ""), ("PATCH", ""), ("DELETE", ""), ("GET", "/analytics"),
                                           ("POST", "/keys/rotate")])
def test_an_unknown_app_is_404(api, method, suffix):
    r = api.call(method, f"/api/v1/mobile-apps/biq_mapp_01ARZ3NDEKTSV4RRFFQ69G5FAV{suffix}",
                 body={} if method == "PATCH" else None)
    assert r.status == 404 and r.code == "resource_not_found"


# ---------------------------------------------------------------- links


def test_link_create_get_update_delete_and_visits_follow(env, api):
    h = host()
    api.domain(h)
    r = api.post("/api/v1/links", {"domain": h, "key": "go", "url": "https://www.example.com/a"})
    assert r.status == 201, r
    link = r.json
    assert link["shortUrl"] == f"https://{h}/go" and link["enabled"] is True
    assert link["mobile"] is None and link["preview"] is None and link["id"].startswith("biq_lnk_")
    assert api.get(f"/api/v1/links/{link['id']}").json == link
    assert visit(env.edge, h, "/go")[1]["location"] == "https://www.example.com/a"
    r = api.patch(f"/api/v1/links/{link['id']}", {"url": "https://www.example.com/b", "key": "went"})
    assert r.status == 200 and r.json["shortUrl"] == f"https://{h}/went" and r.json["createdAt"] == link["createdAt"]
    assert visit(env.edge, h, "/went")[1]["location"] == "https://www.example.com/b"
    assert visit(env.edge, h, "/go")[0] == 404
    r = api.patch(f"/api/v1/links/{link['id']}", {"enabled": False})
    assert r.status == 200 and visit(env.edge, h, "/went")[0] != 302
    r = api.delete(f"/api/v1/links/{link['id']}")
    assert r.status == 200 and r.json == {"id": link["id"], "deleted": True}
    assert api.get(f"/api/v1/links/{link['id']}").status == 404
    assert api.delete(f"/api/v1/links/{link['id']}").status == 404


def test_a_link_without_a_key_gets_a_generated_one(env, api):
    h = host()
    api.domain(h)
    link = api.link(h, url="https://www.example.com/gen")
    assert re.match(r"^[A-Za-z0-9]{7}$", link["key"]) and link["shortUrl"].endswith("/" + link["key"])
    assert visit(env.edge, h, "/" + link["key"])[1]["location"] == "https://www.example.com/gen"


def test_a_key_is_unique_per_domain_409_alias_taken(api):
    h1, h2 = host(), host()
    api.domain(h1)
    api.domain(h2)
    first = api.link(h1, key="dup")
    r = api.post("/api/v1/links", {"domain": h1, "key": "dup", "url": "https://www.example.com/"})
    assert r.status == 409 and r.code == "alias_taken" and r.details["key"] == "dup"
    assert api.link(h2, key="dup")["domain"] == h2
    other = api.link(h1, key="other")
    r = api.patch(f"/api/v1/links/{other['id']}", {"key": "dup"})
    assert r.status == 409 and r.code == "alias_taken"
    assert api.patch(f"/api/v1/links/{first['id']}", {"key": "dup"}).status == 200


def test_keys_are_case_sensitive(api):
    h = host()
    api.domain(h)
    api.link(h, key="Case")
    assert api.link(h, key="case")["key"] == "case"


def test_link_references_must_exist(api):
    r = api.post("/api/v1/links", {"domain": "absent.example.test", "url": "https://www.example.com/"})
    assert r.status == 422 and r.fields[0][0] == "domain"
    h = host()
    api.domain(h)
    r = api.post("/api/v1/links", {"domain": h, "url": "https://www.example.com/",
                                   "mobile": {"appId": "biq_mapp_01ARZ3NDEKTSV4RRFFQ69G5FAV", "route": "/x"}})
    assert r.status == 422 and r.fields[0][0] == "mobile.appId"


def test_link_patch_merges_mobile_and_preview_one_level(api):
    h = host()
    api.domain(h)
    app = api.app("LinkPatch " + h[:6], domains=[h])
    link = api.link(h, key="mm", mobile={"appId": app["id"], "route": "/a", "referralCode": "R1",
                                        "metadata": {"a": 1, "b": 2}, "dynamicKeys": ["ref"]},
                    preview={"title": "T", "description": "D"})
    r = api.patch(f"/api/v1/links/{link['id']}", {"mobile": {"route": "/b", "metadata": {"c": 3}},
                                                  "preview": {"title": None}})
    assert r.status == 200, r
    assert r.json["mobile"] == {"appId": app["id"], "route": "/b", "referralCode": "R1", "metadata": {"c": 3},
                                "dynamicKeys": ["ref"], "deepView": True}
    assert r.json["preview"] == {"title": None, "description": "D", "imageUrl": None}
    r = api.patch(f"/api/v1/links/{link['id']}", {"mobile": None})
    assert r.status == 200 and r.json["mobile"] is None
    r = api.patch(f"/api/v1/links/{link['id']}", {"mobile": {"route": "/c"}})
    assert r.status == 422 and ("mobile.appId", "is required") in r.fields


def test_a_mobile_link_sends_android_to_play_with_its_route_resolvable(env, api):
    h = host()
    api.domain(h)
    app = api.app("Mobile " + h[:6], domains=[h])
    api.link(h, key="inv", url="https://www.example.com/inv",
             mobile={"appId": app["id"], "route": "/invite/accepted", "referralCode": "P42",
                     "metadata": {"campaign": "spring"}, "dynamicKeys": ["ref"]})
    status, headers, _ = visit(env.edge, h, "/inv?ref=BOB", UA_ANDROID)
    assert status == 302 and headers["location"].startswith("https://play.google.com/store/apps/details?id=")
    status, body = resolve(env.edge, app["publishableKey"], app["id"], deep_link=f"https://{h}/inv?ref=BOB")
    assert status == 200 and body["open"]["matchedBy"] == "exact_app_link", body
    assert body["link"]["route"] == "/invite/accepted" and body["attribution"]["referralCode"] == "P42"
    assert body["attribution"]["metadata"] == {"campaign": "spring"} and body["attribution"]["dynamic"] == {"ref": "BOB"}


# ---------------------------------------------------------------- pagination


def all_pages(api, path, limit=100):
    items, cursor = [], None
    for _ in range(1000):
        sep = "&" if "?" in path else "?"
        r = api.get(f"{path}{sep}limit={limit}" + (f"&cursor={cursor}" if cursor else ""))
        assert r.status == 200, r
        items += r.json["data"]
        cursor = r.json["nextCursor"]
        if cursor is None:
            return items
    raise AssertionError("no last page")


def test_links_paginate_by_cursor_and_filter_by_domain(api):
    h, other = host(), host()
    api.domain(h)
    api.domain(other)
    made = [api.link(h, key=f"p{i}")["id"] for i in range(7)]
    api.link(other, key="p0")
    pages = []
    cursor = None
    while True:
        r = api.get(f"/api/v1/links?domain={h}&limit=3" + (f"&cursor={cursor}" if cursor else ""))
        assert r.status == 200 and set(r.json) == {"data", "nextCursor"}
        pages.append([l["id"] for l in r.json["data"]])
        cursor = r.json["nextCursor"]
        if cursor is None:
            break
        assert cursor == pages[-1][-1]
    assert [len(p) for p in pages] == [3, 3, 1]
    assert sum(pages, []) == sorted(made) == made
    r = api.get(f"/api/v1/links?domain={h}&limit=7")
    assert len(r.json["data"]) == 7 and r.json["nextCursor"] is None
    everything = [l["id"] for l in all_pages(api, "/api/v1/links")]
    assert set(made) <= set(everything) and everything == sorted(everything)
    assert api.get("/api/v1/links?domain=absent.example.test").json == {"data": [], "nextCursor": None}


def test_the_default_page_is_50_and_the_largest_100(api):
    h = host()
    api.domain(h)
    for i in range(101):
        api.link(h, key=f"k{i:03d}")
    assert len(api.get(f"/api/v1/links?domain={h}").json["data"]) == 50
    r = api.get(f"/api/v1/links?domain={h}&limit=100")
    assert len(r.json["data"]) == 100 and r.json["nextCursor"]
    r = api.get(f"/api/v1/links?domain={h}&limit=100&cursor={r.json['nextCursor']}")
    assert len(r.json["data"]) == 1 and r.json["nextCursor"] is None


def test_domains_and_apps_paginate_too(api):
    domains = all_pages(api, "/api/v1/domains", limit=1)
    assert [d["hostname"] for d in domains] == sorted(d["hostname"] for d in domains) and len(domains) >= 2
    apps = all_pages(api, "/api/v1/mobile-apps", limit=2)
    assert [a["id"] for a in apps] == sorted(a["id"] for a in apps)


@pytest.mark.parametrize("query,field", [("limit=0", "limit"), ("limit=101", "limit"), ("limit=x", "limit"),
                                         ("cursor=", "cursor"), ("page=2", "page"), ("limit=1&limit=2", "limit"),
                                         ("domain=%zz", "query")])
def test_bad_list_queries_are_400(api, query, field):
    r = api.get(f"/api/v1/links?{query}")
    assert r.status == 400 and r.code == "validation_error" and r.details["field"] == field, r


# ---------------------------------------------------------------- idempotency


def test_a_repeated_idempotent_create_is_replayed_not_repeated(api):
    h = host()
    api.domain(h)
    key = "idem-" + uuid.uuid4().hex
    body = {"domain": h, "url": "https://www.example.com/once"}
    first = api.post("/api/v1/links", body, headers={"Idempotency-Key": key})
    second = api.post("/api/v1/links", body, headers={"Idempotency-Key": key})
    assert first.status == second.status == 201
    assert first.json == second.json and "idempotent-replayed" not in first.headers
    assert second.headers["idempotent-replayed"] == "true"
    assert first.headers["x-biq-request-id"] != second.headers["x-biq-request-id"]
    assert len(api.get(f"/api/v1/links?domain={h}").json["data"]) == 1
    # Key order and spacing do not make another request.
    reordered = api.call("POST", "/api/v1/links", headers={"Idempotency-Key": key},
                         raw=json.dumps({"url": body["url"], "domain": h}, indent=2).encode())
    assert reordered.status == 201 and reordered.json == first.json


def test_an_idempotency_key_reused_with_another_body_is_409(api):
    h = host()
    api.domain(h)
    key = "idem-" + uuid.uuid4().hex
    assert api.post("/api/v1/links", {"domain": h, "url": "https://www.example.com/1"},
                    headers={"Idempotency-Key": key}).status == 201
    r = api.post("/api/v1/links", {"domain": h, "url": "https://www.example.com/2"}, headers={"Idempotency-Key": key})
    assert r.status == 409 and r.code == "idempotency_conflict"
    assert len(api.get(f"/api/v1/links?domain={h}").json["data"]) == 1


def test_a_refused_request_is_not_stored_so_its_corrected_retry_runs(api):
    h = host()
    api.domain(h)
    key = "idem-" + uuid.uuid4().hex
    r = api.post("/api/v1/links", {"domain": h, "url": "javascript:alert(1)"}, headers={"Idempotency-Key": key})
    assert r.status == 422
    r = api.post("/api/v1/links", {"domain": h, "url": "https://www.example.com/"}, headers={"Idempotency-Key": key})
    assert r.status == 201


def test_the_idempotency_scope_is_the_path_and_method(api):
    h1, h2 = host(), host()
    key = "idem-" + uuid.uuid4().hex
    assert api.post("/api/v1/domains", {"hostname": h1}, headers={"Idempotency-Key": key}).status == 201
    link_domain = api.post("/api/v1/links", {"domain": h1, "url": "https://www.example.com/"},
                           headers={"Idempotency-Key": key})
    assert link_domain.status == 201
    r = api.patch(f"/api/v1/domains/{h1}", {"verified": True}, headers={"Idempotency-Key": key})
    assert r.status == 200 and "idempotent-replayed" not in r.headers
    assert api.post("/api/v1/domains", {"hostname": h2}, headers={"Idempotency-Key": "other-" + key}).status == 201


def test_idempotent_deletes_and_patches_replay(api):
    h = host()
    api.domain(h)
    link = api.link(h, key="del")
    key = "idem-" + uuid.uuid4().hex
    a = api.delete(f"/api/v1/links/{link['id']}", headers={"Idempotency-Key": key})
    b = api.delete(f"/api/v1/links/{link['id']}", headers={"Idempotency-Key": key})
    assert a.status == b.status == 200 and a.json == b.json and b.headers["idempotent-replayed"] == "true"
    assert api.delete(f"/api/v1/links/{link['id']}").status == 404
    key = "idem-" + uuid.uuid4().hex
    a = api.patch(f"/api/v1/domains/{h}", {"verified": False}, headers={"Idempotency-Key": key})
    api.patch(f"/api/v1/domains/{h}", {"verified": True})
    b = api.patch(f"/api/v1/domains/{h}", {"verified": False}, headers={"Idempotency-Key": key})
    assert a.json == b.json and b.headers["idempotent-replayed"] == "true"
    assert api.get(f"/api/v1/domains/{h}").json["verified"] is True


def test_a_replayed_app_create_does_not_show_the_key_again(api):
    key = "idem-" + uuid.uuid4().hex
    body = {"name": "Idem " + key[-6:], "android": {"packageName": "com.example.idem" + key[-6:]}}
    first = api.post("/api/v1/mobile-apps", body, headers={"Idempotency-Key": key})
    second = api.post("/api/v1/mobile-apps", body, headers={"Idempotency-Key": key})
    assert first.status == second.status == 201 and PK.match(first.json["publishableKey"])
    assert second.json["publishableKey"] is None
    assert {k: v for k, v in second.json.items() if k != "publishableKey"} == \
        {k: v for k, v in first.json.items() if k != "publishableKey"}
    rotated = api.post(f"/api/v1/mobile-apps/{first.json['id']}/keys/rotate", headers={"Idempotency-Key": key})
    again = api.post(f"/api/v1/mobile-apps/{first.json['id']}/keys/rotate", headers={"Idempotency-Key": key})
    assert PK.match(rotated.json["publishableKey"]) and again.json["publishableKey"] is None
    assert again.json["publishableKeyId"] == rotated.json["publishableKeyId"]
    assert len(api.get(f"/api/v1/mobile-apps/{first.json['id']}").json["publishableKeys"]) == 2


def test_concurrent_requests_with_one_idempotency_key_create_one_resource(api):
    import concurrent.futures
    h = host()
    api.domain(h)
    key = "idem-" + uuid.uuid4().hex
    body = {"domain": h, "url": "https://www.example.com/race"}
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: api.post("/api/v1/links", body, headers={"Idempotency-Key": key}), range(8)))
    assert {a.status for a in answers} == {201} and len({a.json["id"] for a in answers}) == 1
    assert len(api.get(f"/api/v1/links?domain={h}").json["data"]) == 1


@pytest.mark.parametrize("value", ["short", "has space here", "x" * 101, "bad/slash/key"])
def test_a_malformed_idempotency_key_is_400(api, value):
    r = api.post("/api/v1/domains", {"hostname": host()}, headers={"Idempotency-Key": value})
    assert r.status == 400 and r.details["field"] == "Idempotency-Key"


# ---------------------------------------------------------------- bodies


@pytest.mark.parametrize("raw,rule", [
    (b"{", "valid JSON"), (b"[]", "JSON object"), (b'"x"', "JSON object"), (b"null", "JSON object"),
    (b'{"hostname":"a.example.test","hostname":"b.example.test"}', "repeat"),
    (b"{" + b'"a":{' * 16 + b"}" * 17, "16 levels"),
    (b'{"hostname":"' + b"a" * 70000 + b'"}', "65536 bytes"),
    (b'{"hostname":"\xff"}', "UTF-8"),
])
def test_unreadable_bodies_are_400(api, raw, rule):
    r = api.call("POST", "/api/v1/domains", raw=raw)
    assert r.status == 400 and r.code == "validation_error" and r.details["field"] == "body", r
    assert rule in r.details["rule"]


def test_curl_style_form_content_type_is_read_as_json(api):
    h = host()
    r = api.call("POST", "/api/v1/domains", raw=json.dumps({"hostname": h}).encode(),
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status == 201


def test_an_empty_create_names_every_required_field(api):
    r = api.post("/api/v1/links", {})
    assert r.status == 422 and {f for f, _ in r.fields} == {"domain", "url"}
    r = api.post("/api/v1/mobile-apps", {})
    assert r.status == 422 and {f for f, _ in r.fields} == {"name", "ios"}
    # No body at all is a request that cannot be read: the document requires one.
    r = api.post("/api/v1/links", raw=b"")
    assert r.status == 400 and r.fields == [("body", "is required: a JSON object (on a PATCH, {} changes nothing)")]
