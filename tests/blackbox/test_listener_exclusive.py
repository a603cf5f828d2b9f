"""Black-box tests: an edge never shares its listening address (issue 14, item 2).

Every loop listens with SO_REUSEPORT, which the kernel lets any process of the same
user join: a second `serve` with another data directory used to take half of the new
connections (half of the API calls answered 401 by the wrong edge).
"""
import json, socket, subprocess, tempfile
import pytest
from edge import BINARY, Edge, request

# About the transport, not the store: the SQLite pass runs it, the PostgreSQL pass skips it.
pytestmark = pytest.mark.store_independent


def start_second(env_overrides):
    data = tempfile.mkdtemp(prefix="edge-second-")
    env = {"PATH": "/usr/bin:/bin", "BIQLI_EDGE_DATA_DIR": data, "BIQLI_EDGE_LOOPS": "2",
           "BIQLI_EDGE_CONSOLE_ADDR": "127.0.0.1:0", **env_overrides}
    return subprocess.run([BINARY, "serve"], env=env, capture_output=True, timeout=30)


def refusal_lines(result):
    return [line for line in result.stderr.decode().splitlines() if line.strip()]


def test_a_second_edge_on_the_same_ports_refuses_to_start(edge):
    for variant in (
        {"BIQLI_EDGE_HTTP_ADDR": f"127.0.0.1:{edge.http_port}", "BIQLI_EDGE_HTTPS_ADDR": "127.0.0.1:0"},
        {"BIQLI_EDGE_HTTP_ADDR": "127.0.0.1:0", "BIQLI_EDGE_HTTPS_ADDR": f"127.0.0.1:{edge.https_port}"},
        # The wildcard address overlaps the loopback one.
        {"BIQLI_EDGE_HTTP_ADDR": f"0.0.0.0:{edge.http_port}", "BIQLI_EDGE_HTTPS_ADDR": "127.0.0.1:0"},
    ):
        result = start_second(variant)
        assert result.returncode == 1, variant
        lines = refusal_lines(result)
        port = edge.http_port if str(edge.http_port) in json.dumps(variant) else edge.https_port
        assert len(lines) == 1 and f":{port}" in lines[0] and "another process" in lines[0], lines
    # The first edge kept every connection: none went to an edge that is gone.
    for _ in range(50):
        assert request(edge.http_port, "/healthz")[0] == 200
        assert request(edge.https_port, "/healthz", tls=True)[0] == 200


def test_an_address_another_program_shares_with_reuseport_is_refused():
    other = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    other.bind(("127.0.0.1", 0))
    other.listen(16)
    port = other.getsockname()[1]
    try:
        result = start_second({"BIQLI_EDGE_HTTP_ADDR": f"127.0.0.1:{port}", "BIQLI_EDGE_HTTPS_ADDR": "127.0.0.1:0"})
        assert result.returncode == 1
        lines = refusal_lines(result)
        assert len(lines) == 1 and f"127.0.0.1:{port}" in lines[0], lines
    finally:
        other.close()


def test_the_address_is_free_again_after_the_edge_stops():
    first = Edge()
    port = first.http_port
    assert first.stop() == 0
    second = Edge(env={"BIQLI_EDGE_HTTP_ADDR": f"127.0.0.1:{port}"})
    try:
        assert request(port, "/healthz")[0] == 200
    finally:
        second.kill()
