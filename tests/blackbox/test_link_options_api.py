"""Black-box tests of the link fields of issue 35 in the workspace API (decision 0032), on the
backend the run selects (BIQLI_TEST_BACKEND): rules, variants, utm, passQuery, expiry, tags and
external ids on create, PATCH, GET and list; the tags resource; ?tagId=; ext_<externalId>; the
documented error codes with the field named; the domain's passQuery."""
import os, tempfile, urllib.parse, uuid
from types import SimpleNamespace

import pytest
from edge import Edge
from management_api import Api, cli, new_key

L = "/api/v1/links"
T = "/api/v1/tags"

OPTIONS = {
    "rules": [
        {"if": {"countries": ["de", "AT"], "platforms": ["ios", "android"], "languages": ["pt"],
                "devices": ["phone"]}, "url": "https://example.com/de", "skipApp": True},
        {"if": {}, "url": "https://example.com/all"},
    ],
    "variants": [{"url": "https://a.example.com/", "weight": 30}, {"url": "https://b.example.com/", "weight": 70}],
    "utm": {"source": "news", "medium": None, "campaign": "spring", "term": None, "content": None},
    "passQuery": True,
    "expiresAt": "2030-01-01T00:00:00.000Z",
    "expiredUrl": "https://example.com/over",
}


@pytest.fixture(scope="module")
def env():
    data = tempfile.mkdtemp(prefix="edge-options-")
    key = new_key(data)
    edge = Edge(env={"BIQLI_EDGE_HTTPS_REDIRECT": "off"}, data_dir=data)
    yield SimpleNamespace(edge=edge, api=Api(edge, key), data=data)
    edge.kill()


@pytest.fixture
def api(env):
    return env.api


def host(api):
    h = f"o{uuid.uuid4().hex[:12]}.example.test"
    api.domain(h)
    return h


def tag(api, name=None, **fields):
    r = api.post(T, {"name": name or f"t-{uuid.uuid4().hex[:8]}", **fields})
    assert r.status == 201, r
    return r.json


def test_every_field_survives_create_get_list_and_a_patch_of_another_field(api):
    h = host(api)
    t = tag(api)
    ext = f"crm {uuid.uuid4().hex}"
    created = api.link(h, **OPTIONS, tagIds=[t["id"]], externalId=ext)
    expected = dict(OPTIONS)
    expected["rules"] = [
        {"if": {"countries": ["DE", "AT"], "platforms": ["ios", "android"], "languages": ["pt"], "devices": ["phone"]},
         "url": "https://example.com/de", "skipApp": True},
        {"if": {}, "url": "https://example.com/all", "skipApp": False},
    ]
    for name, value in {**expected, "tagIds": [t["id"]], "externalId": ext}.items():
        assert created[name] == value, name
    got = api.get(f"{L}/{created['id']}")
    assert got.status == 200 and got.json == created
    listed = api.get(f"{L}?domain={h}").json["data"]
    assert listed == [created]
    patched = api.patch(f"{L}/{created['id']}", {"enabled": False, "utm": {"term": "t"}})
    assert patched.status == 200, patched
    assert patched.json["rules"] == created["rules"] and patched.json["variants"] == created["variants"]
    assert patched.json["utm"] == {**OPTIONS["utm"], "term": "t"}
    cleared = api.patch(f"{L}/{created['id']}", {"rules": None, "variants": [], "utm": None, "passQuery": None,
                                                 "expiresAt": None, "expiredUrl": None, "tagIds": [],
                                                 "externalId": None})
    assert cleared.status == 200, cleared
    for name, empty in {"rules": [], "variants": [], "utm": None, "passQuery": None, "expiresAt": None,
                        "expiredUrl": None, "tagIds": [], "externalId": None}.items():
        assert cleared.json[name] == empty, name


def test_a_plain_link_answers_the_new_fields_empty(api):
    link = api.link(host(api))
    assert (link["rules"], link["variants"], link["utm"], link["passQuery"], link["expiresAt"], link["expiredUrl"],
            link["tagIds"], link["externalId"]) == ([], [], None, None, None, None, [], None)


