"""Backups that restore (issue 27 item 4): `biqli-edge backup --to FILE` while the edge serves
Android visits, `biqli-edge restore --from FILE` into a new data directory, and a new edge on it:
every handoff acknowledged before the backup began resolves there, and receipts signed before it
verify with the restored edge's JWKS. A restore refuses a directory in use or not empty and a
damaged backup, and leaves nothing behind. On PostgreSQL the commands point at pg_dump; the
README's PostgreSQL recipes are tested in test_backup_postgresql.py."""
import base64, json, os, re, subprocess, tarfile, threading, time

import nacl.signing
import pytest

from edge import BINARY, request
from fixtures_data import UA_ANDROID, referrer_token, resolve_android, start_demo, visit

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The SQLite schema this checkout's binary writes: the last step of Migrations.swift.
SCHEMA = max(int(v) for v in re.findall(r"Migration\(version: (\d+)",
                                          open(os.path.join(ROOT, "Sources/Store/Schema/Migrations.swift")).read()))
ROOMY = {"BIQLI_EDGE_RATE_PER_ADDRESS": "1000000", "BIQLI_EDGE_RATE_PER_INSTANCE": "1000000",
         "BIQLI_EDGE_RATE_PER_TOKEN": "1000", "BIQLI_EDGE_RATE_PER_APP": "10000000",
         "BIQLI_EDGE_RATE_INVALID_PER_ADDRESS": "100000",
         "BIQLI_EDGE_HTTPS_REDIRECT": "off"}


def cli(data_dir, *args, env=None):
    full = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "BIQLI_EDGE_DATA_DIR": data_dir, **(env or {})}
    return subprocess.run([BINARY, *args], env=full, capture_output=True, text=True, timeout=120)


def fresh(tmp_path, name):
    path = tmp_path / name
    path.mkdir(mode=0o700)
    return str(path)


def verify_receipt(receipt, keys):
    """The receipt's EdDSA signature, checked with PyNaCl against the JWKS key its header names."""
    def b64d(text):
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    head, claims, signature = receipt.split(".")
    kid = json.loads(b64d(head))["kid"]
    [jwk] = [k for k in keys["keys"] if k["kid"] == kid]
    nacl.signing.VerifyKey(b64d(jwk["x"])).verify(f"{head}.{claims}".encode(), b64d(signature))


def jwks(edge):
    status, _, raw = request(edge.https_port, "/.well-known/jwks.json", tls=True, sni="localhost", host="localhost")
    assert status == 200, raw[:200]
    return json.loads(raw)


@pytest.mark.sqlite_only
def test_a_backup_under_android_load_restores_every_acknowledged_handoff_and_receipt(edge_factory, tmp_path):
    source = start_demo(edge_factory, env=ROOMY, data_dir=fresh(tmp_path, "data"))
    # Receipts signed before the backup, for apps whose backends verify them later.
    receipts = []
    for _ in range(5):
        status, headers, _ = visit(source, "/invite", ua=UA_ANDROID)
        assert status == 302
        code, body = resolve_android(source, referrer_token(headers["location"]))
        assert code == 200 and body["open"]["matchedBy"] == "exact_install_referrer", body
        receipts.append(body["attributionReceipt"])

    acknowledged = []  # (token, monotonic time its 302 arrived)
    slowest_during = [0.0]
    backup_window = [None, None]
    stop = threading.Event()

    def load():
        while not stop.is_set() and len(acknowledged) < 20000:
            start = time.monotonic()
            status, headers, _ = visit(source, "/invite", ua=UA_ANDROID, tls=False)
            done = time.monotonic()
            assert status == 302, status
            acknowledged.append((referrer_token(headers["location"]), done))
            began, ended = backup_window
            if began is not None and start >= began and (ended is None or done <= ended):
                slowest_during[0] = max(slowest_during[0], done - start)

    workers = [threading.Thread(target=load) for _ in range(6)]
    for w in workers:
        w.start()
    try:
        deadline = time.time() + 30
        while len(acknowledged) < 500 and time.time() < deadline:
            time.sleep(0.05)
        backup = str(tmp_path / "edge.tar")
        backup_window[0] = time.monotonic()
        made = cli(source.dir, "backup", "--to", backup)
        backup_window[1] = time.monotonic()
        during = [t for t, at in acknowledged if backup_window[0] <= at <= backup_window[1]]
        time.sleep(0.3)  # visits after the backup: in the source only
    finally:
        stop.set()
        for w in workers:
            w.join(timeout=30)
    assert made.returncode == 0, made.stderr
    assert f"schema {SCHEMA}" in made.stdout and "secrets/source-address.key" in made.stdout, made.stdout
    before = [t for t, at in acknowledged if at < backup_window[0]]
    after = [t for t, at in acknowledged if at > backup_window[1]]
    assert len(before) >= 500 and after, (len(before), len(after))
    # Visits went on while the copy was taken (WAL readers never block the writer).
    assert slowest_during[0] < 1.0, f"a visit waited {slowest_during[0]:.3f} s during the backup"
    print(f"backup: {backup_window[1] - backup_window[0]:.3f} s, {len(during)} visits answered meanwhile, "
          f"slowest {slowest_during[0] * 1000:.1f} ms")

    # The file: a tar whose manifest names the schema and a SHA-256 per file, the owner's alone.
    assert oct(os.stat(backup).st_mode & 0o777) == "0o600"
    with tarfile.open(backup) as archive:
        names = archive.getnames()
        manifest = json.load(archive.extractfile("biqli-edge-backup.json"))
    assert names[0] == "biqli-edge-backup.json" and "edge.sqlite3" in names
    assert manifest["format"] == "biqli-edge-backup" and manifest["schemaVersion"] == SCHEMA
    assert {f["path"] for f in manifest["files"]} == set(names[1:])
    assert all(len(f["sha256"]) == 64 for f in manifest["files"])

    restored_dir = str(tmp_path / "restored")
    put = cli(restored_dir, "restore", "--from", backup)
    assert put.returncode == 0, put.stderr
    with open(os.path.join(tmp_path, "data", "secrets", "source-address.key"), "rb") as a, \
            open(os.path.join(restored_dir, "secrets", "source-address.key"), "rb") as b:
        assert a.read() == b.read()

    source.stop()
    restored = edge_factory(args=("serve",), env=ROOMY, data_dir=restored_dir)
    restored.publishable_key = source.publishable_key
    missing = []
    for token in before:
        code, body = resolve_android(restored, token)
        if code != 200 or body.get("open", {}).get("matchedBy") != "exact_install_referrer":
            missing.append((token[:12], code, body))
    assert missing == [], f"{len(missing)} of {len(before)} acknowledged handoffs do not resolve: {missing[:3]}"
    # A handoff made after the backup is not in it: the copy is the snapshot of its start.
    code, _ = resolve_android(restored, after[-1])
    assert code == 404
    keys = jwks(restored)
    for receipt in receipts:
        verify_receipt(receipt, keys)


