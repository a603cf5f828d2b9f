"""The published OpenAPI document and the server agree where an outside review found them
apart (issue 14, item 7), and a request with two Authorization headers is refused (item 10b).

Each table is checked both ways: the schema served at /api/v1/openapi.json and the real
server must accept and refuse the same values. tests/blackbox/test_schemathesis.py then lets
schemathesis look for any disagreement left."""
import json, re, tempfile, uuid

import jsonschema, pytest, referencing, referencing.jsonschema
from edge import Conn, Edge, request
from fixtures_data import DEMO_APP_ID, LINK_IDS, api as demo_api, start_demo
from management_api import Api, Response, new_key

DOC_URI = "urn:biqli-edge:openapi"
GENERATED_ID = re.compile(r"^req_[0-9a-f]{32}$")
METHODS = ("get", "post", "patch", "delete", "put")


@pytest.fixture(scope="module")
def world():
    data = tempfile.mkdtemp(prefix="edge-contract-")
    key = new_key(data)
    edge = Edge(data_dir=data)
    api = Api(edge, key)
    doc = api.get("/api/v1/openapi.json", key="").json
    registry = referencing.Registry().with_resource(
        DOC_URI, referencing.Resource.from_contents(doc, default_specification=referencing.jsonschema.DRAFT202012))
    api.domain(host := f"c{uuid.uuid4().hex[:8]}.example.test")
    yield api, doc, registry, host
    edge.kill()


def documented(registry, pointer, value):
    """True when `value` is valid against the document's schema at `pointer`."""
    return jsonschema.Draft202012Validator({"$ref": f"{DOC_URI}#{pointer}"}, registry=registry).is_valid(value)


def raw(api, method, path, headers, body=b""):
    """One request whose header fields are sent exactly as listed (names may repeat)."""
    c = Conn(api.edge.http_port)
    try:
        fields = [("Host", "localhost"), ("Connection", "close"), *headers]
        if body or method in ("POST", "PATCH"):
            fields.append(("Content-Length", str(len(body))))
        head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields) + "\r\n"
        c.send(head.encode() + body)
        return Response(*c.response())
    finally:
        c.close()


