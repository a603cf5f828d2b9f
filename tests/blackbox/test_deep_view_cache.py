"""The Deep View is rendered once per link, app and language and then only filled in:
an edit of the link or the app shows on the very next visit, every visit gets its own
token and nonce (issue 7 with the edge's template cache)."""
import re
from fixtures_data import HANDOFF_URL_RE, UA_IPHONE, demo_ios, start_demo, update_app, update_link, visit

APP = "biq_mapp_01JDEM0APP00000000000000AA"


def page(edge, lang=None):
    status, headers, body = visit(edge, "/invite", ua=UA_IPHONE,
                                  headers={"Accept-Language": lang} if lang else None)
    assert status == 200
    return headers, body.decode()


def test_edits_show_at_once_and_each_visit_gets_its_own_token_and_nonce(edge_factory):
    edge = start_demo(edge_factory)
    h1, first = page(edge)
    h2, second = page(edge)
    assert HANDOFF_URL_RE.search(first).group(2) != HANDOFF_URL_RE.search(second).group(2)
    nonce = lambda h: re.search(r"'nonce-([^']+)'", h["content-security-policy"]).group(1)
    assert nonce(h1) != nonce(h2) and f'nonce="{nonce(h2)}"' in second
    assert "Join me on Biqli Demo" in second
    update_link(edge, "invite", preview={"title": "A brand new title"})
    _, third = page(edge)
    assert "A brand new title" in third and "Join me on Biqli Demo" not in third
    update_app(edge, APP, name="Renamed Demo", ios=demo_ios())
    _, fourth = page(edge)
    assert "Renamed Demo" in fourth
    _, spanish = page(edge, "es")
    assert 'lang="es"' in spanish and 'lang="es"' not in fourth
