import os, sys
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edge import Edge  # noqa: E402


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