def operations(doc):
    for path, item in doc["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


# ---------------------------------------------------------------- X-Biq-Request-Id


BAD_REQUEST_IDS = ["short", "has spaces in it", "x" * 101, "semi;colon-1234", "caf\u00e9-1234"]


@pytest.mark.parametrize("value", BAD_REQUEST_IDS)
def test_a_request_id_that_breaks_the_documented_pattern_is_refused(world, value):
    api, doc, registry, _ = world
    assert not documented(registry, "/components/parameters/RequestId/schema", value)
    auth = [("Authorization", f"Bearer {api.key}")]
    for path, headers in (("/api/v1/domains", auth), ("/api/v1/openapi.json", [])):
        r = raw(api, "GET", path, headers + [("X-Biq-Request-Id", value)])
        assert r.status == 400 and r.code == "validation_error", r
        assert r.details["field"] == "X-Biq-Request-Id", r
        # The answer carries an id of its own, never the refused one.
        assert GENERATED_ID.match(r.headers["x-biq-request-id"]) and r.json["request_id"] == r.headers[
            "x-biq-request-id"]


def test_a_valid_request_id_is_echoed_and_two_are_refused(world):
    api, _, registry, _ = world
    assert documented(registry, "/components/parameters/RequestId/schema", "req_mine.1~2-3")
    r = api.get("/api/v1/domains", headers={"X-Biq-Request-Id": "req_mine.1~2-3"})
    assert r.status == 200 and r.headers["x-biq-request-id"] == "req_mine.1~2-3"
    auth = ("Authorization", f"Bearer {api.key}")
    r = raw(api, "GET", "/api/v1/domains", [auth, ("X-Biq-Request-Id", "req_one_1234"),
                                            ("X-Biq-Request-Id", "req_two_1234")])
    assert r.status == 400 and r.details["field"] == "X-Biq-Request-Id", r
    r = raw(api, "POST", "/api/v1/domains", [auth, ("Idempotency-Key", "idem_one_1234"),
                                             ("Idempotency-Key", "idem_two_1234")],
            json.dumps({"hostname": f"i{uuid.uuid4().hex[:8]}.example.test"}).encode())
    assert r.status == 400 and r.details["field"] == "Idempotency-Key", r


# ---------------------------------------------------------------- two Authorization headers


def test_two_authorization_headers_are_refused_whatever_they_hold(world):
    api, _, _, _ = world
    good = ("Authorization", f"Bearer {api.key}")
    bad = ("Authorization", "Bearer biqli_sk_" + "Z" * 43)
    assert raw(api, "GET", "/api/v1/domains", [good]).status == 200
    for headers in ([good, good], [good, bad], [bad, good], [good, ("Authorization", "Basic eDp5")]):
        r = raw(api, "GET", "/api/v1/domains", headers)
        assert r.status == 401 and r.code == "invalid_token", (headers[1], r)
        assert r.headers["www-authenticate"].startswith("Bearer")
    # A write is refused before it runs.
    host = f"t{uuid.uuid4().hex[:8]}.example.test"
    r = raw(api, "POST", "/api/v1/domains", [good, good], json.dumps({"hostname": host}).encode())
    assert r.status == 401 and r.code == "invalid_token", r
    assert api.get(f"/api/v1/domains/{host}").status == 404


# ---------------------------------------------------------------- bodies


def test_a_create_or_update_without_a_body_is_400_as_the_document_requires_one(world):
    api, doc, _, host = world
    app = api.app(f"Body {uuid.uuid4().hex[:6]}", ios=False)
    link = api.link(host)
    for path, method in (("/api/v1/domains/{hostname}", "patch"), ("/api/v1/mobile-apps/{id}", "patch"),
                         ("/api/v1/links/{id}", "patch"), ("/api/v1/domains", "post"),
                         ("/api/v1/mobile-apps", "post"), ("/api/v1/links", "post")):
        assert doc["paths"][path][method]["requestBody"]["required"] is True
    before = api.get(f"/api/v1/links/{link['id']}").json
    for path in (f"/api/v1/domains/{host}", f"/api/v1/mobile-apps/{app['id']}", f"/api/v1/links/{link['id']}",
                 "/api/v1/domains", "/api/v1/mobile-apps", "/api/v1/links"):
        method = "POST" if path.count("/") == 3 else "PATCH"
        for body in (b"", b" \r\n"):
            r = api.call(method, path, raw=body)
            assert r.status == 400 and r.code == "validation_error", (method, path, r)
            assert r.details["field"] == "body", r
    assert api.get(f"/api/v1/links/{link['id']}").json == before
    # An empty object is a PATCH that changes nothing.
    assert api.patch(f"/api/v1/links/{link['id']}", {}).status == 200
    # Rotation documents no body and takes none.
    assert api.post(f"/api/v1/mobile-apps/{app['id']}/keys/rotate").status == 200


# ---------------------------------------------------------------- hostnames


HOSTNAMES = [
    ("go.example.com", True), ("a.b", True), ("xn--bcher-kva.example", True), ("123.example.com", True),
    ("a1.b2.c3", True), ("a" * 63 + ".com", True), (".".join(["a" * 63, "b" * 63, "c" * 63, "d" * 61]), True),
    ("1.2.3.4", False), ("10.0.0.1", False), ("go.example.123", False), ("Go.Example.com", False),
    ("localhost", False), ("-a.example.com", False), ("a-.example.com", False), ("go.example.com.", False),
    ("a..b", False), ("a" * 64 + ".com", False), (".".join(["a" * 63, "b" * 63, "c" * 63, "d" * 62]), False),
    ("go_x.example.com", False), ("b\u00fccher.example", False), ("", False),
]


@pytest.mark.parametrize("hostname,valid", HOSTNAMES)
def test_the_document_and_the_server_agree_on_hostnames(world, hostname, valid):
    api, _, registry, _ = world
    assert documented(registry, "/components/schemas/DomainCreate/properties/hostname", hostname) == valid
    assert documented(registry, "/components/parameters/Hostname/schema", hostname) == valid
    assert documented(registry, "/components/schemas/MobileAppCreate/properties/domains", [hostname]) == valid
    r = api.post("/api/v1/domains", {"hostname": hostname})
    assert r.status in ((201, 409) if valid else (422,)), r


# ---------------------------------------------------------------- URLs


URLS = [
    ("https://www.example.com/", True), ("http://www.example.com/x?y=1#z", True), ("HTTPS://WWW.Example.COM/A", True),
    ("https://192.0.2.1:8443/a", True), ("https://[2001:db8::1]/", True), ("https://[::ffff:192.0.2.1]:443/", True),
    ("https://example.com:00080/", True), ("https://example.com/{x}|^[y]", True), ("https://example.com/caf\u00e9", True),
    ("https://example.com/%41%zz", False), ("https://[be47]/", False), ("https://[1:2]/", False),
    ("ftp://example.com/", False), ("javascript:alert(1)", False), ("https://user@example.com/", False),
    ("https://example.com/a b", False), ("https://example.com:0/", False), ("https://example.com:65536/", False),
    ("https://exa_mple.com/", False), (" https://example.com/", False), ("//example.com/", False),
    ("https://example.com/\"x\"", False), ("https://example.com\\x", False), ("https://", False),
]


@pytest.mark.parametrize("url,valid", URLS)
def test_the_document_and_the_server_agree_on_web_urls(world, url, valid):
    api, _, registry, _ = world
    assert documented(registry, "/components/schemas/DomainCreate/properties/rootUrl", url) == valid
    r = api.post("/api/v1/domains", {"hostname": f"u{uuid.uuid4().hex[:10]}.example.test", "rootUrl": url})
    assert r.status == (201 if valid else 422), r


@pytest.mark.parametrize("url,valid", [(u, v and not u.lower().startswith("http:")) for u, v in URLS])
def test_the_document_and_the_server_agree_on_https_urls(world, url, valid):
    api, _, registry, host = world
    assert documented(registry, "/components/schemas/LinkPreviewInput/properties/imageUrl", url) == valid
    r = api.post("/api/v1/links", {"domain": host, "url": "https://www.example.com/", "preview": {"imageUrl": url}})
    assert r.status == (201 if valid else 422), r


# ---------------------------------------------------------------- Mobile Apps need a platform


def test_the_document_and_the_server_agree_that_an_app_needs_a_platform(world):
    api, doc, registry, _ = world
    n = uuid.uuid4().hex[:8]
    bodies = [
        ({"name": "A"}, False),
        ({"name": "A", "ios": None, "android": None}, False),
        ({"name": "A", "ios": None}, False),
        ({"name": "A", "android": {"packageName": f"com.example.p{n}"}}, True),
        ({"name": "A", "ios": {"teamId": "ABCDE12345", "bundleId": f"com.example.i{n}"}, "android": None}, True),
    ]
    for body, valid in bodies:
        assert documented(registry, "/components/schemas/MobileAppCreate", body) == valid, body
        r = api.post("/api/v1/mobile-apps", body)
        assert r.status == (201 if valid else 422), (body, r)
        if not valid:
            assert r.details["field"] == "ios", r
    # A PATCH may clear one platform only while the other stays (documented on MobileAppUpdate).
    app = api.app(f"Platforms {n}")
    assert "ios or android" in doc["components"]["schemas"]["MobileAppUpdate"]["description"]
    assert api.patch(f"/api/v1/mobile-apps/{app['id']}", {"ios": None}).status == 200
    r = api.patch(f"/api/v1/mobile-apps/{app['id']}", {"android": None})
    assert r.status == 422 and r.details["field"] == "ios", r


# ---------------------------------------------------------------- cursors


def test_the_document_and_the_server_agree_that_a_cursor_is_not_empty(world):
    api, _, registry, _ = world
    assert not documented(registry, "/components/parameters/Cursor/schema", "")
    assert documented(registry, "/components/parameters/Cursor/schema", "\u00e9" * 256)
    assert not documented(registry, "/components/parameters/Cursor/schema", "a" * 257)
    for path in ("/api/v1/domains", "/api/v1/mobile-apps", "/api/v1/links"):
        r = api.get(path + "?cursor=")
        assert r.status == 400 and r.details["field"] == "cursor", r
        # 256 characters of two bytes each are within the documented maxLength.
        assert api.get(path + "?cursor=" + "%C3%A9" * 256).status == 200
        assert api.get(path + "?cursor=" + "a" * 257).status == 400


# ---------------------------------------------------------------- 414


def test_every_operation_documents_the_transports_414_and_gets_it(world):
    api, doc, _, _ = world
    for path, method, op in operations(doc):
        answer = op["responses"].get("414")
        assert answer, f"{op['operationId']} does not document 414"
        while "$ref" in answer:
            answer = doc["components"]["responses"][answer["$ref"].rsplit("/", 1)[1]]
        assert "text/plain" in answer["content"], op["operationId"]
        concrete = path.replace("{hostname}", "x.example.test").replace("{id}", "biq_lnk_" + "0" * 26)
        status, headers, body = request(api.edge.http_port, concrete + "?cursor=" + "a" * 9000,
                                        method=method.upper(), headers={"Authorization": f"Bearer {api.key}"})
        assert status == 414 and headers["content-type"].startswith("text/plain"), (op["operationId"], status)


# ---------------------------------------------------------------- the demo's ids


def test_the_demo_ids_match_the_documented_ulid_patterns(edge_factory):
    edge = start_demo(edge_factory)
    doc = json.loads(request(edge.http_port, "/api/v1/openapi.json")[2])
    link_id = re.compile(doc["components"]["schemas"]["Link"]["properties"]["id"]["pattern"])
    app_id = re.compile(doc["components"]["schemas"]["MobileApp"]["properties"]["id"]["pattern"])
    links = demo_api(edge, "GET", "/links")["data"]
    assert {link["key"]: link["id"] for link in links} == LINK_IDS
    for link in links:
        assert link_id.match(link["id"]), link["id"]
        assert demo_api(edge, "GET", f"/links/{link['id']}")["id"] == link["id"]
    assert app_id.match(DEMO_APP_ID)
    assert [a["id"] for a in demo_api(edge, "GET", "/mobile-apps")["data"]] == [DEMO_APP_ID]
