"""The README's PostgreSQL backup recipes ("Backups"), run as written against a throwaway cluster
while an edge serves Android visits: pg_dump / pg_restore into a new database, and a base backup
with WAL archiving restored to a point in time. A new edge on the restored database resolves every
handoff acknowledged before the dump (or before the recovery target), and none acknowledged after
the target. They run on the PostgreSQL pass of scripts/test."""
import os, shutil, subprocess, tempfile, threading, time, uuid

import pytest

import backend
from fixtures_data import UA_ANDROID, referrer_token, resolve_android, start_demo, visit

pytestmark = pytest.mark.skipif(not backend.POSTGRESQL, reason="the PostgreSQL pass of scripts/test runs these")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PG_CLUSTER = os.path.join(ROOT, "scripts", "pg-cluster")
BIN = sorted(d for d in (f"/usr/lib/postgresql/{v}/bin" for v in os.listdir("/usr/lib/postgresql"))
             if os.path.isdir(d))[-1]
ROOMY = {"BIQLI_EDGE_RATE_PER_ADDRESS": "1000000", "BIQLI_EDGE_RATE_PER_INSTANCE": "1000000",
         "BIQLI_EDGE_RATE_PER_TOKEN": "1000", "BIQLI_EDGE_RATE_PER_APP": "10000000",
         "BIQLI_EDGE_RATE_INVALID_PER_ADDRESS": "100000",
         "BIQLI_EDGE_HTTPS_REDIRECT": "off"}


def as_postgres(*args, **kwargs):
    """A PostgreSQL tool run as its own user (the server refuses root), as an operator would."""
    return subprocess.run(["runuser", "-u", "postgres", "--", *args], check=True, capture_output=True, text=True,
                          timeout=120, **kwargs)


def psql(url, sql):
    return as_postgres(f"{BIN}/psql", "-X", "-At", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql).stdout.strip()


