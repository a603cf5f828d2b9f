"""Analytics counts what visitors did: people as clicks by platform and kind, and
link-preview bots as `preview_bot` without any click row (issue 4 with issue 5)."""
from fixtures_data import UA_DESKTOP, UA_IPHONE, api, barrier, clicks, start_demo, visit

APP = "biq_mapp_01JDEM0APP00000000000000AA"


def test_analytics_counts_clicks_by_kind_and_previews_without_clicks(edge_factory):
    edge = start_demo(edge_factory)
    for ua in ("facebookexternalhit/1.1", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"):
        assert visit(edge, "/invite", ua=ua)[0] == 200
    assert visit(edge, "/invite", ua=UA_DESKTOP)[0] == 302
    assert visit(edge, "/invite", ua=UA_IPHONE)[0] == 200
    barrier(edge)  # one Android visit, durable: everything queued before it is committed
    body = api(edge, "GET", f"/mobile-apps/{APP}/analytics?days=1")
    by_kind = body["clicks"]["byKind"]
    assert by_kind["preview_bot"] == 2
    assert by_kind["desktop"] == 1 and by_kind["deep_view"] == 1 and by_kind["android_redirect"] == 1
    # Bots left no click rows: only the three people did.
    assert len([c for c in clicks(edge)]) == 2  # desktop + Deep View (the barrier's own click is left out)
