"""Every validation rule of the workspace API, table-driven, against the real binary: each case
sends one create (or patch) and expects the status, the code, and the field (JSON path) named
first in `details`, so that a client always learns which field broke which rule."""
import tempfile, uuid

import pytest
from edge import Edge
from management_api import FINGERPRINT, Api, new_key

DOMAIN = "valid.example.test"
SHA1 = "DA:39:A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09"


@pytest.fixture(scope="module")
def api():
    data = tempfile.mkdtemp(prefix="edge-valid-")
    key = new_key(data)
    edge = Edge(data_dir=data)
    client = Api(edge, key)
    client.domain(DOMAIN)
    client.app_id = client.app("Validation", domains=[DOMAIN])["id"]
    yield client
    edge.kill()


def check(r, status, code, field):
    assert r.status == status, r
    assert r.code == code, r
    assert r.details["field"] == field, r
    assert r.details["rule"] and r.details["errors"][0] == {"field": field, "rule": r.details["rule"]}
    assert r.json["error"]["message"].startswith(field + " ")


# ---------------------------------------------------------------- domains

BAD_HOSTNAMES = ["Go.example.test", "localhost", "10.0.0.1", "-a.example.test", "a-.example.test", "a..example.test",
                 "exa mple.test", "a_b.example.test", "go.example.test.", ".example.test", "b\u00fccher.example",
                 ("a" * 64) + ".example.test", ".".join(["abcdefghi"] * 26), "", "192.168.1.300"]


@pytest.mark.parametrize("hostname", BAD_HOSTNAMES)
def test_domain_hostname_rule(api, hostname):
    check(api.post("/api/v1/domains", {"hostname": hostname}), 422, "validation_error", "hostname")


@pytest.mark.parametrize("hostname", ["a.b", "xn--bcher-kva.example", "a-b.c-d.example.test", "1.example.test",
                                      ("a" * 63) + ".example.test"])
def test_domain_hostnames_that_are_fine(api, hostname):
    r = api.post("/api/v1/domains", {"hostname": hostname})
    assert r.status in (201, 409), r


URL_CASES = [
    # (value, code) for web URLs: url_blocked for any scheme but http(s), validation_error for the rest.
    ("javascript:alert(1)", "url_blocked"), ("JaVaScRiPt:alert(1)", "url_blocked"),
    ("  javascript:alert(1)", "url_blocked"), ("java\tscript:alert(1)", "url_blocked"),
    ("data:text/html,<script>x</script>", "url_blocked"), ("file:///etc/passwd", "url_blocked"),
    ("vbscript:msgbox", "url_blocked"), ("ftp://example.com/x", "url_blocked"), ("intent://scan#Intent;end", "url_blocked"),
    ("mailto:a@example.com", "url_blocked"), ("blob:https://example.com/x", "url_blocked"),
    ("//evil.example.com/x", "validation_error"), ("/relative", "validation_error"), ("example.com", "validation_error"),
    ("https://user:pass@example.com/", "validation_error"), ("https://exa mple.com/", "validation_error"),
    ("https://example.com/a b", "validation_error"), ("https://example.com/\"x", "validation_error"),
    ("https://", "validation_error"), ("https://example.com:99999/", "validation_error"),
    ("https://example.com/%zz", "validation_error"), ("https://example.com/" + "a" * 2100, "validation_error"),
]


@pytest.mark.parametrize("value,code", URL_CASES)
@pytest.mark.parametrize("field", ["rootUrl", "notFoundUrl"])
def test_domain_url_rules(api, field, value, code):
    r = api.post("/api/v1/domains", {"hostname": f"u{uuid.uuid4().hex[:10]}.example.test", field: value})
    check(r, 422, code, field)


@pytest.mark.parametrize("body,field", [
    ({"hostname": "x.example.test", "verified": "yes"}, "verified"),
    ({"hostname": "x.example.test", "deepViewEnabled": 1}, "deepViewEnabled"),
    ({"hostname": "x.example.test", "rootUrl": 5}, "rootUrl"),
    ({"hostname": 5}, "hostname"),
    ({"hostname": None}, "hostname"),
    ({"hostname": "x.example.test", "httpsActive": True}, "httpsActive"),
    ({"hostname": "x.example.test", "createdAt": "2026-01-01T00:00:00Z"}, "createdAt"),
    ({"hostname": "x.example.test", "colour": "red"}, "colour"),
    ({}, "hostname"),
])
def test_domain_field_types_read_only_and_unknown_fields(api, body, field):
    check(api.post("/api/v1/domains", body), 422, "validation_error", field)


