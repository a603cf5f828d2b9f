"""Black-box tests of the resolver, `POST /api/v1/track/open`, against the real binary over HTTPS
with SNI, with requests shaped exactly like the official SDKs 1.0.0 send them
(`../shared/spec/resolver-contract.md`): iOS omits absent fields, upper-case hex IDs, no fractional
seconds, keys in any order; Android sends explicit nulls, lower-case hex IDs, milliseconds and
`Accept: application/json`; both escape `/` as `\\/`.

Data: `serve --demo` (app DEMO_APP_ID on go.example.test, links invite/promo/docs), changed through the
workspace API only; stored open events are read from the SQLite file read-only."""
import base64, hashlib, json, os, random, re, sqlite3, time, urllib.parse, uuid
from concurrent.futures import ThreadPoolExecutor

import nacl.exceptions
import nacl.signing
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from edge import Conn, request
from fixtures_data import (
    DEMO_APP_ID, DEMO_HOST, HANDOFF_URL_RE, LINK_IDS, TOKEN_RE, UA_ANDROID, UA_IPHONE, _rows, api, create_app,
    demo_android, demo_ios, handoff, handoff_key, put_domain, start_demo, update_app, update_link, visit,
    write_behind)

PATH = "/api/v1/track/open"
PUBLIC_URL = "https://edge.example.test"
SIX = {"open", "click", "link", "attribution", "attributionReceipt", "requestId"}
CONFIDENCE = {"exact_app_link": "exact", "exact_install_referrer": "exact", "exact_handoff": "exact",
              "probabilistic": "probabilistic", "none": "none"}
OPEN_ID = re.compile(r"^biq_open_[0-9A-HJKMNP-TV-Z]{26}$")
# Generous limits for every test but the rate-limit ones: all requests come from 127.0.0.1, and the
# concurrency test sends 50 requests for one instance.
ROOMY = {"BIQLI_EDGE_RATE_PER_ADDRESS": "100000", "BIQLI_EDGE_RATE_PER_INSTANCE": "1000",
         "BIQLI_EDGE_RATE_PER_TOKEN": "1000", "BIQLI_EDGE_RATE_INVALID_PER_ADDRESS": "1000",
         "BIQLI_EDGE_PUBLIC_URL": PUBLIC_URL}


@pytest.fixture
def demo(edge_factory):
    return start_demo(edge_factory, env=ROOMY)


# ---------------------------------------------------------------- what the SDKs send


def hex32(upper):
    h = uuid.uuid4().hex
    return h.upper() if upper else h


def sdk_json(fields, shuffle=False):
    """Compact JSON with `/` escaped as `\\/` (Foundation's JSONEncoder and org.json both do)."""
    items = list(fields.items())
    if shuffle:
        random.shuffle(items)
    return json.dumps(dict(items), separators=(",", ":")).replace("/", "\\/").encode()


def ios_body(event, instance, *, app_id=DEMO_APP_ID, first_open=True, probabilistic=False, handoff=None,
             deep_link=None, domain=None, app_version="2.4.0", os_version="17.4", sdk_version="1.0.0",
             occurred_at=None, shuffle=True, **extra):
    """iOS SDK 1.0.0: absent optional fields omitted, no fractional seconds, key order varies."""
    if deep_link is not None and domain is None:
        domain = urllib.parse.urlsplit(deep_link).hostname  # the deep link's host, always
    fields = {"eventId": event, "appId": app_id, "appInstanceId": instance, "platform": "ios",
              "firstOpen": first_open, "probabilisticAllowed": probabilistic, "handoffToken": handoff,
              "deepLink": deep_link, "domain": domain, "appVersion": app_version, "osVersion": os_version,
              "sdkVersion": sdk_version,
              "occurredAt": occurred_at or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), **extra}
    return sdk_json({k: v for k, v in fields.items() if v is not None}, shuffle)


def android_body(event, instance, *, app_id=DEMO_APP_ID, first_open=True, probabilistic=False, handoff=None,
                 deep_link=None, domain=None, app_version="2.4.0", os_version="14", sdk_version="1.0.0",
                 occurred_at=None, **extra):
    """Android SDK 1.0.0: every documented field, explicit nulls, milliseconds."""
    if deep_link is not None and domain is None:
        domain = urllib.parse.urlsplit(deep_link).hostname
    if occurred_at is None:
        now = time.time()
        occurred_at = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + ".%03dZ" % (int(now * 1000) % 1000)
    fields = {"eventId": event, "appId": app_id, "appInstanceId": instance, "platform": "android",
              "firstOpen": first_open, "probabilisticAllowed": probabilistic, "handoffToken": handoff,
              "deepLink": deep_link, "domain": domain, "appVersion": app_version, "osVersion": os_version,
              "sdkVersion": sdk_version, "occurredAt": occurred_at, **extra}
    return sdk_json(fields)


def sdk_headers(platform, key, event, request_id=None, sdk_version="1.0.0"):
    h = {"Authorization": "Bearer " + key, "Content-Type": "application/json", "Idempotency-Key": event,
         "X-Biq-SDK": platform, "X-Biq-SDK-Version": sdk_version,
         "X-Biq-Request-Id": request_id or "req_" + hex32(platform == "ios")}
    if platform == "android":
        h["Accept"] = "application/json"
    return h


class Answer:
    def __init__(self, status, headers, raw, sent_request_id):
        self.status, self.headers, self.raw, self.sent_request_id = status, headers, raw, sent_request_id
        try:
            self.json = json.loads(raw)
        except ValueError:
            self.json = None

    @property
    def code(self):
        return ((self.json or {}).get("error") or {}).get("code")

    def __repr__(self):
        return f"<{self.status} {self.headers} {self.raw[:600]!r}>"


def with_log(edge, call):
    """`call()`; a connection closed without an answer fails with the edge's last log lines, so that such a
    failure says why (the two seen while this file was written came from another process killing test edges)."""
    try:
        return call()
    except EOFError as e:
        raise AssertionError(f"{e}; edge stdout: {edge.lines[-8:]}; stderr: {edge.stderr_lines[-8:]}") from e


def post(edge, headers, body, method="POST"):
    status, h, raw = with_log(edge, lambda: request(edge.https_port, PATH, method=method, headers=headers, body=body,
                                                    tls=True, sni=DEMO_HOST, host=DEMO_HOST))
    return Answer(status, h, raw, headers.get("X-Biq-Request-Id"))


class Device:
    """One installation of the app with an official SDK: a stable instance ID, one platform. Each `open`
    is a new event (new eventId = Idempotency-Key, new request ID); `resend` repeats the last one as the
    SDK's retry does (same event, same key, same data; iOS may reorder the keys)."""

    def __init__(self, edge, platform, key=None, app_id=DEMO_APP_ID, instance=None):
        self.edge, self.platform, self.app_id = edge, platform, app_id
        self.key = key or edge.publishable_key
        self.instance = instance or "install_" + hex32(platform == "ios")
        self.last = None

    def prepare(self, event=None, request_id=None, headers=None, **fields):
        event = event or "open_" + hex32(self.platform == "ios")
        if "occurred_at" not in fields:  # persisted with the event: a retry sends the same instant
            now = time.time()
            fields["occurred_at"] = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + (
                "Z" if self.platform == "ios" else ".%03dZ" % (int(now * 1000) % 1000))
        build = ios_body if self.platform == "ios" else android_body
        body = build(event, self.instance, app_id=self.app_id, **fields)
        h = {**sdk_headers(self.platform, self.key, event, request_id), **(headers or {})}
        self.last = (h, fields, event)
        return h, body

    def open(self, **fields):
        h, body = self.prepare(**fields)
        return post(self.edge, h, body)

    def resend(self, request_id=None, **changes):
        h, fields, event = self.last
        h = dict(h)
        if request_id:
            h["X-Biq-Request-Id"] = request_id
        build = ios_body if self.platform == "ios" else android_body
        return post(self.edge, h, build(event, self.instance, app_id=self.app_id, **{**fields, **changes}))


