"""What the edge keeps about visitors (README, "Privacy"): the address hash of an iOS
click exists only for apps that allow consented probabilistic matching."""
from fixtures_data import UA_IPHONE, barrier, clicks, demo_ios, start_demo, update_app, visit

APP = "biq_mapp_01JDEM0APP00000000000000AA"


def test_ios_clicks_keep_no_address_hash_when_the_app_does_not_match_probabilistically(edge_factory):
    edge = start_demo(edge_factory)
    update_app(edge, APP, ios=demo_ios(probabilisticFallback=False))
    assert visit(edge, "/invite", ua=UA_IPHONE)[0] == 200
    update_app(edge, APP, ios=demo_ios(probabilisticFallback=True))
    assert visit(edge, "/invite", ua=UA_IPHONE)[0] == 200
    barrier(edge)
    first, second = sorted([c for c in clicks(edge) if c["platform"] == "ios"], key=lambda c: c["id"])
    assert first["source_hash"] is None and first["os_version"] == "17.4"
    assert isinstance(second["source_hash"], bytes) and len(second["source_hash"]) == 32