def test_http_and_https_urls_are_stored_normalised(api):
    r = api.post("/api/v1/domains", {"hostname": f"n{uuid.uuid4().hex[:8]}.example.test",
                                     "rootUrl": "HTTP://WWW.Example.COM/Path?Q=1", "notFoundUrl": "https://ex.com/\u00e9"})
    assert r.status == 201, r
    assert r.json["rootUrl"] == "http://www.example.com/Path?Q=1"
    assert r.json["notFoundUrl"] == "https://ex.com/%C3%A9"


def test_every_problem_is_reported_and_mixed_problems_are_validation_error(api):
    r = api.post("/api/v1/domains", {"hostname": "Bad", "rootUrl": "javascript:x", "extra": 1})
    assert r.status == 422 and r.code == "validation_error"
    assert [f for f, _ in r.fields] == ["hostname", "rootUrl", "extra"]
    assert "(and 2 more" in r.json["error"]["message"]
    r = api.post("/api/v1/domains", {"hostname": "ok.example.test", "rootUrl": "javascript:x",
                                     "notFoundUrl": "data:,x"})
    assert r.code == "url_blocked" and [f for f, _ in r.fields] == ["rootUrl", "notFoundUrl"]


# ---------------------------------------------------------------- mobile apps

IOS = {"teamId": "ABCDE12345", "bundleId": "com.example.valid"}
ANDROID = {"packageName": "com.example.valid", "sha256CertFingerprints": [FINGERPRINT]}