@pytest.mark.parametrize("fields, field", [
    ({"rules": [{"if": {"countries": []}, "url": "https://e.com/"}]}, "rules[0].if.countries"),
    ({"rules": [{"if": {"countries": ["DEU"]}, "url": "https://e.com/"}]}, "rules[0].if.countries[0]"),
    ({"rules": [{"if": {"devices": ["watch"]}, "url": "https://e.com/"}]}, "rules[0].if.devices[0]"),
    ({"rules": [{"url": "https://e.com/"}]}, "rules[0].if"),
    ({"rules": [{"if": {}, "url": "https://e.com/"}] * 21}, "rules"),
    ({"variants": [{"url": "https://a.com/", "weight": 60}, {"url": "https://b.com/", "weight": 60}]}, "variants"),
    ({"variants": [{"url": "https://a.com/", "weight": 100}]}, "variants"),
    ({"utm": {"source": "s" * 257}}, "utm.source"),
    ({"expiresAt": "next week"}, "expiresAt"),
    ({"expiredUrl": "https://e.com/over"}, "expiredUrl"),
    ({"tagIds": ["biq_tag_01HZZZZZZZZZZZZZZZZZZZZZZZ"]}, "tagIds[0]"),
    ({"externalId": " padded"}, "externalId"),
    ({"externalId": "x" * 256}, "externalId"),
])
def test_bad_input_is_422_naming_the_field_and_stores_nothing(api, fields, field):
    h = host(api)
    r = api.post(L, {"domain": h, "url": "https://e.com/", **fields})
    assert r.status == 422 and r.code == "validation_error", r
    assert field in [f for f, _ in r.fields], r
    assert api.get(f"{L}?domain={h}").json["data"] == []


def test_a_patch_validates_only_what_it_changes(api):
    link = api.link(host(api), variants=[{"url": "https://a.com/", "weight": 50},
                                         {"url": "https://b.com/", "weight": 50}])
    r = api.patch(f"{L}/{link['id']}", {"variants": [{"url": "https://a.com/", "weight": 50}]})
    assert r.status == 422 and ("variants", "must hold 2 to 5 variants (or none)") in r.fields, r
    r = api.patch(f"{L}/{link['id']}", {"passQuery": False})
    assert r.status == 200 and r.json["variants"] == link["variants"] and r.json["passQuery"] is False


def test_external_ids_are_unique_and_address_the_link(api):
    h = host(api)
    ext = f"order/{uuid.uuid4().hex} #1"
    link = api.link(h, externalId=ext)
    other = api.post(L, {"domain": h, "url": "https://e.com/", "externalId": ext})
    assert other.status == 409 and other.code == "external_id_taken", other
    assert other.details["field"] == "externalId" and other.details["linkId"] == link["id"]
    path = f"{L}/ext_" + urllib.parse.quote(ext, safe="")
    got = api.get(path)
    assert got.status == 200 and got.json["id"] == link["id"], got
    patched = api.patch(path, {"url": "https://e.com/changed"})
    assert patched.status == 200 and patched.json["url"] == "https://e.com/changed"
    second = api.link(h)
    taken = api.patch(f"{L}/{second['id']}", {"externalId": ext})
    assert taken.status == 409 and taken.code == "external_id_taken", taken
    assert api.delete(path).status == 200
    assert api.get(path).status == 404
    assert api.get(f"{L}/{link['id']}").status == 404
    # Freed: another link may take it now.
    assert api.patch(f"{L}/{second['id']}", {"externalId": ext}).status == 200


def test_tags_crud_names_unique_ignoring_case_and_filter_and_deletion(api):
    h = host(api)
    name = f"Spring {uuid.uuid4().hex[:6]}"
    a = tag(api, name, color="green")
    assert a["id"].startswith("biq_tag_") and a["color"] == "green" and a["name"] == name
    assert tag(api)["color"] == "gray"
    clash = api.post(T, {"name": name.upper()})
    assert clash.status == 409 and clash.code == "tag_name_taken" and clash.details["tagId"] == a["id"], clash
    bad = api.post(T, {"name": "", "color": "mauve"})
    assert bad.status == 422 and {"name", "color"} <= {f for f, _ in bad.fields}, bad
    assert api.patch(f"{T}/{a['id']}", {"name": name.lower()}).status == 200
    assert api.get(f"{T}/{a['id']}").json["name"] == name.lower()
    assert a["id"] in [t["id"] for t in api.get(T + "?limit=100").json["data"]]
    b = tag(api)
    first = api.link(h, tagIds=[a["id"], b["id"]])
    second = api.link(h, tagIds=[a["id"]])
    api.link(h)
    assert [l["id"] for l in api.get(f"{L}?tagId={a['id']}").json["data"]] == [first["id"], second["id"]]
    page = api.get(f"{L}?tagId={a['id']}&limit=1").json
    assert [l["id"] for l in page["data"]] == [first["id"]] and page["nextCursor"] == first["id"]
    assert [l["id"] for l in api.get(f"{L}?tagId={b['id']}&domain={h}").json["data"]] == [first["id"]]
    assert api.delete(f"{T}/{a['id']}").status == 200
    assert api.get(f"{T}/{a['id']}").status == 404
    assert api.get(f"{L}/{first['id']}").json["tagIds"] == [b["id"]]
    assert api.get(f"{L}/{second['id']}").json["tagIds"] == []
    assert api.get(f"{L}?tagId={a['id']}").json["data"] == []