def ok(answer, matched=None):
    """A 200 in the documented shape; returns the body."""
    assert answer.status == 200, answer
    b = answer.json
    assert set(b) == SIX, b
    assert answer.headers["cache-control"] == "no-store"
    assert answer.headers["x-biq-request-id"] == b["requestId"]
    if answer.sent_request_id:
        assert b["requestId"] == answer.sent_request_id
    assert set(b["open"]) == {"id", "firstOpen", "matchedBy", "confidence"}, b["open"]
    assert OPEN_ID.match(b["open"]["id"]), b["open"]
    assert b["open"]["confidence"] == CONFIDENCE[b["open"]["matchedBy"]], b["open"]
    if b["open"]["matchedBy"] == "none":
        assert (b["click"], b["link"], b["attribution"], b["attributionReceipt"]) == (None, None, None, None), b
    else:
        assert set(b["link"]) == {"id", "shortUrl", "route"} and b["link"]["route"].startswith("/"), b
        assert set(b["attribution"]) == {"referralCode", "metadata", "dynamic"}, b
        assert all(isinstance(v, str) for v in b["attribution"]["dynamic"].values())
    if matched is not None:
        assert b["open"]["matchedBy"] == matched, b
    return b


def refused(answer, status, code):
    """A resolver error: `{"error":{"code","message"},"requestId"}`, X-Biq-Request-Id, no-store."""
    assert (answer.status, answer.code) == (status, code), answer
    b = answer.json
    assert "request_id" not in b and isinstance(b["error"]["message"], str) and b["error"]["message"], b
    assert b["requestId"] == answer.headers["x-biq-request-id"], answer
    sent = answer.sent_request_id
    if sent and re.fullmatch(r"[A-Za-z0-9._~-]{8,100}", sent):
        assert b["requestId"] == sent, (sent, b)
    assert answer.headers["cache-control"] == "no-store"
    return b


def open_events(edge, **where):
    sql = "SELECT id, event_id, instance_id, matched_by, first_open, link_id, click_id FROM open_events"
    if where:
        sql += " WHERE " + " AND ".join(f"{k} = ?" for k in where)
    return _rows(edge, sql, tuple(where.values()))


def sdk_referrer_token(location):
    """The Android SDK's view: Play hands the app the `referrer` value decoded once; the SDK parses it as a
    query and keeps the first `biqli_token`."""
    parts = urllib.parse.urlsplit(location)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "play.google.com", "/store/apps/details")
    referrer = dict(urllib.parse.parse_qsl(parts.query, keep_blank_values=True))["referrer"]  # decoded once
    token = [v for k, v in urllib.parse.parse_qsl(referrer, keep_blank_values=True) if k == "biqli_token"][0]
    assert TOKEN_RE.match(token) and len(token) == 48, token
    return token


def play_token(edge, path):
    status, headers, _ = visit(edge, path, ua=UA_ANDROID)
    assert status == 302, (status, headers)
    return sdk_referrer_token(headers["location"])


def pasted_token(edge, path, ua=UA_IPHONE):
    """The iOS SDK's view of the Deep View's copied text: one https URL, first `biqli_token` query item."""
    status, _, body = visit(edge, path, ua=ua)
    assert status == 200, status
    urls = {m.group(0) for m in HANDOFF_URL_RE.finditer(body.decode())}
    assert len(urls) == 1, urls
    url = urls.pop()
    parts = urllib.parse.urlsplit(url)
    assert (parts.scheme, parts.hostname, parts.path) == ("https", DEMO_HOST, "/m/handoff"), url
    token = [v for k, v in urllib.parse.parse_qsl(parts.query) if k == "biqli_token"][0]
    assert TOKEN_RE.match(token), token
    return token