APP_CASES = [
    # (changes to a valid body, code, field)
    ({"name": None}, "validation_error", "name"),
    ({"name": ""}, "validation_error", "name"),
    ({"name": "x" * 101}, "validation_error", "name"),
    ({"name": "two\nlines"}, "validation_error", "name"),
    ({"ios": None, "android": None}, "validation_error", "ios"),
    ({"ios": "yes"}, "validation_error", "ios"),
    ({"ios": {**IOS, "teamId": "abcde12345"}}, "validation_error", "ios.teamId"),
    ({"ios": {**IOS, "teamId": "ABCDE1234"}}, "validation_error", "ios.teamId"),
    ({"ios": {"bundleId": "com.example.x"}}, "validation_error", "ios.teamId"),
    ({"ios": {**IOS, "bundleId": "com..example"}}, "validation_error", "ios.bundleId"),
    ({"ios": {**IOS, "bundleId": ".com.example"}}, "validation_error", "ios.bundleId"),
    ({"ios": {**IOS, "bundleId": "com.example."}}, "validation_error", "ios.bundleId"),
    ({"ios": {**IOS, "bundleId": "com example"}}, "validation_error", "ios.bundleId"),
    ({"ios": {**IOS, "bundleId": "c" * 156}}, "validation_error", "ios.bundleId"),
    ({"ios": {**IOS, "appStoreId": "abc"}}, "validation_error", "ios.appStoreId"),
    ({"ios": {**IOS, "appStoreId": "1" * 21}}, "validation_error", "ios.appStoreId"),
    ({"ios": {**IOS, "testFlightUrl": "https://example.com/join/ABC"}}, "validation_error", "ios.testFlightUrl"),
    ({"ios": {**IOS, "testFlightUrl": "javascript:alert(1)"}}, "url_blocked", "ios.testFlightUrl"),
    ({"ios": {**IOS, "fallbackUrl": "data:text/html,x"}}, "url_blocked", "ios.fallbackUrl"),
    ({"ios": {**IOS, "fallbackUrl": "nope"}}, "validation_error", "ios.fallbackUrl"),
    ({"ios": {**IOS, "probabilisticWindowMinutes": 0}}, "validation_error", "ios.probabilisticWindowMinutes"),
    ({"ios": {**IOS, "probabilisticWindowMinutes": 61}}, "validation_error", "ios.probabilisticWindowMinutes"),
    ({"ios": {**IOS, "probabilisticWindowMinutes": "5"}}, "validation_error", "ios.probabilisticWindowMinutes"),
    ({"ios": {**IOS, "probabilisticWindowMinutes": 1.5}}, "validation_error", "ios.probabilisticWindowMinutes"),
    ({"ios": {**IOS, "probabilisticFallback": "true"}}, "validation_error", "ios.probabilisticFallback"),
    ({"ios": {**IOS, "sdkEnabled": None}}, "validation_error", "ios.sdkEnabled"),
    ({"ios": {**IOS, "appClipBundleId": "com..clip"}}, "validation_error", "ios.appClipBundleId"),
    ({"ios": {**IOS, "appClipBundleId": "com.example.valid"}}, "validation_error", "ios.appClipBundleId"),
    ({"ios": {**IOS, "universalLinks": True}}, "validation_error", "ios.universalLinks"),
    ({"android": {"packageName": "com"}}, "validation_error", "android.packageName"),
    ({"android": {"packageName": "1com.example"}}, "validation_error", "android.packageName"),
    ({"android": {"packageName": "com.example-app"}}, "validation_error", "android.packageName"),
    ({"android": {"packageName": "com.example."}}, "validation_error", "android.packageName"),
    ({"android": {"sha256CertFingerprints": [FINGERPRINT]}}, "validation_error", "android.packageName"),
    ({"android": {**ANDROID, "sha256CertFingerprints": [SHA1]}}, "validation_error", "android.sha256CertFingerprints[0]"),
    ({"android": {**ANDROID, "sha256CertFingerprints": [FINGERPRINT, "zz"]}}, "validation_error",
     "android.sha256CertFingerprints[1]"),
    ({"android": {**ANDROID, "sha256CertFingerprints": [FINGERPRINT[:-3]]}}, "validation_error",
     "android.sha256CertFingerprints[0]"),
    ({"android": {**ANDROID, "sha256CertFingerprints": [7]}}, "validation_error", "android.sha256CertFingerprints[0]"),
    ({"android": {**ANDROID, "sha256CertFingerprints": FINGERPRINT}}, "validation_error",
     "android.sha256CertFingerprints"),
    ({"android": {**ANDROID, "sha256CertFingerprints": [FINGERPRINT] * 17}}, "validation_error",
     "android.sha256CertFingerprints"),
    ({"android": {**ANDROID, "playStoreUrl": "https://example.com/app"}}, "validation_error", "android.playStoreUrl"),
    ({"android": {**ANDROID, "playStoreUrl": "https://play.google.com/store/apps/details?id=com.other.app"}},
     "validation_error", "android.playStoreUrl"),
    ({"android": {**ANDROID, "playStoreUrl": "https://play.google.com/store/apps/details?id=com.example.valid&referrer="
                  + "x" * 200}}, "validation_error", "android.playStoreUrl"),
    ({"android": {**ANDROID, "playStoreUrl": "javascript:alert(1)"}}, "url_blocked", "android.playStoreUrl"),
    ({"android": {**ANDROID, "fallbackUrl": "file:///x"}}, "url_blocked", "android.fallbackUrl"),
    ({"android": {**ANDROID, "sdkEnabled": "no"}}, "validation_error", "android.sdkEnabled"),
    ({"iconUrl": "http://example.com/icon.png"}, "validation_error", "iconUrl"),
    ({"iconUrl": "javascript:alert(1)"}, "url_blocked", "iconUrl"),
    ({"enabled": "true"}, "validation_error", "enabled"),
    ({"domains": ["absent.example.test"]}, "validation_error", "domains[0]"),
    ({"domains": ["Bad.Example"]}, "validation_error", "domains[0]"),
    ({"domains": [DOMAIN, DOMAIN]}, "validation_error", "domains[1]"),
    ({"domains": DOMAIN}, "validation_error", "domains"),
    ({"handoffLifetimeSeconds": 299}, "validation_error", "handoffLifetimeSeconds"),
    ({"handoffLifetimeSeconds": 604801}, "validation_error", "handoffLifetimeSeconds"),
    ({"keyOverlapSeconds": -1}, "validation_error", "keyOverlapSeconds"),
    ({"keyOverlapSeconds": 2592001}, "validation_error", "keyOverlapSeconds"),
    ({"id": "biq_mapp_01ARZ3NDEKTSV4RRFFQ69G5FAV"}, "validation_error", "id"),
    ({"publishableKeys": []}, "validation_error", "publishableKeys"),
    ({"colour": "red"}, "validation_error", "colour"),
]


@pytest.mark.parametrize("changes,code,field", APP_CASES)
def test_mobile_app_rules(api, changes, code, field):
    body = {"name": "Rules", "ios": dict(IOS), "android": dict(ANDROID), **changes}
    body = {k: v for k, v in body.items() if not (k == "name" and v is None)}
    check(api.post("/api/v1/mobile-apps", body), 422, code, field)