@pytest.mark.sqlite_only
def test_a_restore_refuses_a_directory_in_use_or_not_empty_and_a_damaged_backup(edge_factory, tmp_path):
    edge = start_demo(edge_factory, data_dir=fresh(tmp_path, "data"))
    backup = str(tmp_path / "b.tar")
    assert cli(edge.dir, "backup", "--to", backup).returncode == 0
    # Never over an existing file.
    again = cli(edge.dir, "backup", "--to", backup)
    assert again.returncode == 1 and "exists" in again.stderr

    # The serving edge's own directory: not empty (and in use).
    busy = cli(edge.dir, "restore", "--from", backup)
    assert busy.returncode == 1 and "not empty" in busy.stderr
    # A directory with a file in it.
    full = tmp_path / "full"
    full.mkdir()
    (full / "notes.txt").write_text("mine")
    refused = cli(str(full), "restore", "--from", backup)
    assert refused.returncode == 1 and "not empty" in refused.stderr
    assert sorted(os.listdir(full)) == ["notes.txt"]

    # One byte changed in the store's copy: its SHA-256 no longer matches; nothing is left.
    raw = bytearray(open(backup, "rb").read())
    with tarfile.open(backup) as archive:
        member = archive.getmember("edge.sqlite3")
    raw[member.offset_data + member.size // 2] ^= 0xFF
    damaged = tmp_path / "damaged.tar"
    damaged.write_bytes(bytes(raw))
    target = tmp_path / "target"
    result = cli(str(target), "restore", "--from", str(damaged))
    assert result.returncode == 1 and "SHA-256" in result.stderr, result.stderr
    assert os.listdir(target) == []
    # Cut short: refused, nothing left.
    (tmp_path / "short.tar").write_bytes(bytes(raw[: member.offset_data + 1000]))
    result = cli(str(target), "restore", "--from", str(tmp_path / "short.tar"))
    assert result.returncode == 1 and "truncated" in result.stderr, result.stderr
    assert os.listdir(target) == []
    # Not a backup at all.
    (tmp_path / "other.tar").write_bytes(b"hello" * 300)
    result = cli(str(target), "restore", "--from", str(tmp_path / "other.tar"))
    assert result.returncode == 1 and os.listdir(target) == []

    # A directory an edge serves (empty but for its lock) is refused too.
    idle = start_demo(edge_factory, data_dir=fresh(tmp_path, "idle"))
    result = cli(idle.dir, "restore", "--from", backup)
    assert result.returncode == 1


@pytest.mark.store_independent
def test_backup_and_restore_point_at_pg_dump_on_postgresql(tmp_path):
    env = {"BIQLI_EDGE_DATABASE_URL": "postgresql://edge@127.0.0.1:1/biqli"}
    for args in (("backup", "--to", str(tmp_path / "b.tar")), ("restore", "--from", str(tmp_path / "b.tar"))):
        result = cli(str(tmp_path / "data"), *args, env=env)
        assert result.returncode == 1 and ("pg_dump" in result.stderr or "pg_restore" in result.stderr), result.stderr
        assert not (tmp_path / "b.tar").exists()
