import os, sys
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edge import Edge  # noqa: E402
import backend  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "sqlite_only: about SQLite's file itself; skipped on the PostgreSQL run")
    config.addinivalue_line(
        "markers", "store_independent: transport or pages in a browser, the same whatever the store; "
        "run once, on the SQLite pass")


def pytest_collection_modifyitems(config, items):
    _keep_this_shard(config, items)
    if not backend.POSTGRESQL:
        return
    skip = pytest.mark.skip(reason="about the SQLite file; the PostgreSQL run has its own")
    once = pytest.mark.skip(reason="does not depend on the store; the SQLite pass ran it")
    for item in items:
        if "sqlite_only" in item.keywords:
            item.add_marker(skip)
        elif "store_independent" in item.keywords:
            item.add_marker(once)


def _keep_this_shard(config, items):
    """`BIQLI_TEST_SHARD=I/N` keeps every Nth test from the Ith (0-based), in collection
    order, so that N processes run one pass side by side (scripts/test splits the
    PostgreSQL pass, mostly waits on edges, servers and sleeps, in two). Dealt one by one
    rather than by file, so that a file of long tests is shared out too."""
    shard = os.environ.get("BIQLI_TEST_SHARD")
    if not shard:
        return
    index, count = (int(part) for part in shard.split("/"))
    assert 0 <= index < count, f"BIQLI_TEST_SHARD={shard}: I/N with 0 <= I < N"
    kept = [item for n, item in enumerate(items) if n % count == index]
    config.hook.pytest_deselected(items=[item for n, item in enumerate(items) if n % count != index])
    items[:] = kept


@pytest.fixture
def edge_factory():
    started = []

    def start(**kwargs):
        e = Edge(**kwargs)
        started.append(e)
        return e

    yield start
    for e in started:
        e.kill()


@pytest.fixture
def edge(edge_factory):
    return edge_factory()