@pytest.mark.parametrize("changes,code,field", [c for c in APP_CASES if c[2] not in ("id", "publishableKeys")])
def test_mobile_app_rules_hold_for_patches_too(api, changes, code, field):
    if field == "name" and changes.get("name") is None:
        changes = {"name": None}
    r = api.patch(f"/api/v1/mobile-apps/{api.app_id}", changes)
    if field in ("ios.teamId",) and "bundleId" in changes.get("ios", {}) and "teamId" not in changes["ios"]:
        assert r.status == 200  # merged with the stored teamId
        return
    if field == "android.packageName" and "packageName" not in changes.get("android", {}):
        assert r.status == 200
        return
    check(r, 422, code, field)


@pytest.mark.parametrize("spelling", [FINGERPRINT, FINGERPRINT.lower(), FINGERPRINT.replace(":", ""),
                                      FINGERPRINT.replace(":", " "), "SHA256: " + FINGERPRINT])
def test_fingerprints_are_normalised_to_upper_case_colon_separated(api, spelling):
    r = api.post("/api/v1/mobile-apps", {"name": "FP", "android": {
        "packageName": f"com.example.fp{uuid.uuid4().hex[:6]}", "sha256CertFingerprints": [spelling, FINGERPRINT]}})
    assert r.status == 201 and r.json["android"]["sha256CertFingerprints"] == [FINGERPRINT], r


def test_a_sha1_fingerprint_is_refused_with_a_message_saying_so(api):
    r = api.post("/api/v1/mobile-apps", {"name": "FP", "android": {**ANDROID, "sha256CertFingerprints": [SHA1]}})
    assert r.status == 422 and "SHA-1" in r.details["rule"]


def test_boundaries_that_are_accepted(api):
    r = api.post("/api/v1/mobile-apps", {
        "name": "x" * 100, "handoffLifetimeSeconds": 300, "keyOverlapSeconds": 0,
        "ios": {**IOS, "bundleId": "com.example.bounds", "probabilisticWindowMinutes": 1, "appStoreId": "1" * 20,
                "testFlightUrl": "https://testflight.apple.com/join/AbC123", "appClipBundleId": "com.example.bounds.Clip",
                "webCredentials": True, "probabilisticFallback": True},
        "android": {"packageName": "com.example.bounds", "sha256CertFingerprints": [FINGERPRINT],
                    "playStoreUrl": "https://play.google.com/store/apps/details?id=com.example.bounds&hl=en"},
        "iconUrl": "https://cdn.example.com/icon.png"})
    assert r.status == 201, r
    assert r.json["ios"]["testFlightUrl"] == "https://testflight.apple.com/join/AbC123"
    r = api.patch(f"/api/v1/mobile-apps/{r.json['id']}", {"handoffLifetimeSeconds": 604800,
                                                        "keyOverlapSeconds": 2592000, "ios": {"probabilisticWindowMinutes": 60}})
    assert r.status == 200, r


# ---------------------------------------------------------------- links


def link_body(api, **changes):
    body = {"domain": DOMAIN, "url": "https://www.example.com/", "mobile": {"appId": api.app_id, "route": "/x"}}
    for k, v in changes.items():
        if k.startswith("mobile."):
            body["mobile"] = {**body["mobile"], k[7:]: v}
        else:
            body[k] = v
    return body


def meta_depth(n):
    value = 1
    for _ in range(n):
        value = {"k": value}
    return value


SENSITIVE = ["password", "Password", "user_password", "passwd", "secret", "clientSecret", "token", "accessToken",
             "auth", "authorization", "x-auth", "cookie", "sessionCookie", "session_id", "credential", "credentials",
             "apiKey", "api_key", "API-KEY", "private_key", "card", "creditCard", "card_number", "iban", "ssn",
             "user_ssn", "passport", "passportNumber", "email", "userEmail", "e-mail", "phone", "phoneNumber",
             "health", "healthStatus", "medical_record", "diagnosis", "pin", "user_pin", "PINCode", "pin_code",
             "dob", "DOB", "birthdate", "date_of_birth", "cvv", "cvc", "otp", "tax_id", "license_number"]
HARMLESS = ["shipping", "mapping", "spinner", "campaign", "tier", "utm_source", "discount", "pinned_tab", "dobby",
            "ref", "screen", "promo_code", "variant"]


