"""Webhook signing secrets sealed at rest (issue 33 item 11, decision 0031): the store holds each
secret sealed (XChaCha20-Poly1305) under a key kept in the data directory
(`secrets/webhook-keys`), so that the database alone (a dump, a stolen file) does not let its
reader sign a payload; deliveries still verify with the `standardwebhooks` library; an older
version's plaintext secrets are sealed at the upgrade (on PostgreSQL only once no live node runs a
binary that could not read them, `compatible_from` raised to 16 first); backups keep the key; a
missing key is an error of `check`, and nothing is sent unsigned meanwhile; `webhook-key rotate`
changes the key while the edge serves. Both stores; the rolling upgrade on PostgreSQL only."""
import json, os, shutil, sqlite3, tarfile, tempfile, threading, time

import pytest

import backend
from fixtures_data import DEMO_HOST, _rows, api, start_demo
from management_api import cli
from test_webhooks import FAST, subscribe, wait_for
from webhook_receiver import Receiver

# PostgreSQL seals once no older node has been live for 20 s (PGWebhookSealingGate), checked
# every 10 s: within about 35 s of a new fleet's first start.
SEALED_WITHIN = 45 if backend.POSTGRESQL else 5


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def endpoints(edge):
    return _rows(edge, "SELECT id, secret, previous_secret FROM webhook_endpoints ORDER BY id")


def keys_file(edge):
    return os.path.join(edge.dir, "secrets", "webhook-keys")


def wait_sealed(edge, count=1):
    wait_for(lambda: len(endpoints(edge)) == count and all(r["secret"].startswith("whenc1.") for r in endpoints(edge)),
             SEALED_WITHIN, f"sealed: {endpoints(edge)}")


def assert_nowhere_in_the_store(edge, secret):
    """Neither the secret nor its key's base64 in any row (nor, on SQLite, in the file's bytes)."""
    body = secret[len("whsec_"):]
    for row in endpoints(edge):
        assert body not in json.dumps(row), row
    if not edge.database_url:
        for suffix in ("", "-wal"):
            path = os.path.join(edge.dir, "edge.sqlite3" + suffix)
            if os.path.exists(path):
                assert body.encode() not in open(path, "rb").read(), f"the secret is in {path}"


def link(edge, n):
    return api(edge, "POST", "/links", {"domain": DEMO_HOST, "url": f"https://www.example.com/s{n}"})["id"]


def delivered(receiver, ids, limit=15):
    receiver.wait(lambda: {r.payload["data"]["id"] for r in receiver.delivered()} >= set(ids), limit, "deliveries")
    assert all(r.verified for r in receiver.all()), "every delivery verifies with the standardwebhooks library"


def test_the_stored_secret_is_sealed_and_deliveries_verify(edge_factory, receiver):
    edge = start_demo(edge_factory, env=FAST)
    hook = subscribe(edge, receiver, ["link.created"])
    assert oct(os.stat(keys_file(edge)).st_mode & 0o777) == "0o600"
    wait_sealed(edge)
    stored = endpoints(edge)[0]["secret"]
    assert stored.split(".")[1].startswith("wk_") and stored.split(".")[2] == hook["secret"][-4:]
    assert_nowhere_in_the_store(edge, hook["secret"])
    delivered(receiver, [link(edge, 1)])
    # A rotation: the new secret sealed too, the previous one sealed as it was; both signatures.
    rotated = api(edge, "POST", f"/webhooks/{hook['id']}/secret/rotate", {"overlapSeconds": 600})
    receiver.secrets[:] = [rotated["secret"]]
    row = endpoints(edge)[0]
    assert row["secret"].startswith("whenc1.") and row["previous_secret"] == stored
    assert_nowhere_in_the_store(edge, rotated["secret"])
    delivered(receiver, [link(edge, 2)])
    receiver.secrets[:] = [hook["secret"]]
    assert Receiver.verify(receiver, receiver.all()[-1].body, receiver.all()[-1].headers), "the previous one too"
    # The API shows the hint, never the secret.
    assert api(edge, "GET", f"/webhooks/{hook['id']}")["secretHint"] == "whsec_…" + rotated["secret"][-4:]
    status = cli(["webhook-key", "status", "--json"], edge.dir)
    assert status.returncode == 0, status.stderr
    [key] = json.loads(status.stdout)["keys"]
    assert key["seals"] and key["registered"] and key["secrets"] == 2