class Cluster:
    """A cluster of its own (scripts/pg-cluster): the shared test cluster cannot archive WAL."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="biqli-pgbackup-")
        self.url = subprocess.run([PG_CLUSTER, "start", self.dir], check=True, capture_output=True, text=True,
                                  timeout=120).stdout.strip()
        self.port = open(os.path.join(self.dir, "port")).read().strip()

    def database(self, name):
        return self.url.rsplit("/", 1)[0] + "/" + name

    def stop(self):
        subprocess.run([PG_CLUSTER, "stop", self.dir], capture_output=True, timeout=120)


def android_visits(edge, count):
    tokens = []
    for _ in range(count):
        status, headers, _ = visit(edge, "/invite", ua=UA_ANDROID, tls=False)
        assert status == 302
        tokens.append(referrer_token(headers["location"]))
    return tokens


def background_load(edge):
    """Android visits on 4 threads until stopped: what a dump or a base backup is taken under."""
    acknowledged, stop = [], threading.Event()

    def run():
        while not stop.is_set() and len(acknowledged) < 20000:
            status, headers, _ = visit(edge, "/invite", ua=UA_ANDROID, tls=False)
            if status == 302:
                acknowledged.append((referrer_token(headers["location"]), time.monotonic()))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()

    def finish():
        stop.set()
        for t in threads:
            t.join(timeout=30)
        return acknowledged
    return finish


def unresolved(edge, tokens):
    out = []
    for token in tokens:
        code, body = resolve_android(edge, token)
        if code != 200 or body.get("open", {}).get("matchedBy") != "exact_install_referrer":
            out.append((code, body))
    return out


@pytest.fixture
def cluster():
    c = Cluster()
    yield c
    c.stop()


def test_pg_dump_under_load_restores_into_a_new_database(edge_factory, cluster, tmp_path):
    psql(cluster.url, "CREATE DATABASE biqli")
    source = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_DATABASE_URL": cluster.database("biqli")})
    android_visits(source, 50)
    finish = background_load(source)
    try:
        time.sleep(0.5)
        began = time.monotonic()
        dump = os.path.join(tempfile.mkdtemp(prefix="biqli-dump-"), "biqli.dump")
        os.chown(os.path.dirname(dump), *_postgres_ids())
        # README: pg_dump --format=custom --file=biqli.dump 'postgresql://...'
        as_postgres(f"{BIN}/pg_dump", "--format=custom", f"--file={dump}", cluster.database("biqli"))
        time.sleep(0.3)
    finally:
        acknowledged = finish()
    before = [t for t, at in acknowledged if at < began]
    assert len(before) > 50

    # README: createdb, then pg_restore --no-owner --exit-on-error --dbname=... biqli.dump
    psql(cluster.url, "CREATE DATABASE biqli_restored")
    as_postgres(f"{BIN}/pg_restore", "--no-owner", "--exit-on-error", f"--dbname={cluster.database('biqli_restored')}",
                dump)
    source.stop()
    restored = edge_factory(args=("serve",), env={**ROOMY, "BIQLI_EDGE_DATABASE_URL": cluster.database("biqli_restored")})
    restored.publishable_key = source.publishable_key
    assert unresolved(restored, before) == []
    shutil.rmtree(os.path.dirname(dump), ignore_errors=True)


def _postgres_ids():
    import pwd
    entry = pwd.getpwnam("postgres")
    return entry.pw_uid, entry.pw_gid


def test_a_base_backup_and_archived_wal_recover_to_a_point_in_time(edge_factory, cluster):
    archive = os.path.join(cluster.dir, "wal-archive")
    os.mkdir(archive)
    os.chown(archive, *_postgres_ids())
    # README: archive_mode and archive_command, then a restart.
    psql(cluster.url, "ALTER SYSTEM SET archive_mode = on")
    psql(cluster.url, f"ALTER SYSTEM SET archive_command = 'test ! -f {archive}/%f && cp %p {archive}/%f'")
    subprocess.run([PG_CLUSTER, "restart", cluster.dir, "fast"], check=True, timeout=120)
    psql(cluster.url, "CREATE DATABASE biqli")
    source = start_demo(edge_factory, env={**ROOMY, "BIQLI_EDGE_DATABASE_URL": cluster.database("biqli")})
    first = android_visits(source, 30)

    # README: pg_basebackup while the edges serve.
    base = os.path.join(cluster.dir, "base")
    finish = background_load(source)
    try:
        as_postgres(f"{BIN}/pg_basebackup", "-h", "127.0.0.1", "-p", cluster.port, "-U", "postgres", "-D", base,
                    "-X", "stream", "--checkpoint=fast")
    finally:
        during = finish()
    second = android_visits(source, 30)
    # The point to recover to: after every handoff above was acknowledged.
    time.sleep(1.1)
    target = psql(cluster.url, "SELECT clock_timestamp()")
    time.sleep(1.1)
    third = android_visits(source, 30)
    psql(cluster.url, "SELECT pg_switch_wal()")
    deadline = time.time() + 30
    while time.time() < deadline:
        archived = psql(cluster.url, "SELECT last_archived_wal FROM pg_stat_archiver")
        current = psql(cluster.url, "SELECT pg_walfile_name(pg_current_wal_lsn())")
        if archived and archived < current:
            break
        time.sleep(0.2)
    source.stop()

    # README: a new data directory from the base backup, recovery.signal, restore_command and the target.
    restored = tempfile.mkdtemp(prefix="biqli-pitr-")
    os.chown(restored, *_postgres_ids())
    as_postgres("cp", "-a", base, os.path.join(restored, "data"))
    with open(os.path.join(restored, "data", "postgresql.auto.conf"), "a") as conf:
        conf.write(f"restore_command = 'cp {archive}/%f %p'\n")
        conf.write(f"recovery_target_time = '{target}'\n")
        conf.write("recovery_target_action = 'promote'\n")
        conf.write("archive_mode = off\n")
    as_postgres("touch", os.path.join(restored, "data", "recovery.signal"))
    port = subprocess.run(["python3", "-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); "
                           "print(s.getsockname()[1])"], capture_output=True, text=True).stdout.strip()
    with open(os.path.join(restored, "port"), "w") as f:
        f.write(port)
    subprocess.run([PG_CLUSTER, "resume", restored], check=True, timeout=120)
    try:
        url = f"postgresql://postgres@127.0.0.1:{port}/biqli"
        deadline = time.time() + 60
        while psql(url, "SELECT pg_is_in_recovery()") != "f" and time.time() < deadline:
            time.sleep(0.2)
        edge = edge_factory(args=("serve",), env={**ROOMY, "BIQLI_EDGE_DATABASE_URL": url})
        edge.publishable_key = source.publishable_key
        assert unresolved(edge, first + [t for t, _ in during] + second) == []
        missing = unresolved(edge, third)
        assert len(missing) == len(third), "handoffs after the recovery target are not in the recovered database"
        assert all(code == 404 for code, _ in missing), missing[:3]
    finally:
        subprocess.run([PG_CLUSTER, "stop", restored], capture_output=True, timeout=120)
