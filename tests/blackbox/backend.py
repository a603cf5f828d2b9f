"""Which store the black-box tests run the edge on.

`BIQLI_TEST_BACKEND=postgresql` (with `BIQLI_TEST_POSTGRES_URL`, the admin URL of a
throwaway cluster that scripts/test starts) runs every edge and CLI call of a test on a
fresh PostgreSQL database; unset, the SQLite file in the data directory as always. A
data directory maps to one database, so an edge and the CLI on the same directory share
it, as they share the file on SQLite. Tests about SQLite's file itself are marked
`sqlite_only`."""
import os, subprocess, tempfile, threading, uuid

BACKEND = os.environ.get("BIQLI_TEST_BACKEND", "sqlite")
ADMIN_URL = os.environ.get("BIQLI_TEST_POSTGRES_URL")
POSTGRESQL = BACKEND == "postgresql"

_databases = {}
_lock = threading.Lock()
_template = None


def _admin(sql):
    import psycopg
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(sql)


def _url(name):
    return ADMIN_URL.rsplit("/", 1)[0] + "/" + name


def _migrated_template():
    """A database the binary under test has migrated to its schema and nothing else
    (`keys list` opens the store, migrates it and writes no row of its own), made once
    per run: a database copied from it costs about 0.05 s where migrating a new one
    costs 0.25 s, and the PostgreSQL pass makes a database for nearly every test.
    Tests of the migrations themselves make their own empty databases."""
    global _template
    if _template is None:
        name = "bb_template_" + uuid.uuid4().hex[:8]
        _admin(f"CREATE DATABASE {name}")
        binary = os.environ.get("BIQLI_EDGE_BINARY") or os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "release", "biqli-edge")
        with tempfile.TemporaryDirectory() as data:
            env = {**os.environ, "BIQLI_EDGE_DATABASE_URL": _url(name), "BIQLI_EDGE_DATA_DIR": data}
            subprocess.run([binary, "keys", "list"], env=env, check=True, capture_output=True, timeout=60)
        _template = name
    return _template


def database_url(data_dir, migrated=True):
    """The database of `data_dir` on PostgreSQL (made on first use, already migrated to
    the binary's schema unless `migrated=False`), else None."""
    if not POSTGRESQL:
        return None
    assert ADMIN_URL, "BIQLI_TEST_BACKEND=postgresql needs BIQLI_TEST_POSTGRES_URL"
    key = os.path.realpath(data_dir)
    with _lock:
        if key not in _databases:
            name = "bb_" + uuid.uuid4().hex[:16]
            _admin(f"CREATE DATABASE {name} TEMPLATE {_migrated_template()}" if migrated
                   else f"CREATE DATABASE {name}")
            _databases[key] = _url(name)
        return _databases[key]


def rows(url, sql, args=()):
    """A query on a PostgreSQL database, as dicts; `?` placeholders as in sqlite3."""
    import psycopg
    from psycopg.rows import dict_row
    with psycopg.connect(url, row_factory=dict_row) as conn:
        return [dict(r) for r in conn.execute(sql.replace("?", "%s"), args)]


def execute(url, sql, args=()):
    import psycopg
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.replace("?", "%s"), args)