def make_older(edge, secret):
    """The store as a version before sealing left it (schema 15, the secret as made, no key
    registered) and the data directory without its key file. The edge is stopped."""
    os.remove(keys_file(edge))
    # Schemas 18 (the in-app escapes) and 17 (a link's options) undone too: 16 is the step
    # under test.
    undo_18 = ["DROP INDEX domains_alternate_hostname", "ALTER TABLE domains DROP COLUMN alternate_hostname",
               "DROP TABLE in_app_escape_settings"]
    undo_17 = ["DROP TABLE link_tags", "DROP TABLE tags", "DROP INDEX links_external_id",
               "ALTER TABLE links DROP COLUMN external_id", "ALTER TABLE links DROP COLUMN options",
               "ALTER TABLE clicks DROP COLUMN variant", "ALTER TABLE domains DROP COLUMN pass_query",
               "DROP TABLE link_variant_counts", "DROP TABLE link_variant_conversion_counts",
               "ALTER TABLE conversion_events DROP COLUMN variant"]
    statements = undo_18 + undo_17 + ["DROP INDEX webhook_outbox_tests", "DROP TABLE webhook_secret_keys",
                            f"UPDATE webhook_endpoints SET secret = '{secret}'"]
    if edge.database_url:
        for sql in statements + ["UPDATE biqli_schema SET version = 15, compatible_from = 1"]:
            backend.execute(edge.database_url, sql)
    else:
        db = sqlite3.connect(os.path.join(edge.dir, "edge.sqlite3"))
        for sql in statements + ["PRAGMA user_version = 15"]:
            db.execute(sql)
        db.commit()
        db.close()


def test_an_older_versions_plaintext_secret_is_sealed_at_the_upgrade(edge_factory, receiver):
    edge = start_demo(edge_factory, env=FAST)
    hook = subscribe(edge, receiver, ["link.created"])
    edge.stop()
    make_older(edge, hook["secret"])
    again = edge_factory(args=("serve",), env=FAST, data_dir=edge.dir)
    again.secret_key = edge.secret_key
    wait_sealed(again)
    assert_nowhere_in_the_store(again, hook["secret"])
    assert any('"webhook secrets sealed"' in line for line in again.lines)
    delivered(receiver, [link(again, 3)])


def test_backup_and_restore_keep_the_key(edge_factory, receiver, tmp_path):
    if backend.POSTGRESQL:
        pytest.skip("backup and restore are SQLite's (PostgreSQL: pg_dump, and the data directory's secrets)")
    edge = start_demo(edge_factory, env=FAST)
    hook = subscribe(edge, receiver, ["link.created"])
    wait_sealed(edge)
    archive = str(tmp_path / "edge.tar")
    made = cli(["backup", "--to", archive], edge.dir)
    assert made.returncode == 0, made.stderr
    assert "secrets/webhook-keys" in tarfile.open(archive).getnames()
    edge.stop()
    target = tmp_path / "restored"
    target.mkdir(mode=0o700)
    put = cli(["restore", "--from", archive], str(target))
    assert put.returncode == 0, put.stderr
    restored = edge_factory(args=("serve",), env=FAST, data_dir=str(target))
    restored.secret_key = edge.secret_key
    assert open(keys_file(restored)).read() == open(keys_file(edge)).read()
    delivered(receiver, [link(restored, 4)])
    assert api(restored, "GET", f"/webhooks/{hook['id']}")["id"] == hook["id"]


