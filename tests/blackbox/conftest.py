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
    if not backend.POSTGRESQL:
        return
    skip = pytest.mark.skip(reason="about the SQLite file; the PostgreSQL run has its own")
    once = pytest.mark.skip(reason="does not depend on the store; the SQLite pass ran it")
    for item in items:
        if "sqlite_only" in item.keywords:
            item.add_marker(skip)
        elif "store_independent" in item.keywords:
            item.add_marker(once)


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