def b64d(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def b64e(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def jwks(edge):
    host = urllib.parse.urlsplit(PUBLIC_URL).hostname
    status, headers, raw = with_log(edge, lambda: request(edge.https_port, "/.well-known/jwks.json", tls=True,
                                                          sni=host, host=host))
    assert status == 200, (status, raw[:300])
    return json.loads(raw)


def verify_receipt(receipt, keys):
    """Independent verification with PyNaCl, from the JWKS entry named by the header's kid only."""
    parts = receipt.split(".")
    assert len(parts) == 3 and all(re.fullmatch(r"[A-Za-z0-9_-]+", p) for p in parts), receipt
    header = json.loads(b64d(parts[0]))
    assert header == {"alg": "EdDSA", "kid": header["kid"], "typ": "JWT"}, header
    [jwk] = [k for k in keys["keys"] if k["kid"] == header["kid"]]
    nacl.signing.VerifyKey(b64d(jwk["x"])).verify(f"{parts[0]}.{parts[1]}".encode(), b64d(parts[2]))
    return header, json.loads(b64d(parts[1]))


# ---------------------------------------------------------------- 1. Android: Play Install Referrer


def test_android_play_referrer_resolves_the_click_time_snapshot_and_keeps_it_after_an_edit(demo):
    token = play_token(demo, "/invite?ref=BOB&utm_source=news&evil=1")
    stored = handoff(demo, token)
    phone = Device(demo, "android")
    b = ok(phone.open(handoff=token), "exact_install_referrer")
    expected = {"link": {"id": LINK_IDS["invite"], "shortUrl": "https://go.example.test/invite",
                         "route": "/invite/accepted"},
                "attribution": {"referralCode": "PARTNER_42", "metadata": {"campaign": "spring_launch"},
                                "dynamic": {"ref": "BOB", "utm_source": "news"}},
                "click": {"id": stored["click_id"]}}
    assert {k: b[k] for k in expected} == expected
    assert b["open"]["firstOpen"] is True and b["attributionReceipt"]
    first_id = b["open"]["id"]

    update_link(demo, "invite", mobile={"route": "/invite/v2", "referralCode": "NEWCODE",
                                        "metadata": {"campaign": "autumn"}})
    # The SDK's retry of the same event: the stored answer with the stored receipt (still valid).
    again = ok(phone.resend(request_id="req_" + hex32(False)), "exact_install_referrer")
    assert again["open"]["id"] == first_id and again["attributionReceipt"] == b["attributionReceipt"]
    assert {k: again[k] for k in expected} == expected
    # A later launch of the same instance still holding the token (not a first open): its claim replays.
    later = ok(phone.open(handoff=token, first_open=False), "exact_install_referrer")
    assert {k: later[k] for k in expected} == expected
    assert len(open_events(demo, instance_id=phone.instance)) == 1
    # A click after the edit takes the new payload.
    fresh = ok(Device(demo, "android").open(handoff=play_token(demo, "/invite?ref=CAROL")), "exact_install_referrer")
    assert fresh["link"]["route"] == "/invite/v2" and fresh["attribution"]["referralCode"] == "NEWCODE"
    assert fresh["attribution"]["dynamic"] == {"ref": "CAROL"}


def test_android_empty_os_version_and_explicit_nulls_are_accepted(demo):
    b = ok(Device(demo, "android").open(handoff=play_token(demo, "/promo?campaign=x"), os_version="",
                                        app_version=None), "exact_install_referrer")
    assert b["attribution"] == {"referralCode": None, "metadata": {"tier": "gold"}, "dynamic": {"campaign": "x"}}


# ---------------------------------------------------------------- 2. iOS Deep View paste


def test_ios_deep_view_handoff_url_resolves_exact_handoff(demo):
    token = pasted_token(demo, "/promo?ref=ALICE&campaign=spring&utm_source=dropped")
    b = ok(Device(demo, "ios").open(handoff=token), "exact_handoff")
    assert b["link"] == {"id": LINK_IDS["promo"], "shortUrl": "https://go.example.test/promo", "route": "/promo/spring"}
    assert b["attribution"] == {"referralCode": "ALICE", "metadata": {"tier": "gold"},
                                "dynamic": {"ref": "ALICE", "campaign": "spring"}}
    assert b["click"] == {"id": handoff(demo, token)["click_id"]} and b["attributionReceipt"]


def test_an_ios_token_is_not_an_android_install_referrer_and_vice_versa(demo):
    ios_token = pasted_token(demo, "/invite")
    android_token = play_token(demo, "/invite")
    refused(Device(demo, "android").open(handoff=ios_token), 404, "resource_not_found")
    refused(Device(demo, "ios").open(handoff=android_token), 404, "resource_not_found")
    # Both still work on their own platform.
    ok(Device(demo, "ios").open(handoff=ios_token), "exact_handoff")
    ok(Device(demo, "android").open(handoff=android_token), "exact_install_referrer")


# ---------------------------------------------------------------- 3. installed app: App Links / Universal Links


@pytest.mark.parametrize("platform", ["ios", "android"])
def test_an_installed_app_link_resolves_the_links_current_payload(demo, platform):
    update_link(demo, "invite", mobile={"route": "/invite/now", "metadata": {"campaign": "now"}})
    b = ok(Device(demo, platform).open(deep_link="https://go.example.test/invite?ref=X&utm_source=a+b&evil=1"),
           "exact_app_link")
    assert b["link"] == {"id": LINK_IDS["invite"], "shortUrl": "https://go.example.test/invite", "route": "/invite/now"}
    assert b["attribution"] == {"referralCode": "PARTNER_42", "metadata": {"campaign": "now"},
                                "dynamic": {"ref": "X", "utm_source": "a b"}}
    assert b["click"] is None and b["attributionReceipt"]
    # No static code: `ref` supplies it; the host is case-insensitive.
    b = ok(Device(demo, platform).open(deep_link="https://GO.example.test/promo?ref=Y&campaign=c", first_open=False),
           "exact_app_link")
    assert b["open"]["firstOpen"] is False
    assert b["attribution"] == {"referralCode": "Y", "metadata": {"tier": "gold"}, "dynamic": {"ref": "Y", "campaign": "c"}}


UNMATCHABLE = [
    "https://go.example.test/nosuchkey",
    "https://go.example.test/docs",  # a web-only link
    "https://www.example.com/invite",  # another host
    "https://links.example.test/invite",  # attached domain, no such link there
    "https://go.example.test/invite/extra",
    "https://go.example.test/invite/",
    "https://go.example.test/invite#frag",
    "https://user:pw@go.example.test/invite",
    "http://go.example.test/invite",
    "https://go.example.test:8443/invite",
    "https://go.example.test/Invite",  # keys are case-sensitive
    "not a url at all",
]


@pytest.mark.parametrize("platform", ["ios", "android"])
def test_an_unmatchable_deep_link_is_200_none_never_4xx(demo, platform):
    for deep_link in UNMATCHABLE:
        phone = Device(demo, platform)
        h, body = phone.prepare(deep_link=deep_link, domain=urllib.parse.urlsplit(deep_link).hostname)
        b = ok(post(demo, h, body), "none")
        assert b["open"]["firstOpen"] is True, deep_link


def test_a_disabled_link_or_another_apps_link_is_none(demo):
    update_link(demo, "promo", enabled=False)
    ok(Device(demo, "ios").open(deep_link="https://go.example.test/promo"), "none")
    other = create_app(demo, "Other", ios=demo_ios(bundleId="com.example.other", probabilisticFallback=False),
                       domains=[DEMO_HOST])
    update_link(demo, "invite", mobile={"appId": other})
    ok(Device(demo, "ios").open(deep_link="https://go.example.test/invite"), "none")


# ---------------------------------------------------------------- 4. handoff binding, mismatch, expiry


def test_a_claimed_handoff_replays_for_its_instance_and_is_refused_to_another(demo):
    token = play_token(demo, "/invite?ref=BOB")
    first = Device(demo, "android")
    b = ok(first.open(handoff=token), "exact_install_referrer")
    # Another installation (a reinstall, another phone) cannot take it.
    refused(Device(demo, "android").open(handoff=token), 404, "resource_not_found")
    # The first instance asking again (a new event, not a first open) gets its result back.
    again = ok(first.open(handoff=token, first_open=False), "exact_install_referrer")
    assert again["open"]["id"] == b["open"]["id"] and again["attributionReceipt"] is None
    assert again["link"] == b["link"] and again["attribution"] == b["attribution"]
    assert len(open_events(demo, instance_id=first.instance)) == 1


def test_fifty_instances_racing_for_one_handoff_give_one_match(demo):
    token = play_token(demo, "/invite")
    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = list(pool.map(lambda _: Device(demo, "android").open(handoff=token), range(50)))
    assert sorted(a.status for a in answers) == [200] + [404] * 49, answers
    for a in answers:
        ok(a, "exact_install_referrer") if a.status == 200 else refused(a, 404, "resource_not_found")


def test_another_apps_handoff_is_404(demo):
    other = api(demo, "POST", "/mobile-apps", {"name": "Other", "android": demo_android(packageName="com.example.other"),
                                               "domains": [DEMO_HOST]})
    api(demo, "POST", "/links", {"domain": DEMO_HOST, "key": "other", "url": "https://www.example.com/other",
                                 "mobile": {"appId": other["id"], "route": "/other"}})
    token = play_token(demo, "/other")
    refused(Device(demo, "android").open(handoff=token), 404, "resource_not_found")
    b = ok(Device(demo, "android", key=other["publishableKey"], app_id=other["id"]).open(handoff=token),
           "exact_install_referrer")
    assert b["link"]["route"] == "/other"


def test_unknown_and_malformed_tokens_are_404(demo):
    refused(Device(demo, "android").open(handoff="bqmh_" + "A" * 43), 404, "resource_not_found")
    refused(Device(demo, "ios").open(handoff="bqmh_short"), 404, "resource_not_found")


def test_handoff_and_deep_link_naming_different_links_is_handoff_mismatch(demo):
    token = play_token(demo, "/invite?ref=BOB")
    phone = Device(demo, "android")
    refused(phone.open(handoff=token, deep_link="https://go.example.test/promo"), 422, "handoff_mismatch")
    assert open_events(demo) == []
    # Naming the same link, or with an unmatchable deep link: the handoff's click-time snapshot.
    update_link(demo, "invite", mobile={"route": "/invite/v2"})
    b = ok(phone.open(handoff=token, deep_link="https://go.example.test/invite?ref=OTHER"), "exact_install_referrer")
    assert b["link"]["route"] == "/invite/accepted" and b["attribution"]["dynamic"] == {"ref": "BOB"}
    token = pasted_token(demo, "/promo?ref=A")
    b = ok(Device(demo, "ios").open(handoff=token, deep_link="https://go.example.test/nosuchkey"), "exact_handoff")
    assert b["link"]["id"] == LINK_IDS["promo"]


def test_the_apps_handoff_lifetime_sets_the_expiry_of_new_handoffs(demo):
    # The shortest lifetime the API allows is 300 s: this checks that the shortened lifetime is
    # what is stored; the refusal of an expired token is the test after this one.
    update_app(demo, DEMO_APP_ID, handoffLifetimeSeconds=300)
    before = int(time.time() * 1000)
    token = play_token(demo, "/invite")
    after = int(time.time() * 1000)
    row = handoff(demo, token)
    assert before + 300_000 - 1000 <= row["expires_at"] <= after + 300_000 + 1000, row
    ok(Device(demo, "android").open(handoff=token), "exact_install_referrer")


def test_an_expired_handoff_is_404_and_a_live_one_beside_it_still_matches(demo):
    # The shortest lifetime is 300 s, so the test ages one handoff in the file instead of
    # waiting: the only write behind the edge's back in this suite (time cannot be moved
    # from outside the process). The resolver reads the row in its own transaction.
    expired, live = play_token(demo, "/invite"), play_token(demo, "/invite")
    changed = write_behind(demo.dir, "UPDATE handoffs SET expires_at = ? WHERE token_hash = ?",
                           (int(time.time() * 1000) - 1, handoff_key(expired)))
    assert changed == 1
    refused(Device(demo, "android").open(handoff=expired), 404, "resource_not_found")
    assert handoff(demo, expired)["claimed_instance"] is None, "an expired handoff is not bound to anyone"
    ok(Device(demo, "android").open(handoff=live), "exact_install_referrer")


# ---------------------------------------------------------------- 5. first-open immutability


def test_a_matched_first_open_is_immutable_for_its_instance(demo):
    phone = Device(demo, "ios")
    first = ok(phone.open(deep_link="https://go.example.test/invite?ref=A"), "exact_app_link")
    assert first["attributionReceipt"]
    # A later first open with another link: the original result, no fresh receipt, no new event.
    later = ok(phone.open(deep_link="https://go.example.test/promo?ref=B"), "exact_app_link")
    assert later["open"]["id"] == first["open"]["id"] and later["attributionReceipt"] is None
    assert (later["link"], later["attribution"]) == (first["link"], first["attribution"])
    token = pasted_token(demo, "/promo")
    later = ok(phone.open(handoff=token), "exact_app_link")
    assert later["open"]["id"] == first["open"]["id"] and later["link"]["id"] == LINK_IDS["invite"]
    assert len(open_events(demo, instance_id=phone.instance)) == 1
    # Not a first open: resolved afresh.
    other = ok(phone.open(deep_link="https://go.example.test/promo?ref=C", first_open=False), "exact_app_link")
    assert other["open"]["id"] != first["open"]["id"] and other["link"]["id"] == LINK_IDS["promo"]
    assert other["attributionReceipt"]


def test_an_unmatched_first_open_does_not_freeze_the_instance(demo):
    phone = Device(demo, "android")
    ok(phone.open(), "none")
    b = ok(phone.open(deep_link="https://go.example.test/invite"), "exact_app_link")
    assert b["attributionReceipt"]


# ---------------------------------------------------------------- 6. iOS probabilistic


def enable_probabilistic(edge):
    update_app(edge, DEMO_APP_ID, ios={"probabilisticFallback": True, "probabilisticWindowMinutes": 60})
    d = api(edge, "GET", f"/domains/{DEMO_HOST}")
    assert d["verified"] is True and d["httpsActive"] is True, d


def ios_click(edge, path="/promo?campaign=spring"):
    """One iPhone visit from 127.0.0.1 (a Deep View): one probabilistic candidate."""
    status, _, _ = visit(edge, path, ua=UA_IPHONE)
    assert status == 200


def test_probabilistic_one_candidate_matches_and_is_consumed(demo):
    enable_probabilistic(demo)
    ios_click(demo)
    # Without consent, or not a first open: not evaluated (and nothing consumed).
    ok(Device(demo, "ios").open(probabilistic=False, domain=DEMO_HOST), "none")
    ok(Device(demo, "ios").open(probabilistic=True, first_open=False, domain=DEMO_HOST), "none")
    # Another OS version than the click's: not this candidate.
    ok(Device(demo, "ios").open(probabilistic=True, domain=DEMO_HOST, os_version="16.1"), "none")
    b = ok(Device(demo, "ios").open(probabilistic=True, domain=DEMO_HOST, os_version="17.4"), "probabilistic")
    assert b["open"]["confidence"] == "probabilistic"
    assert b["link"] == {"id": LINK_IDS["promo"], "shortUrl": "https://go.example.test/promo", "route": "/promo/spring"}
    assert b["attribution"] == {"referralCode": None, "metadata": {"tier": "gold"}, "dynamic": {"campaign": "spring"}}
    assert b["attributionReceipt"]
    _, claims = verify_receipt(b["attributionReceipt"], jwks(demo))
    assert (claims["matchedBy"], claims["confidence"]) == ("probabilistic", "probabilistic")
    assert claims["clickId"] == b["click"]["id"]
    [consumed] = _rows(demo, "SELECT id FROM clicks WHERE consumed_by_open = ?", (b["open"]["id"],))
    assert consumed["id"] == b["click"]["id"]
    # Consumed: the next installation gets nothing.
    ok(Device(demo, "ios").open(probabilistic=True, domain=DEMO_HOST), "none")


def test_probabilistic_zero_or_two_candidates_is_none(demo):
    enable_probabilistic(demo)
    ok(Device(demo, "ios").open(probabilistic=True, domain=DEMO_HOST), "none")
    ios_click(demo)
    ios_click(demo, "/invite")
    ok(Device(demo, "ios").open(probabilistic=True, domain=DEMO_HOST), "none")
    ok(Device(demo, "ios").open(probabilistic=True, domain=DEMO_HOST, os_version="17.4"), "none")


def test_probabilistic_is_off_when_the_app_does_not_allow_it(demo):
    update_app(demo, DEMO_APP_ID, ios={"probabilisticFallback": False})
    ios_click(demo)
    ok(Device(demo, "ios").open(probabilistic=True, domain=DEMO_HOST), "none")


def test_invalid_probabilistic_domain_only_when_evaluation_would_run(demo):
    enable_probabilistic(demo)
    put_domain(demo, "other.example.test")  # verified, not attached to the app
    put_domain(demo, "unverified.example.test", verified=False)
    update_app(demo, DEMO_APP_ID, domains=[DEMO_HOST, "links.example.test", "unverified.example.test"])
    for domain in ("other.example.test", "unverified.example.test", "nowhere.example.com", None):
        refused(Device(demo, "ios").open(probabilistic=True, domain=domain), 422, "invalid_probabilistic_domain")
    # Not a first open, a deep link present, or no consent: evaluation does not run, so no error.
    ok(Device(demo, "ios").open(probabilistic=True, first_open=False, domain="nowhere.example.com"), "none")
    ok(Device(demo, "ios").open(probabilistic=False, domain="nowhere.example.com"), "none")
    ok(Device(demo, "ios").open(probabilistic=True, deep_link="https://www.example.com/x"), "none")


def test_exact_inputs_win_over_a_probabilistic_candidate(demo):
    enable_probabilistic(demo)
    ios_click(demo, "/promo")
    b = ok(Device(demo, "ios").open(probabilistic=True, deep_link="https://go.example.test/invite"), "exact_app_link")
    assert b["link"]["id"] == LINK_IDS["invite"]
    token = pasted_token(demo, "/invite")  # a second candidate, and an exact handoff
    ok(Device(demo, "ios").open(probabilistic=True, handoff=token, domain=DEMO_HOST), "exact_handoff")
    # Neither exact answer consumed a candidate.
    assert _rows(demo, "SELECT count(*) AS n FROM clicks WHERE consumed_by_open IS NOT NULL")[0]["n"] == 0


# ---------------------------------------------------------------- 7. publishable keys


def test_key_rotation_overlap_and_revocation(demo):
    k1 = demo.publishable_key
    update_app(demo, DEMO_APP_ID, keyOverlapSeconds=3600)
    k2 = api(demo, "POST", f"/mobile-apps/{DEMO_APP_ID}/keys/rotate")["publishableKey"]
    assert re.fullmatch(r"biqli_mobile_pk_[A-Za-z0-9_-]{64}", k2) and k2 != k1
    for key in (k1, k2):
        ok(Device(demo, "android", key=key).open(), "none")
    # A rotation without overlap ends k2 at once (k1 keeps its own end).
    update_app(demo, DEMO_APP_ID, keyOverlapSeconds=0)
    k3 = api(demo, "POST", f"/mobile-apps/{DEMO_APP_ID}/keys/rotate")["publishableKey"]
    refused(Device(demo, "android", key=k2).open(), 401, "invalid_mobile_key")
    ok(Device(demo, "ios", key=k1).open(), "none")
    ok(Device(demo, "ios", key=k3).open(), "none")
    # The key is not part of the canonical request: a retry after an app update with the new key replays.
    phone = Device(demo, "android", key=k1)
    first = ok(phone.open(deep_link="https://go.example.test/invite"), "exact_app_link")
    h, body = phone.prepare(event=phone.last[2], **phone.last[1])
    again = ok(post(demo, {**h, "Authorization": "Bearer " + k3}, body), "exact_app_link")
    assert again["open"]["id"] == first["open"]["id"] and again["attributionReceipt"] == first["attributionReceipt"]


def test_a_key_rotated_out_without_overlap_is_refused_at_once_even_if_just_used(demo):
    # The resolver caches key records per event loop; a key change must empty those caches before the
    # API answers (docs/management.md: the previous key ends "at once for 0").
    update_app(demo, DEMO_APP_ID, keyOverlapSeconds=0)
    old = demo.publishable_key
    for _ in range(6):  # fresh connections: every event loop has just seen the key
        ok(Device(demo, "android", key=old).open(), "none")
    api(demo, "POST", f"/mobile-apps/{DEMO_APP_ID}/keys/rotate")
    statuses = [Device(demo, "android", key=old).open().status for _ in range(6)]
    assert statuses == [401] * 6, statuses


@pytest.mark.parametrize("authorization", [
    None, "Bearer ", "Bearer biqli_mobile_pk_" + "A" * 64, "Bearer biqli_mobile_pk_short", "Basic dXNlcjpwYXNz",
    "Bearer garbage", "secret"])
def test_a_missing_or_unknown_key_is_401_invalid_mobile_key(demo, authorization):
    phone = Device(demo, "ios")
    h, body = phone.prepare(deep_link="https://go.example.test/invite")
    h.pop("Authorization")
    if authorization == "secret":
        authorization = "Bearer " + demo.secret_key  # a workspace key is no mobile key
    if authorization is not None:
        h["Authorization"] = authorization
    refused(post(demo, h, body), 401, "invalid_mobile_key")


# ---------------------------------------------------------------- 8. idempotency


def test_an_identical_replay_returns_the_stored_answer_and_writes_nothing(demo):
    phone = Device(demo, "ios")
    first = ok(phone.open(deep_link="https://go.example.test/invite?ref=A"), "exact_app_link")
    assert first["attributionReceipt"]
    for _ in range(3):  # keys reshuffled each time, a new request ID: the same canonical request
        rid = "req_" + hex32(True)
        again = ok(phone.resend(request_id=rid), "exact_app_link")
        assert again["requestId"] == rid and again["open"]["id"] == first["open"]["id"]
        assert again["attributionReceipt"] == first["attributionReceipt"]  # stored with the event
        assert {k: again[k] for k in ("open", "click", "link", "attribution")} == \
            {k: first[k] for k in ("open", "click", "link", "attribution")}
    assert len(open_events(demo, instance_id=phone.instance)) == 1


def test_android_nulls_omitted_fields_and_time_spelling_are_the_same_canonical_request(demo):
    phone = Device(demo, "android")
    h, body = phone.prepare(deep_link="https://go.example.test/promo", occurred_at="2026-11-29T10:00:00.000Z")
    first = ok(post(demo, h, body), "exact_app_link")
    fields = json.loads(body)
    fields["occurredAt"] = "2026-11-29T10:00:00Z"
    same = {k: v for k, v in fields.items() if v is not None}
    again = ok(post(demo, h, json.dumps(same).encode()), "exact_app_link")
    assert again["open"]["id"] == first["open"]["id"] and again["attributionReceipt"] == first["attributionReceipt"]
    assert len(open_events(demo)) == 1


def test_an_event_reused_with_other_data_is_409_idempotency_conflict(demo):
    phone = Device(demo, "ios")
    ok(phone.open(deep_link="https://go.example.test/invite"), "exact_app_link")
    refused(phone.resend(deep_link="https://go.example.test/promo"), 409, "idempotency_conflict")
    refused(phone.resend(app_version="9.9"), 409, "idempotency_conflict")
    # The same Idempotency-Key with a regenerated eventId is the same identity too.
    h, fields, event = phone.last
    new_event = "open_" + hex32(True)
    refused(post(demo, h, ios_body(new_event, phone.instance, **fields)), 409, "idempotency_conflict")
    # And the same eventId with a regenerated key.
    refused(post(demo, {**h, "Idempotency-Key": new_event}, ios_body(event, phone.instance, **fields)), 409,
            "idempotency_conflict")
    assert len(open_events(demo)) == 1


def test_fifty_concurrent_identical_requests_give_one_open_event(demo):
    phone = Device(demo, "android")
    token = play_token(demo, "/invite?ref=BOB")
    h, body = phone.prepare(handoff=token)
    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = list(pool.map(lambda _: post(demo, h, body), range(50)))
    bodies = [ok(a, "exact_install_referrer") for a in answers]
    assert len({b["open"]["id"] for b in bodies}) == 1
    # The live answer and 49 replays: the receipt is stored with the event, so all carry the same one.
    assert bodies[0]["attributionReceipt"] and len({b["attributionReceipt"] for b in bodies}) == 1
    assert len(open_events(demo, event_id=json.loads(body)["eventId"])) == 1
    assert len(open_events(demo)) == 1


def test_a_replay_returns_the_stored_receipt_by_event_id_and_by_idempotency_key(demo):
    # Issue 14 (item 9): an SDK whose first answer was lost retries with the same key; the install's proof must
    # not be gone. The same receipt comes back (until it expires, docs/receipts.md), stored with the event.
    keys = jwks(demo)
    android = Device(demo, "android")  # the SDKs: Idempotency-Key = eventId
    first = ok(android.open(handoff=play_token(demo, "/invite?ref=BOB")), "exact_install_referrer")
    ios = Device(demo, "ios")  # another client's own Idempotency-Key, kept as its hash
    h, body = ios.prepare(deep_link="https://go.example.test/promo?ref=ZED",
                          headers={"Idempotency-Key": "client-key-" + hex32(False)})
    second = ok(post(demo, h, body), "exact_app_link")
    for device, answer, again in (
            (android, first, lambda: android.resend(request_id="req_" + hex32(False))),
            (ios, second, lambda: post(demo, {**h, "X-Biq-Request-Id": "req_" + hex32(True)}, body))):
        receipt = answer["attributionReceipt"]
        _, claims = verify_receipt(receipt, keys)
        replay = ok(again(), answer["open"]["matchedBy"])
        assert replay["open"]["id"] == answer["open"]["id"] and replay["requestId"] != answer["requestId"]
        assert replay["attributionReceipt"] == receipt
        [row] = _rows(demo, "SELECT receipt, receipt_input, receipt_expires_at FROM open_events WHERE id = ?",
                      (answer["open"]["id"],))
        assert row["receipt_expires_at"] == claims["exp"] * 1000
        if answer["open"]["matchedBy"] == "exact_app_link":  # signed on the loop before the write
            assert bytes(row["receipt"]) == receipt.encode() and row["receipt_input"] is None
        else:  # decided by the write: stored unsigned, signed on the way out (decision 0023)
            assert row["receipt"] is None and receipt.encode().startswith(bytes(row["receipt_input"]) + b".")
        assert claims["eventId"] == device.last[2] and claims["exp"] == claims["iat"] + 600
    assert len(open_events(demo)) == 2


# ---------------------------------------------------------------- 9. errors over the wire


def mutate_headers(**changes):
    def apply(h, fields):
        for k, v in changes.items():
            k = k.replace("_", "-")
            if v is None:
                h.pop(k, None)
            else:
                h[k] = v
        return h, None
    return apply


HEADER_CASES = {
    "no_sdk": mutate_headers(X_Biq_SDK=None),
    "bad_sdk": mutate_headers(X_Biq_SDK="windows"),
    "no_sdk_version": mutate_headers(X_Biq_SDK_Version=None),
    "long_sdk_version": mutate_headers(X_Biq_SDK_Version="1" * 33),
    "no_request_id": mutate_headers(X_Biq_Request_Id=None),
    "short_request_id": mutate_headers(X_Biq_Request_Id="req_1"),
    "bad_request_id": mutate_headers(X_Biq_Request_Id="req 12345678"),
    "no_idempotency_key": mutate_headers(Idempotency_Key=None),
    "short_idempotency_key": mutate_headers(Idempotency_Key="open_1"),
    "bad_idempotency_key": mutate_headers(Idempotency_Key="open/12345678"),
    "long_idempotency_key": mutate_headers(Idempotency_Key="k" * 101),
    "upper_case_sdk": mutate_headers(X_Biq_SDK="IOS"),
    "empty_sdk_version": mutate_headers(X_Biq_SDK_Version=""),
    "long_request_id": mutate_headers(X_Biq_Request_Id="r" * 101),
}


@pytest.mark.parametrize("case", sorted(HEADER_CASES))
def test_missing_or_malformed_sdk_headers_are_400_invalid_headers(demo, case):
    phone = Device(demo, "ios")
    h, body = phone.prepare(deep_link="https://go.example.test/invite")
    h, _ = HEADER_CASES[case](h, None)
    b = refused(post(demo, h, body), 400, "invalid_headers")
    if "X-Biq-Request-Id" not in h or case.endswith("request_id"):
        assert re.fullmatch(r"[A-Za-z0-9._~-]{8,100}", b["requestId"]), b  # one of the edge's own
    assert open_events(demo) == []


def test_a_bad_sdk_version_header_is_refused_with_the_rule_it_breaks(demo):
    # Issue 14 (item 10d): a tab inside the value is named as such, not as a length problem.
    phone = Device(demo, "ios")
    h, body = phone.prepare(deep_link="https://go.example.test/invite")
    for value, message in (("1.0\t0", "X-Biq-SDK-Version must not contain a tab or other control character."),
                           ("1" * 33, "X-Biq-SDK-Version must be at most 32 characters."),
                           ("", "X-Biq-SDK-Version must not be empty.")):
        b = refused(post(demo, {**h, "X-Biq-SDK-Version": value}, body), 400, "invalid_headers")
        assert b["error"]["message"] == message, (value, b)
    h.pop("X-Biq-SDK-Version")
    b = refused(post(demo, h, body), 400, "invalid_headers")
    assert b["error"]["message"] == "X-Biq-SDK-Version is required.", b
    assert open_events(demo) == []


def nested(depth):
    """An `attestation` value that makes the whole body `depth` levels deep (the body object is level 1)."""
    value = []
    for _ in range(depth - 2):
        value = [value]
    return value


def sized(phone, size):
    """An Android body of exactly `size` bytes (padding in the reserved `attestation` object)."""
    h, body = phone.prepare(attestation={"p": ""})
    pad = size - len(body)
    assert pad >= 0
    h, body = phone.prepare(event=phone.last[2], attestation={"p": "x" * pad})
    assert len(body) == size
    return h, body


def test_bodies_up_to_16_kb_and_32_levels_are_read_beyond_them_400_invalid_request(demo):
    phone = Device(demo, "android")
    ok(post(demo, *sized(phone, 16384)), "none")
    refused(post(demo, *sized(phone, 16385)), 400, "invalid_request")
    ok(phone.open(attestation=nested(32)), "none")
    refused(phone.open(attestation=nested(33)), 400, "invalid_request")
    refused(phone.open(attestation=nested(500)), 400, "invalid_request")


@pytest.mark.parametrize("raw", [b"", b"{", b"[]", b"\"x\"", b"null", b'{"eventId":"a","eventId":"b"}',
                                 b"\xff\xfe{}", b'{"a":1}garbage'],
                         ids=["empty", "truncated", "array", "string", "null", "duplicate_key", "not_utf8", "trailing"])
def test_unreadable_bodies_are_400_invalid_request(demo, raw):
    phone = Device(demo, "ios")
    h, _ = phone.prepare()
    refused(post(demo, h, raw), 400, "invalid_request")


def test_identifiers_at_their_longest_are_accepted(demo):
    phone = Device(demo, "android", instance="i" * 128)
    event = "e" * 100
    h, body = phone.prepare(event=event, request_id="r" * 100, app_version="a" * 32, os_version="o" * 32,
                            deep_link="https://go.example.test/" + "k" * (2048 - len("https://go.example.test/")))
    assert len(json.loads(body)["deepLink"]) == 2048
    b = ok(post(demo, h, body), "none")
    assert b["requestId"] == "r" * 100
    assert [r["event_id"] for r in open_events(demo)] == [event]


def test_an_sdk_reuses_one_kept_alive_connection(demo):
    conn = Conn(demo.https_port, tls=True, sni=DEMO_HOST)
    try:
        phone = Device(demo, "ios")
        seen = []
        for deep_link in ("https://go.example.test/invite", "https://go.example.test/promo", None):
            h, body = phone.prepare(deep_link=deep_link, first_open=False)
            head = f"POST {PATH} HTTP/1.1\r\nHost: {DEMO_HOST}\r\nContent-Length: {len(body)}\r\n"
            conn.send(head + "".join(f"{k}: {v}\r\n" for k, v in h.items()) + "\r\n")
            conn.send(body)
            status, headers, raw = conn.response()
            seen.append(ok(Answer(status, headers, raw, h["X-Biq-Request-Id"]))["open"]["matchedBy"])
        assert seen == ["exact_app_link", "exact_app_link", "none"]
    finally:
        conn.close()


def test_a_non_json_content_type_is_400_invalid_request(demo):
    h, body = Device(demo, "android").prepare()
    refused(post(demo, {**h, "Content-Type": "text/plain"}, body), 400, "invalid_request")
    ok(post(demo, {**h, "Content-Type": "application/json; charset=utf-8"}, body), "none")


VALIDATION_CASES = {
    "unknown_field": {"extra": 1},
    "short_event": {"eventId": "open_1"},
    "bad_event": {"eventId": "open 1234567"},
    "short_instance": {"appInstanceId": "install_1234567"},
    "bad_platform": {"platform": "web"},
    "first_open_string": {"firstOpen": "true"},
    "probabilistic_null": {"probabilisticAllowed": None},
    "long_app_version": {"appVersion": "1" * 33},
    "long_os_version": {"osVersion": "1" * 33},
    "long_token": {"handoffToken": "bqmh_" + "a" * 124},
    "token_number": {"handoffToken": 5},
    "bad_occurred_at": {"occurredAt": "yesterday"},
    "long_domain": {"domain": "a" * 256},
    "no_sdk_version": {"sdkVersion": None},
    "no_app_id": {"appId": None},
    "attestation_string": {"attestation": "x"},
    "long_event": {"eventId": "e" * 101},
    "long_app_id": {"appId": "biq_mapp_" + "0" * 32},
    "long_instance": {"appInstanceId": "i" * 129},
    "long_sdk_version": {"sdkVersion": "1" * 33},
    "deep_link_number": {"deepLink": 1},
}


@pytest.mark.parametrize("case", sorted(VALIDATION_CASES))
def test_malformed_or_unknown_fields_are_422_validation_error(demo, case):
    phone = Device(demo, "android")
    h, body = phone.prepare()
    fields = json.loads(body)
    for k, v in VALIDATION_CASES[case].items():
        if v is None and k in ("sdkVersion", "appId", "probabilisticAllowed"):
            fields.pop(k)
        else:
            fields[k] = v
    refused(post(demo, h, json.dumps(fields).encode()), 422, "validation_error")
    assert open_events(demo) == []


def test_an_app_id_that_is_not_the_keys_is_404_resource_not_found(demo):
    other = api(demo, "POST", "/mobile-apps", {"name": "Second", "android": demo_android(packageName="com.example.two"),
                                               "domains": []})
    refused(Device(demo, "android", app_id=other["id"]).open(), 404, "resource_not_found")  # demo key, other app
    refused(Device(demo, "android", key=other["publishableKey"]).open(), 404, "resource_not_found")
    refused(Device(demo, "android", app_id="biq_mapp_01ARZ3NDEKTSV4RRFFQ69G5FAV").open(), 404, "resource_not_found")
    ok(Device(demo, "android", key=other["publishableKey"], app_id=other["id"]).open(), "none")


def test_platform_switches_of_the_app(demo):
    ios_only = api(demo, "POST", "/mobile-apps", {"name": "iOS only", "ios": demo_ios(bundleId="com.example.ios"),
                                                  "domains": []})
    d = lambda platform: Device(demo, platform, key=ios_only["publishableKey"], app_id=ios_only["id"])  # noqa: E731
    refused(d("android").open(), 422, "platform_not_configured")
    ok(d("ios").open(), "none")
    update_app(demo, ios_only["id"], ios={"sdkEnabled": False})
    refused(d("ios").open(), 403, "mobile_sdk_unavailable")
    update_app(demo, ios_only["id"], ios={"sdkEnabled": True}, enabled=False)
    refused(d("ios").open(), 403, "mobile_linking_unavailable")
    update_app(demo, ios_only["id"], enabled=True)
    ok(d("ios").open(), "none")


def test_headers_disagreeing_with_the_body_are_422_header_mismatch(demo):
    phone = Device(demo, "ios")
    h, body = phone.prepare()
    refused(post(demo, {**h, "X-Biq-SDK": "android"}, body), 422, "header_mismatch")
    refused(post(demo, {**h, "X-Biq-SDK-Version": "1.0.1"}, body), 422, "header_mismatch")
    ok(post(demo, h, body), "none")


def test_an_instance_used_with_the_other_platform_is_422_platform_mismatch(demo):
    ios = Device(demo, "ios")
    ok(ios.open(), "none")
    android = Device(demo, "android", instance=ios.instance)
    refused(android.open(), 422, "platform_mismatch")
    ok(ios.open(first_open=False), "none")


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH"])
def test_other_methods_are_405_with_allow_post_and_the_standard_envelope(demo, method):
    h, body = Device(demo, "android").prepare()
    a = post(demo, h, body if method != "GET" else b"", method=method)
    assert a.status == 405 and a.headers["allow"] == "POST", a
    assert set(a.json) == {"error", "request_id"} and a.json["error"]["code"] == "method_not_allowed", a
    assert a.json["request_id"] == a.headers["x-biq-request-id"] == h["X-Biq-Request-Id"]
    assert a.headers["cache-control"] == "no-store" and "text/html" not in a.headers.get("content-type", "")


@pytest.mark.sqlite_only
def test_a_resolution_whose_write_fails_is_500_writes_nothing_and_its_retry_matches(edge_factory):
    """Another process holds the database's write lock past BIQLI_EDGE_STORE_LOCK_WAIT_MS: the
    resolution's one transaction fails whole (no open event, the handoff still unbound), the
    answer is the documented 500 envelope, and the SDK's retry of the same request matches."""
    demo = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_STORE_LOCK_WAIT_MS": "300"})
    token = play_token(demo, "/invite")
    phone = Device(demo, "android")
    holder = sqlite3.connect(os.path.join(demo.dir, "edge.sqlite3"), isolation_level=None, timeout=10)
    holder.execute("BEGIN IMMEDIATE")  # the write lock, as an operator's sqlite3 session takes it
    try:
        failed = phone.open(handoff=token)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # The 500 handler's standard envelope (resolver-contract.md), as the 405's.
    assert (failed.status, failed.code) == (500, "internal_server_error"), failed
    assert set(failed.json) == {"error", "request_id"} and failed.json["error"]["message"], failed
    assert failed.json["request_id"] == failed.headers["x-biq-request-id"] == phone.last[0]["X-Biq-Request-Id"]
    assert failed.headers["cache-control"] == "no-store"
    assert open_events(demo, instance_id=phone.instance) == []
    assert handoff(demo, token)["claimed_instance"] is None
    retried = ok(phone.resend(), "exact_install_referrer")
    assert retried["attributionReceipt"]
    assert len(open_events(demo, instance_id=phone.instance)) == 1
    assert handoff(demo, token)["claimed_instance"] == phone.instance


# ---------------------------------------------------------------- 10. receipts


def thumbprint(jwk):
    canonical = json.dumps({"crv": jwk["crv"], "kty": jwk["kty"], "x": jwk["x"]}, separators=(",", ":"))
    return b64e(hashlib.sha256(canonical.encode()).digest())


def test_receipts_verify_against_the_published_jwks_with_the_documented_claims(demo):
    keys = jwks(demo)
    for k in keys["keys"]:
        assert (k["kty"], k["crv"], k["use"], k["alg"]) == ("OKP", "Ed25519", "sig", "EdDSA") and len(b64d(k["x"])) == 32
        assert k["kid"] == thumbprint(k)
    token = play_token(demo, "/invite?ref=BOB")
    click_id = handoff(demo, token)["click_id"]
    android = Device(demo, "android")
    before = int(time.time())
    b = ok(android.open(handoff=token), "exact_install_referrer")
    after = int(time.time())
    header, claims = verify_receipt(b["attributionReceipt"], keys)
    assert list(claims) == ["iss", "sub", "aud", "iat", "exp", "jti", "openId", "eventId", "platform", "firstOpen",
                            "matchedBy", "confidence", "linkId", "clickId", "referralCode"], claims
    assert claims == {
        "iss": PUBLIC_URL, "sub": android.instance, "aud": DEMO_APP_ID, "iat": claims["iat"],
        "exp": claims["iat"] + 600, "jti": "rcpt_" + b["open"]["id"][len("biq_open_"):], "openId": b["open"]["id"],
        "eventId": android.last[2], "platform": "android", "firstOpen": True,
        "matchedBy": "exact_install_referrer", "confidence": "exact", "linkId": LINK_IDS["invite"],
        "clickId": click_id, "referralCode": "PARTNER_42"}
    assert before - 1 <= claims["iat"] <= after + 1

    ios = Device(demo, "ios")
    b2 = ok(ios.open(deep_link="https://go.example.test/promo?ref=ZED", first_open=False), "exact_app_link")
    _, c2 = verify_receipt(b2["attributionReceipt"], keys)
    assert (c2["sub"], c2["platform"], c2["firstOpen"], c2["matchedBy"], c2["linkId"], c2["clickId"],
            c2["referralCode"]) == (ios.instance, "ios", False, "exact_app_link", LINK_IDS["promo"], None, "ZED")
    assert c2["jti"] != claims["jti"]

    # The same check with `cryptography`, and tampering fails both.
    h, c, s = b["attributionReceipt"].split(".")
    [jwk] = [k for k in keys["keys"] if k["kid"] == header["kid"]]
    public = Ed25519PublicKey.from_public_bytes(b64d(jwk["x"]))
    public.verify(b64d(s), f"{h}.{c}".encode())
    forged = b64e(json.dumps({**claims, "referralCode": "EVIL"}, separators=(",", ":")).encode())
    with pytest.raises(InvalidSignature):
        public.verify(b64d(s), f"{h}.{forged}".encode())
    with pytest.raises(nacl.exceptions.BadSignatureError):
        verify_receipt(f"{h}.{forged}.{s}", keys)
    flipped = bytearray(b64d(s))
    flipped[0] ^= 1
    with pytest.raises(nacl.exceptions.BadSignatureError):
        verify_receipt(f"{h}.{c}.{b64e(bytes(flipped))}", keys)


def test_the_jwks_is_public_and_cacheable(demo):
    host = urllib.parse.urlsplit(PUBLIC_URL).hostname
    status, headers, raw = request(demo.https_port, "/.well-known/jwks.json", tls=True, sni=host, host=host)
    assert status == 200 and headers["cache-control"] == "public, max-age=300", headers
    assert len(json.loads(raw)["keys"]) >= 1


# ---------------------------------------------------------------- 11. rate limits


def test_the_per_instance_limit_answers_429_with_a_whole_second_retry_after(edge_factory):
    edge = start_demo(edge_factory, env={"BIQLI_EDGE_RATE_PER_INSTANCE": "3"})
    phone = Device(edge, "ios")
    for _ in range(3):
        ok(phone.open(first_open=False), "none")
    a = phone.open(first_open=False)
    refused(a, 429, "rate_limited")
    assert re.fullmatch(r"[1-9][0-9]*", a.headers["retry-after"]) and int(a.headers["retry-after"]) <= 20, a.headers
    assert a.json["requestId"] == a.sent_request_id
    ok(Device(edge, "ios").open(first_open=False), "none")  # another instance is not limited


def test_repeated_invalid_keys_from_one_address_are_429(edge_factory):
    edge = start_demo(edge_factory, env={"BIQLI_EDGE_RATE_INVALID_PER_ADDRESS": "3"})
    for _ in range(3):
        refused(Device(edge, "android", key="biqli_mobile_pk_" + "A" * 64).open(), 401, "invalid_mobile_key")
    for key in ("biqli_mobile_pk_" + "A" * 64, "biqli_mobile_pk_" + "B" * 64, "garbage"):
        a = Device(edge, "android", key=key).open()
        refused(a, 429, "rate_limited")
        assert re.fullmatch(r"[1-9][0-9]*", a.headers["retry-after"]), a.headers


def test_a_spent_invalid_key_bucket_refuses_only_invalid_keys(edge_factory):
    # Issue 14 (item 6): one device behind a NAT with a stale key must not lock every app behind the same
    # address out for the rest of the minute; the stricter bucket slows further invalid attempts only.
    edge = start_demo(edge_factory, env={"BIQLI_EDGE_RATE_INVALID_PER_ADDRESS": "3"})
    other = api(edge, "POST", "/mobile-apps", {"name": "Second", "android": demo_android(packageName="com.example.two"),
                                               "domains": []})
    stale = Device(edge, "android", key="biqli_mobile_pk_" + "S" * 64)
    for _ in range(3):
        refused(stale.open(), 401, "invalid_mobile_key")
    refused(stale.open(), 429, "rate_limited")
    for _ in range(3):  # the other devices behind the address, with valid keys of either app
        ok(Device(edge, "ios").open(deep_link="https://go.example.test/invite"), "exact_app_link")
        ok(Device(edge, "android").open(first_open=False), "none")
        ok(Device(edge, "android", key=other["publishableKey"], app_id=other["id"]).open(), "none")
    a = stale.open()
    refused(a, 429, "rate_limited")
    assert re.fullmatch(r"[1-9][0-9]*", a.headers["retry-after"]), a.headers


def test_a_spent_invalid_token_bucket_refuses_unknown_tokens_but_a_valid_one_still_matches(edge_factory):
    edge = start_demo(edge_factory, env={"BIQLI_EDGE_RATE_INVALID_PER_ADDRESS": "3"})
    for _ in range(3):
        refused(Device(edge, "android").open(handoff="bqmh_" + b64e(os.urandom(32))), 404, "resource_not_found")
    a = Device(edge, "android").open(handoff="bqmh_" + b64e(os.urandom(32)))
    refused(a, 429, "rate_limited")
    assert re.fullmatch(r"[1-9][0-9]*", a.headers["retry-after"]), a.headers
    refused(Device(edge, "android").open(handoff="bqmh_malformed"), 429, "rate_limited")
    ok(Device(edge, "android").open(handoff=play_token(edge, "/invite?ref=BOB")), "exact_install_referrer")
    ok(Device(edge, "ios").open(handoff=pasted_token(edge, "/promo")), "exact_handoff")


def test_the_per_token_limit(edge_factory):
    edge = start_demo(edge_factory, env={"BIQLI_EDGE_RATE_PER_TOKEN": "2"})
    token = play_token(edge, "/invite")
    phone = Device(edge, "android")
    ok(phone.open(handoff=token), "exact_install_referrer")
    ok(phone.open(handoff=token, first_open=False), "exact_install_referrer")
    a = phone.open(handoff=token, first_open=False)
    refused(a, 429, "rate_limited")
    assert re.fullmatch(r"[1-9][0-9]*", a.headers["retry-after"]), a.headers


# ---------------------------------------------------------------- 12. logs


def test_tokens_and_keys_never_reach_the_log(demo):
    start, start_err = len(demo.lines), len(demo.stderr_lines)  # the demo banner shows the key once, on purpose
    android_token = play_token(demo, "/invite?ref=BOB")
    ios_token = pasted_token(demo, "/promo")
    ok(Device(demo, "android").open(handoff=android_token), "exact_install_referrer")
    ok(Device(demo, "ios").open(handoff=ios_token), "exact_handoff")
    refused(Device(demo, "android").open(handoff=android_token), 404, "resource_not_found")
    refused(Device(demo, "ios", key="biqli_mobile_pk_" + "Z" * 64).open(handoff=ios_token), 401,
            "invalid_mobile_key")
    deadline = time.time() + 3
    while time.time() < deadline and sum(PATH in line for line in demo.lines[start:]) < 4:
        time.sleep(0.02)
    logged = [line for line in demo.lines[start:] if PATH in line]
    assert len(logged) >= 4, demo.lines[-10:]  # the access log is on: the check below is not vacuous
    text = "\n".join(demo.lines[start:] + demo.stderr_lines[start_err:])
    for secret in (android_token, ios_token, android_token[5:], ios_token[5:], demo.publishable_key,
                   demo.publishable_key[len("biqli_mobile_pk_"):], "Z" * 64):
        assert secret not in text



# ---------------------------------------------------------------- more: addresses, payload, scope of identities


def test_probabilistic_needs_the_clicks_source_address(edge_factory):
    # Through a trusted proxy the visit and the open can come from different client addresses.
    edge = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1/32"})
    enable_probabilistic(edge)
    status, _, _ = visit(edge, "/promo", ua=UA_IPHONE, headers={"X-Forwarded-For": "203.0.113.7"})
    assert status == 200
    phone = Device(edge, "ios")
    h, body = phone.prepare(probabilistic=True, domain=DEMO_HOST)
    ok(post(edge, {**h, "X-Forwarded-For": "198.51.100.9"}, body), "none")
    ok(Device(edge, "ios").open(probabilistic=True, domain=DEMO_HOST), "none")  # from 127.0.0.1 itself
    other = Device(edge, "ios")
    h, body = other.prepare(probabilistic=True, domain=DEMO_HOST)
    b = ok(post(edge, {**h, "X-Forwarded-For": "203.0.113.7"}, body), "probabilistic")
    assert b["link"]["id"] == LINK_IDS["promo"]


def test_probabilistic_uses_the_links_current_payload_and_allowed_keys(demo):
    enable_probabilistic(demo)
    ios_click(demo, "/promo?campaign=c&utm_source=s")
    update_link(demo, "promo", mobile={"route": "/promo/v2", "metadata": {"tier": "silver"},
                                       "dynamicKeys": ["utm_source"]})
    b = ok(Device(demo, "ios").open(probabilistic=True, domain=DEMO_HOST), "probabilistic")
    assert b["link"]["route"] == "/promo/v2" and b["attribution"]["metadata"] == {"tier": "silver"}
    # Captured values are filtered by the link's current keys: `campaign` is no longer allowed, and
    # `utm_source` was not allowed at click time, so it was never captured.
    assert b["attribution"]["dynamic"] == {}


def test_idempotency_identities_are_per_app(demo):
    other = api(demo, "POST", "/mobile-apps", {"name": "Second", "android": demo_android(packageName="com.example.two"),
                                               "domains": []})
    phone = Device(demo, "android")
    h, body = phone.prepare()
    first = ok(post(demo, h, body), "none")
    twin = Device(demo, "android", key=other["publishableKey"], app_id=other["id"], instance=phone.instance)
    h2, body2 = twin.prepare(event=phone.last[2], occurred_at=phone.last[1]["occurred_at"])
    assert h2["Idempotency-Key"] == h["Idempotency-Key"]
    second = ok(post(demo, h2, body2), "none")
    assert second["open"]["id"] != first["open"]["id"]
    assert len(open_events(demo, event_id=phone.last[2])) == 2


def test_a_refused_request_is_not_stored_so_its_event_can_be_sent_again_corrected(demo):
    # The SDK drops a handoff answered 404 and resends its pending deep link (decision 0004: only 200s are
    # stored, refusals are recomputed on retry).
    phone = Device(demo, "android")
    h, body = phone.prepare(handoff="bqmh_" + "B" * 43, deep_link="https://go.example.test/invite")
    refused(post(demo, h, body), 404, "resource_not_found")
    fields = dict(phone.last[1], handoff=None)
    h, body = phone.prepare(event=phone.last[2], **fields)
    ok(post(demo, h, body), "exact_app_link")


def test_probabilistic_matching_needs_a_known_client_behind_a_trusted_proxy(edge_factory):
    """Issue 23 item 1: behind a trusted proxy that names no client, every visitor has the proxy's
    address; hashing it would make any two strangers a match. Such a click keeps no signal, so it
    is no candidate; the same two requests naming their client through the proxy match."""
    demo = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1/32"})
    enable_probabilistic(demo)
    ios_click(demo)  # through the trusted proxy 127.0.0.1, no X-Forwarded-For: an unknown client
    ok(Device(demo, "ios").open(probabilistic=True, domain=DEMO_HOST, os_version="17.4"), "none")
    named = {"X-Forwarded-For": "203.0.113.7"}
    status, _, _ = visit(demo, "/promo?campaign=spring", ua=UA_IPHONE, headers=named)
    assert status == 200
    ok(Device(demo, "ios").open(probabilistic=True, domain=DEMO_HOST, os_version="17.4", headers=named),
       "probabilistic")