LINK_CASES = [
    ({"domain": None}, "validation_error", "domain"),
    ({"domain": "Bad"}, "validation_error", "domain"),
    ({"domain": "absent.example.test"}, "validation_error", "domain"),
    ({"key": "a/b"}, "validation_error", "key"),
    ({"key": ""}, "validation_error", "key"),
    ({"key": "x" * 65}, "validation_error", "key"),
    ({"key": "with space"}, "validation_error", "key"),
    ({"key": "caf\u00e9"}, "validation_error", "key"),
    ({"key": "a.b"}, "validation_error", "key"),
    ({"key": 5}, "validation_error", "key"),
    ({"key": "api"}, "validation_error", "key"),
    ({"key": "API"}, "validation_error", "key"),
    ({"key": "m"}, "validation_error", "key"),
    ({"key": "healthz"}, "validation_error", "key"),
    ({"key": "metrics"}, "validation_error", "key"),
    ({"key": "_biqli"}, "validation_error", "key"),
    ({"url": None}, "validation_error", "url"),
    ({"url": "javascript:alert(document.cookie)"}, "url_blocked", "url"),
    ({"url": "data:text/html;base64,PHNjcmlwdD4="}, "url_blocked", "url"),
    ({"url": "file:///etc/passwd"}, "url_blocked", "url"),
    ({"url": "vbscript:x"}, "url_blocked", "url"),
    ({"url": "www.example.com"}, "validation_error", "url"),
    ({"url": "https://user@example.com"}, "validation_error", "url"),
    ({"enabled": "yes"}, "validation_error", "enabled"),
    ({"mobile": "yes"}, "validation_error", "mobile"),
    ({"mobile.appId": None}, "validation_error", "mobile.appId"),
    ({"mobile.appId": "biq_mapp_01ARZ3NDEKTSV4RRFFQ69G5FAV"}, "validation_error", "mobile.appId"),
    ({"mobile.route": None}, "validation_error", "mobile.route"),
    ({"mobile.route": "invite"}, "validation_error", "mobile.route"),
    ({"mobile.route": "/" + "a" * 500}, "validation_error", "mobile.route"),
    ({"mobile.route": "/a\nb"}, "validation_error", "mobile.route"),
    ({"mobile.referralCode": "r" * 129}, "validation_error", "mobile.referralCode"),
    ({"mobile.referralCode": ""}, "validation_error", "mobile.referralCode"),
    ({"mobile.referralCode": 42}, "validation_error", "mobile.referralCode"),
    ({"mobile.metadata": ["a"]}, "validation_error", "mobile.metadata"),
    ({"mobile.metadata": "a"}, "validation_error", "mobile.metadata"),
    ({"mobile.metadata": {f"k{i}": i for i in range(21)}}, "validation_error", "mobile.metadata"),
    ({"mobile.metadata": meta_depth(4)}, "validation_error", "mobile.metadata"),
    ({"mobile.metadata": {"a": [[1]], "b": [[[1]]]}}, "validation_error", "mobile.metadata"),
    ({"mobile.metadata": {f"k{i}": "v" * 250 for i in range(17)}}, "validation_error", "mobile.metadata"),
    ({"mobile.metadata": {"long": "x" * 1001}}, "validation_error", "mobile.metadata.long"),
    ({"mobile.metadata": {"list": ["ok", "x" * 1001]}}, "validation_error", "mobile.metadata.list[1]"),
    ({"mobile.metadata": {"user": {"email": "a"}}}, "validation_error", "mobile.metadata.user.email"),
    ({"mobile.dynamicKeys": [f"k{i}" for i in range(21)]}, "validation_error", "mobile.dynamicKeys"),
    ({"mobile.dynamicKeys": ["Ref"]}, "validation_error", "mobile.dynamicKeys[0]"),
    ({"mobile.dynamicKeys": ["ref", "1ref"]}, "validation_error", "mobile.dynamicKeys[1]"),
    ({"mobile.dynamicKeys": ["r" * 41]}, "validation_error", "mobile.dynamicKeys[0]"),
    ({"mobile.dynamicKeys": ["ref-x"]}, "validation_error", "mobile.dynamicKeys[0]"),
    ({"mobile.dynamicKeys": ["_ref"]}, "validation_error", "mobile.dynamicKeys[0]"),
    ({"mobile.dynamicKeys": ["ref", "ref"]}, "validation_error", "mobile.dynamicKeys[1]"),
    ({"mobile.dynamicKeys": "ref"}, "validation_error", "mobile.dynamicKeys"),
    ({"mobile.deepView": "yes"}, "validation_error", "mobile.deepView"),
    ({"mobile.extra": 1}, "validation_error", "mobile.extra"),
    ({"preview": {"title": "t" * 301}}, "validation_error", "preview.title"),
    ({"preview": {"description": "d" * 1001}}, "validation_error", "preview.description"),
    ({"preview": {"imageUrl": "http://example.com/a.png"}}, "validation_error", "preview.imageUrl"),
    ({"preview": {"imageUrl": "javascript:alert(1)"}}, "url_blocked", "preview.imageUrl"),
    ({"preview": {"video": "x"}}, "validation_error", "preview.video"),
    ({"preview": []}, "validation_error", "preview"),
    ({"id": "biq_lnk_01ARZ3NDEKTSV4RRFFQ69G5FAV"}, "validation_error", "id"),
    ({"shortUrl": "https://x.example.test/a"}, "validation_error", "shortUrl"),
    ({"clicks": 0}, "validation_error", "clicks"),
]


