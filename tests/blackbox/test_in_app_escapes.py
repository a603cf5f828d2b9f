"""Black-box tests of the operator's switches of the in-app escapes (issue 36, decision 0033
§5): the workspace's (`/api/v1/in-app-escapes`) and a link's own (`inAppEscapes`, by the API
and by `apply`), validated with 422 naming the field, and what they do to an Instagram
Android visit: the app's intent, the Play Store app's intent, or today's Play redirect.
Runs on both backends."""
import json
import time

import pytest

from fixtures_data import (
    DEMO_APP_ID, DEMO_HOST, LINK_IDS, UA_ANDROID, api, click, handoff, link_id, referrer_token, start_demo,
    update_link, visit)
from management_api import cli
from test_in_app_android import PLAY, UA_INSTAGRAM_ANDROID, parse_intent

ALL = ["playIntent", "appIntent", "safari", "alternateDomain"]


@pytest.fixture
def demo(edge_factory):
    return start_demo(edge_factory)


def answer_kind(edge, path="/invite", ua=UA_INSTAGRAM_ANDROID):
    """What the visit answered: app_intent, play_intent or play (today's 302 to Play)."""
    status, headers, _ = visit(edge, path, ua=ua)
    assert status == 302, (status, headers)
    location = headers["location"]
    if location.startswith(PLAY):
        token = referrer_token(location)
    else:
        data, package, extras = parse_intent(location)
        token = referrer_token(data if package == "com.android.vending" else extras["browser_fallback_url"])
    kind = click(edge, handoff(edge, token)["click_id"])["kind"]
    return {"app_intent": "app_intent", "play_intent": "play_intent", "android_redirect": "play"}[kind]


def test_the_workspaces_switches_start_empty_and_are_replaced_whole(demo):
    assert api(demo, "GET", "/in-app-escapes") == {"switches": {}, "updatedAt": None}
    got = api(demo, "PATCH", "/in-app-escapes", {"switches": {"instagram": ["safari", "playIntent"], "*": ALL}})
    assert got["switches"] == {"*": ALL, "instagram": ["playIntent", "safari"]} and got["updatedAt"]
    assert api(demo, "GET", "/in-app-escapes")["switches"] == got["switches"]
    assert api(demo, "PATCH", "/in-app-escapes", {"switches": {"tiktok": []}})["switches"] == {"tiktok": []}
    assert api(demo, "PATCH", "/in-app-escapes", {"switches": None})["switches"] == {}


@pytest.mark.parametrize("body, field", [
    ({"switches": {"myspace": []}}, "switches.myspace"),
    ({"switches": {"instagram": ["chrome"]}}, "switches.instagram[0]"),
    ({"switches": {"instagram": "safari"}}, "switches.instagram"),
    ({"switches": ["safari"]}, "switches"),
    ({"enabled": True}, "enabled"),
])
def test_a_bad_workspace_switch_is_422_naming_its_field(demo, body, field):
    error = api(demo, "PATCH", "/in-app-escapes", body, expect=(422,))["error"]
    assert error["code"] == "validation_error"
    assert [p["field"] for p in error["details"]["errors"]] == [field], error
    assert api(demo, "GET", "/in-app-escapes")["switches"] == {}, "nothing half-written"


def test_turning_app_intent_off_for_instagram_on_the_workspace_gives_the_play_apps_intent(demo):
    assert answer_kind(demo) == "app_intent"
    api(demo, "PATCH", "/in-app-escapes", {"switches": {"instagram": ["playIntent", "safari", "alternateDomain"]}})
    assert answer_kind(demo) == "play_intent"
    # Every escape off for every app: today's Play redirect; Chrome never changes.
    api(demo, "PATCH", "/in-app-escapes", {"switches": {"*": []}})
    assert answer_kind(demo) == "play"
    assert answer_kind(demo, ua=UA_ANDROID) == "play"


def test_a_links_own_switches_win_over_the_workspaces(demo):
    api(demo, "PATCH", "/in-app-escapes", {"switches": {"instagram": ["playIntent"]}})
    link = update_link(demo, "invite", inAppEscapes={"*": []})
    assert link["inAppEscapes"] == {"*": []}
    assert api(demo, "GET", f"/links/{LINK_IDS['invite']}")["inAppEscapes"] == {"*": []}
    assert answer_kind(demo) == "play"
    update_link(demo, "invite", inAppEscapes={"instagram": ["appIntent"]})
    assert answer_kind(demo) == "app_intent"
    # null: the workspace's again.
    assert update_link(demo, "invite", inAppEscapes=None)["inAppEscapes"] is None
    assert answer_kind(demo) == "play_intent"


def test_a_link_is_created_with_switches_and_a_bad_one_is_422(demo):
    body = {"domain": DEMO_HOST, "key": "ia-new", "url": "https://example.com/ia",
            "mobile": {"appId": DEMO_APP_ID, "route": "/ia"}, "inAppEscapes": {"*": [], "facebook": ["playIntent"]}}
    created = api(demo, "POST", "/links", body)
    assert created["inAppEscapes"] == {"*": [], "facebook": ["playIntent"]}
    assert answer_kind(demo, "/ia-new") == "play"
    bad = dict(body, key="ia-bad", inAppEscapes={"instagram": ["playIntent", "teleport"]})
    error = api(demo, "POST", "/links", bad, expect=(422,))["error"]
    assert error["code"] == "validation_error"
    assert [p["field"] for p in error["details"]["errors"]] == ["inAppEscapes.instagram[1]"], error


def test_apply_sets_a_links_switches(demo, tmp_path):
    catalog = {"links": [{"domain": DEMO_HOST, "key": "ia-applied", "url": "https://example.com/ia",
                          "mobile": {"appId": DEMO_APP_ID, "route": "/ia"}, "inAppEscapes": {"instagram": []}}]}
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps(catalog))
    out = cli(["apply", str(path)], demo.dir)
    assert out.returncode == 0, out.stderr
    link = api(demo, "GET", f"/links/{link_id(demo, 'ia-applied')}")
    assert link["inAppEscapes"] == {"instagram": []}
    assert answer_kind(demo, "/ia-applied") == "play"
    again = cli(["apply", str(path)], demo.dir)
    assert again.returncode == 0 and "Nothing to change" in again.stdout, again.stdout


def test_the_cli_sets_the_workspaces_switches_while_serving(demo):
    out = cli(["in-app-escapes", "set", "--switches", '{"instagram": ["playIntent"]}'], demo.dir)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["instagram", "playIntent"]
    shown = cli(["in-app-escapes", "show", "--json"], demo.dir)
    assert json.loads(shown.stdout)["switches"] == {"instagram": ["playIntent"]}
    # The serving edge sees another process's change within its poll (1 s; PostgreSQL: notified).
    deadline = time.time() + 5
    while answer_kind(demo) != "play_intent":
        assert time.time() < deadline, "the edge kept the old switches"
        time.sleep(0.2)
    bad = cli(["in-app-escapes", "set", "--switches", '{"instagram": ["chrome"]}'], demo.dir)
    assert bad.returncode == 2 and "instagram[0]" in bad.stderr and "nothing changed" in bad.stderr
    assert cli(["in-app-escapes", "set", "--switches", "{"], demo.dir).returncode == 2