def test_tags_need_the_links_scopes(env, api):
    out = cli(["keys", "create", "--name", "reader", "--scope", "links.read"], env.data)
    assert out.returncode == 0, out.stderr
    reader = out.stdout.strip()
    assert api.get(T, key=reader).status == 200
    denied = api.post(T, {"name": "x"}, key=reader)
    assert denied.status == 403 and denied.code == "insufficient_scope", denied


def test_the_domain_says_whether_links_pass_the_query_by_default(api):
    h = f"o{uuid.uuid4().hex[:12]}.example.test"
    assert api.domain(h)["passQuery"] is False
    r = api.patch(f"/api/v1/domains/{h}", {"passQuery": True})
    assert r.status == 200 and r.json["passQuery"] is True
    assert api.get(f"/api/v1/domains/{h}").json["passQuery"] is True


# ---------------------------------------------------------------- bulk


def test_bulk_create_answers_per_item_and_a_bad_item_stops_no_other(api):
    h = host(api)
    t = tag(api)
    items = [
        {"domain": h, "key": "one", "url": "https://e.com/1", "tagIds": [t["id"]], "externalId": f"b-{t['id']}"},
        {"domain": h, "key": "two", "url": "javascript:alert(1)"},
        {"domain": h, "key": "one", "url": "https://e.com/dup"},
        {"domain": h, "key": "three", "url": "https://e.com/3", "variants": [{"url": "https://a.com/", "weight": 50},
                                                                             {"url": "https://b.com/", "weight": 50}]},
        {"domain": h, "key": "four", "url": "https://e.com/4", "externalId": f"b-{t['id']}"},
    ]
    r = api.post(f"{L}/bulk", {"links": items})
    assert r.status == 200, r
    data = r.json["data"]
    assert [d["index"] for d in data] == [0, 1, 2, 3, 4]
    assert [d["status"] for d in data] == [201, 422, 409, 201, 409]
    assert data[0]["link"]["tagIds"] == [t["id"]] and data[3]["link"]["variants"][0]["weight"] == 50
    assert data[1]["error"]["code"] == "url_blocked" and data[1]["error"]["details"]["field"] == "url"
    assert data[2]["error"]["code"] == "alias_taken"
    assert data[4]["error"]["code"] == "external_id_taken"
    keys = sorted(l["key"] for l in api.get(f"{L}?domain={h}").json["data"])
    assert keys == ["one", "three"]


def test_bulk_update_and_delete_by_id_and_external_id(api):
    h = host(api)
    a = api.link(h, externalId=f"ua-{uuid.uuid4().hex}")
    b = api.link(h)
    r = api.patch(f"{L}/bulk", {"links": [
        {"id": "ext_" + a["externalId"], "passQuery": True},
        {"id": b["id"], "variants": [{"url": "https://a.com/", "weight": 100}]},
        {"id": "biq_lnk_01HZZZZZZZZZZZZZZZZZZZZZZZ", "enabled": False},
        {"passQuery": True},
    ]})
    assert r.status == 200, r
    assert [d["status"] for d in r.json["data"]] == [200, 422, 404, 422]
    assert r.json["data"][0]["link"]["passQuery"] is True
    assert api.get(f"{L}/{b['id']}").json["variants"] == []
    d = api.call("DELETE", f"{L}/bulk", {"ids": [b["id"], "ext_" + a["externalId"], b["id"]]})
    assert d.status == 200, d
    assert [x["status"] for x in d.json["data"]] == [200, 200, 404]
    assert api.get(f"{L}?domain={h}").json["data"] == []


def test_bulk_limits_and_idempotency(api):
    h = host(api)
    too_many = api.post(f"{L}/bulk", {"links": [{"domain": h, "url": "https://e.com/"}] * 101})
    assert too_many.status == 422 and too_many.code == "validation_error" and too_many.details["field"] == "links"
    empty = api.post(f"{L}/bulk", {"links": []})
    assert empty.status == 422 and empty.details["field"] == "links"
    key = {"Idempotency-Key": "bulk-" + uuid.uuid4().hex}
    body = {"links": [{"domain": h, "url": f"https://e.com/{i}"} for i in range(100)]}
    first = api.post(f"{L}/bulk", body, headers=key)
    assert first.status == 200 and [d["status"] for d in first.json["data"]] == [201] * 100, first
    again = api.post(f"{L}/bulk", body, headers=key)
    assert again.status == 200 and again.json == first.json
    assert again.headers.get("idempotent-replayed") == "true" or again.headers.get("Idempotent-Replayed") == "true"
    assert len(api.get(f"{L}?domain={h}&limit=100").json["data"]) == 100