@pytest.mark.parametrize("changes,code,field", LINK_CASES)
def test_link_rules(api, changes, code, field):
    body = link_body(api, **changes)
    body = {k: v for k, v in body.items() if v is not None}
    if "mobile" in body and isinstance(body["mobile"], dict):
        body["mobile"] = {k: v for k, v in body["mobile"].items() if v is not None}
    check(api.post("/api/v1/links", body), 422, code, field)


@pytest.mark.parametrize("key", SENSITIVE)
def test_metadata_keys_naming_sensitive_fields_are_refused_at_every_level(api, key):
    for metadata, path in [({key: "v"}, key), ({"outer": {key: 1}}, f"outer.{key}"),
                           ({"a": {"b": {key: True}}}, f"a.b.{key}")]:
        if metadata.get("a") and len(path.split(".")) > 3:
            continue
        r = api.post("/api/v1/links", link_body(api, **{"mobile.metadata": metadata}))
        check(r, 422, "validation_error", f"mobile.metadata.{path}")
        assert "sensitive" in r.details["rule"]


@pytest.mark.parametrize("key", HARMLESS)
def test_ordinary_metadata_keys_are_accepted(api, key):
    r = api.post("/api/v1/links", link_body(api, **{"mobile.metadata": {key: "v", "nested": {key: 1}}}))
    assert r.status == 201, r


def test_metadata_and_mobile_fields_at_their_limits_are_accepted(api):
    metadata = {f"k{i:02d}": "v" * 100 for i in range(20)}  # 20 top-level keys
    metadata["k00"] = {"a": {"b": "x" * 1000}}  # 3 levels, a 1000-character string
    body = link_body(api, **{"mobile.metadata": metadata, "mobile.referralCode": "r" * 128,
                             "mobile.route": "/" + "a" * 499, "mobile.dynamicKeys": [f"k{i}" for i in range(20)],
                             "key": "x" * 64, "preview": {"title": "t" * 300, "description": "d\n" * 500}})
    r = api.post("/api/v1/links", body)
    assert r.status == 201, r
    assert r.json["mobile"]["metadata"] == metadata


def test_metadata_of_exactly_4096_bytes_passes_and_4097_fails(api):
    import json
    for size, status in [(4096, 201), (4097, 422)]:
        base = {"a": ""}
        pad = size - len(json.dumps(base, separators=(",", ":")))
        metadata = {"a": "x" * min(pad, 1000)}
        i = 0
        while len(json.dumps(metadata, separators=(",", ":"))) < size:
            i += 1
            remaining = size - len(json.dumps(metadata, separators=(",", ":"))) - len(f',"b{i}":""')
            metadata[f"b{i}"] = "y" * max(0, min(remaining, 1000))
        assert len(json.dumps(metadata, separators=(",", ":"))) == size
        r = api.post("/api/v1/links", link_body(api, **{"mobile.metadata": metadata}))
        assert r.status == status, (size, r)


def test_a_patch_cannot_store_what_a_create_refuses(api):
    link = api.link(DOMAIN, key=f"p{uuid.uuid4().hex[:6]}", mobile={"appId": api.app_id, "route": "/ok"})
    for patch, field in [({"url": "javascript:x"}, "url"), ({"mobile": {"route": "no-slash"}}, "mobile.route"),
                         ({"mobile": {"metadata": {"password": "x"}}}, "mobile.metadata.password"),
                         ({"key": "api"}, "key"), ({"domain": "absent.example.test"}, "domain"),
                         ({"shortUrl": "x"}, "shortUrl")]:
        r = api.patch(f"/api/v1/links/{link['id']}", patch)
        assert r.status == 422 and r.details["field"] == field, (patch, r)
    assert api.get(f"/api/v1/links/{link['id']}").json == link
