"""Black-box tests of a domain's alternate hostname (issue 36, decision 0033 §4): a second DNS
name the edge serves as the domain (its visits, its association files), which the resolver
takes as the domain in a deep link (exact_app_link); it is stored, validated (a DNS name, not
the hostname, no other domain's hostname or alternate: 422 on alternateHostname; a new domain
named like another's alternate: 409 domain_taken) and copied like the domain's other fields.
Runs on both backends."""
import pytest

from fixtures_data import (
    DEMO_HOST, UA_ANDROID, UA_DESKTOP, api, click, handoff, referrer_token, start_demo, update_domain, visit)
from test_in_app_android import PLAY
from test_resolver import Device

ALT = "open.example.test"
AASA = "/.well-known/apple-app-site-association"
ASSETLINKS = "/.well-known/assetlinks.json"


@pytest.fixture
def demo(edge_factory):
    edge = start_demo(edge_factory)
    assert api(edge, "GET", f"/domains/{DEMO_HOST}")["alternateHostname"] is None
    assert update_domain(edge, DEMO_HOST, alternateHostname=ALT)["alternateHostname"] == ALT
    return edge


def test_the_alternate_is_stored_and_answered(demo):
    assert api(demo, "GET", f"/domains/{DEMO_HOST}")["alternateHostname"] == ALT
    listed = {d["hostname"]: d for d in api(demo, "GET", "/domains")["data"]}
    assert listed[DEMO_HOST]["alternateHostname"] == ALT
    assert ALT not in listed, "an alternate is no domain of its own"
    api(demo, "GET", f"/domains/{ALT}", expect=(404,))
    assert update_domain(demo, DEMO_HOST, alternateHostname=None)["alternateHostname"] is None
    status, _, _ = visit(demo, "/invite", ua=UA_DESKTOP, host=ALT)
    assert status == 404, "no longer served once removed"


def test_a_visit_of_the_alternate_is_the_domains_link(demo):
    status, headers, _ = visit(demo, "/invite", ua=UA_DESKTOP, host=ALT)
    assert status == 302
    own_status, own_headers, _ = visit(demo, "/invite", ua=UA_DESKTOP, host=DEMO_HOST)
    assert (status, headers["location"]) == (own_status, own_headers["location"])
    status, headers, _ = visit(demo, "/invite", ua=UA_ANDROID, host=ALT)
    assert status == 302 and headers["location"].startswith(PLAY)
    c = click(demo, handoff(demo, referrer_token(headers["location"]))["click_id"])
    assert c["kind"] == "android_redirect"
    status, _, _ = visit(demo, "/no-such-key", ua=UA_DESKTOP, host=ALT)
    assert status == 404
    status, _, _ = visit(demo, "/invite", ua=UA_DESKTOP, host="other.example.test")
    assert status == 404


@pytest.mark.parametrize("path", [AASA, ASSETLINKS])
def test_the_alternate_serves_the_domains_association_files(demo, path):
    status, headers, body = visit(demo, path, host=ALT)
    own_status, own_headers, own_body = visit(demo, path, host=DEMO_HOST)
    assert status == own_status == 200
    assert body == own_body and headers["content-type"] == own_headers["content-type"]


def test_the_resolver_takes_a_deep_link_on_the_alternate_as_the_domains(demo):
    phone = Device(demo, "ios")
    answer = phone.open(deep_link=f"https://{ALT}/invite", first_open=False)
    assert answer.status == 200 and answer.json["open"]["matchedBy"] == "exact_app_link", answer.json
    assert Device(demo, "ios").open(deep_link="https://other.example.test/invite", first_open=False) \
        .json["open"]["matchedBy"] == "none"


@pytest.mark.parametrize("alternate, status", [
    (DEMO_HOST, 422),            # its own hostname
    ("not a host", 422),
    ("192.0.2.1", 422),
])
def test_a_bad_alternate_is_422(demo, alternate, status):
    error = api(demo, "PATCH", f"/domains/{DEMO_HOST}", {"alternateHostname": alternate}, expect=(status,))["error"]
    assert error["code"] == "validation_error" and error["details"]["field"] == "alternateHostname", error
    assert api(demo, "GET", f"/domains/{DEMO_HOST}")["alternateHostname"] == ALT


def test_no_two_domains_share_a_name(demo):
    other = api(demo, "POST", "/domains", {"hostname": "other.example.test"})
    assert other["alternateHostname"] is None
    # Another domain's alternate, or another domain's hostname: 422 on alternateHostname.
    for taken in (ALT, DEMO_HOST):
        error = api(demo, "PATCH", "/domains/other.example.test", {"alternateHostname": taken}, expect=(422,))["error"]
        assert error["code"] == "validation_error" and error["details"]["field"] == "alternateHostname", error
    error = api(demo, "POST", "/domains", {"hostname": "third.example.test", "alternateHostname": ALT},
                expect=(422,))["error"]
    assert error["details"]["field"] == "alternateHostname"
    # A new domain named like an alternate: taken (409), as a domain's hostname is.
    error = api(demo, "POST", "/domains", {"hostname": ALT}, expect=(409,))["error"]
    assert error["code"] == "domain_taken", error