def test_a_missing_key_is_an_error_of_check_and_nothing_is_sent_unsigned(edge_factory, receiver, tmp_path):
    edge = start_demo(edge_factory, env=FAST)
    subscribe(edge, receiver, ["link.created"])
    wait_sealed(edge)
    edge.stop()
    kept = str(tmp_path / "webhook-keys")
    shutil.move(keys_file(edge), kept)
    checked = cli(["check", "--json"], edge.dir)
    assert checked.returncode == 1
    [missing] = [f for f in json.loads(checked.stdout) if f["code"] == "webhook_key_missing"]
    assert missing["severity"] == "error" and keys_file(edge) in missing["message"]
    assert "restore" in missing["fix"]
    # The edge serves without it: says so, leaves the deliveries pending, refuses new secrets.
    again = edge_factory(args=("serve",), env=FAST, data_dir=edge.dir)
    again.secret_key = edge.secret_key
    assert not os.path.exists(keys_file(again)), "no key made in place of the fleet's"
    assert any('"webhook secrets cannot be opened on this node"' in line for line in again.lines)
    made = link(again, 5)
    status = api(again, "POST", "/webhooks", {"url": receiver.url + "2", "events": ["link.created"]},
                 expect=(500,))
    time.sleep(2)
    assert receiver.all() == [], "nothing sent, signed or not"
    # The key back: taken without a restart, and the delivery verifies.
    shutil.copy(kept, keys_file(again))
    delivered(receiver, [made], limit=20)
    assert cli(["check"], again.dir).returncode in (0, 1)
    assert not [f for f in json.loads(cli(["check", "--json"], again.dir).stdout) if f["code"].startswith("webhook_key")
                and f["severity"] == "error"]


def test_rotating_the_key_while_serving_keeps_deliveries_verifying(edge_factory, receiver):
    edge = start_demo(edge_factory, env=FAST)
    subscribe(edge, receiver, ["link.created"])
    wait_sealed(edge)
    before = endpoints(edge)[0]["secret"].split(".")[1]
    rotated = cli(["webhook-key", "rotate"], edge.dir)
    assert rotated.returncode == 0, rotated.stderr
    after = endpoints(edge)[0]["secret"].split(".")[1]
    assert after != before and after in rotated.stdout
    lines = [l for l in open(keys_file(edge)).read().splitlines() if l and not l.startswith("#")]
    assert [l.split()[0] for l in lines] == [after, before], "the new key first, the old one kept"
    delivered(receiver, [link(edge, 6)])
    status = json.loads(cli(["webhook-key", "status", "--json"], edge.dir).stdout)
    assert [(k["id"], k["seals"], k["secrets"]) for k in status["keys"]] == [(after, True, 1), (before, False, 0)]
    assert cli(["webhook-key", "reseal"], edge.dir).returncode == 0
    assert cli(["webhook-key", "rotate", "--lost"], edge.dir).returncode == 2


@pytest.mark.skipif(not backend.POSTGRESQL, reason="a rolling upgrade is a fleet's")
def test_while_an_older_node_is_live_secrets_stay_readable_to_it(edge_factory, receiver):
    """A live node whose binary knows schema 14 (its heartbeats written here) keeps the secrets
    as such and `compatible_from` where it was; once it is gone, the new node raises
    `compatible_from` to 16 (no older binary starts again) and seals them 20 s later."""
    data = tempfile.mkdtemp(prefix="edge-rolling-")
    url = backend.database_url(data)
    beating = threading.Event()
    beating.set()
    now_ms = "CAST(floor(extract(epoch FROM clock_timestamp()) * 1000) AS bigint)"
    # The old node serves before the first new one starts, as in a rolling upgrade.
    backend.execute(url, f"INSERT INTO nodes (name, version, schema_version, started_at, heartbeat_at, listening) "
                         f"VALUES ('old-node', '0.1.0', 14, {now_ms}, {now_ms}, 'http=127.0.0.1:1')")

    def heartbeat():
        while beating.is_set():
            backend.execute(url, f"UPDATE nodes SET heartbeat_at = {now_ms} WHERE name = 'old-node'")
            time.sleep(1)
    threading.Thread(target=heartbeat, daemon=True).start()
    edge = start_demo(edge_factory, env=FAST, data_dir=data)
    try:
        hook = subscribe(edge, receiver, ["link.created"])
        time.sleep(30)
        assert endpoints(edge)[0]["secret"] == hook["secret"], "as the old node reads it"
        assert backend.rows(url, "SELECT compatible_from FROM biqli_schema")[0]["compatible_from"] < 16
        assert any("webhook secrets stay unsealed while older nodes run" in l and "old-node" in l for l in edge.lines)
        delivered(receiver, [link(edge, 7)])
    finally:
        beating.clear()
    backend.execute(url, "UPDATE nodes SET listening = '' WHERE name = 'old-node'")  # stopped
    wait_sealed(edge)
    assert backend.rows(url, "SELECT compatible_from FROM biqli_schema")[0]["compatible_from"] == 16
    assert_nowhere_in_the_store(edge, hook["secret"])
    delivered(receiver, [link(edge, 8)])
