"""Black-box tests: connections that never speak cannot keep visitors out (issue 14, item 5).

A connection that never sends a byte used to hold its slot for the 60 s keep-alive idle
time; 10,000 of them filled the edge and new visitors timed out. Now a new connection
has the head deadline from accept, and at the connection limit the oldest waiting
connections (silent since accept, or idle between requests) make room, as in nginx.
"""
import re, resource, socket, time
import pytest
from edge import Conn, request

# About the transport, not the store: the SQLite pass runs it, the PostgreSQL pass skips it.
pytestmark = pytest.mark.store_independent

SILENT = 10_000


def raise_descriptor_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < needed:
        return hard
    if soft == resource.RLIM_INFINITY or soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    return needed


def metric(port, name):
    _, _, body = request(port, "/metrics")
    match = re.search(rf"^{name} (\d+)$", body.decode(), re.M)
    return int(match.group(1))


def test_ten_thousand_silent_connections_do_not_keep_a_new_client_out(edge_factory):
    # The edge (a child) inherits the raised limit: it needs a descriptor per connection too.
    limit = raise_descriptor_limit(2 * SILENT + 1000)
    silent_count = min(SILENT, (limit - 1000) // 2)
    edge = edge_factory(env={"BIQLI_EDGE_MAX_CONNECTIONS": str(silent_count), "BIQLI_EDGE_ACCESS_LOG": "off"})
    silent = []
    try:
        for _ in range(silent_count):
            silent.append(socket.create_connection(("127.0.0.1", edge.http_port), timeout=5))
        time.sleep(0.5)  # let the loops accept them all
        start = time.monotonic()
        status, _, _ = request(edge.http_port, "/healthz")
        elapsed = time.monotonic() - start
        assert status == 200
        assert elapsed < 1.0, f"a new client waited {elapsed:.2f} s behind {silent_count} silent connections"
        assert metric(edge.http_port, "biqli_http_shed_connections_total") >= 1
        # The slots went to the oldest silent connections: the newest are still open.
        newest = silent[-1]
        newest.setblocking(False)
        try:
            assert newest.recv(1) != b"", "the newest silent connection should not have been shed"
        except BlockingIOError:
            pass  # still open, nothing to read: as expected
    finally:
        for s in silent:
            s.close()


def test_a_silent_connection_has_the_head_deadline_from_accept(edge_factory):
    edge = edge_factory(env={"BIQLI_EDGE_HEAD_TIMEOUT_MS": "1000", "BIQLI_EDGE_IDLE_TIMEOUT_MS": "30000"})
    for tls in (False, True):
        port = edge.https_port if tls else edge.http_port
        c = Conn(port, tls=tls)
        start = time.monotonic()
        assert c.is_closed(timeout=5), "a connection that never sends a request must be closed"
        assert time.monotonic() - start < 3, "closed at the head deadline, not the idle one"
        c.close()
    # The keep-alive wait after a request is still the idle time.
    c = Conn(edge.http_port)
    c.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
    assert c.response()[0] == 200
    assert not c.is_closed(timeout=2.5)
    c.close()


def test_the_first_request_head_counts_from_accept(edge_factory):
    edge = edge_factory(env={"BIQLI_EDGE_HEAD_TIMEOUT_MS": "1500"})
    c = Conn(edge.http_port)
    start = time.monotonic()
    time.sleep(1.0)
    c.send("GET /healthz HTTP/1.1\r\n")  # the head starts late and never ends
    answer = read_until_closed(c.sock, timeout=5)
    # A 408 and a close at 1.5 s from accept, not 1.5 s after the first byte (2.5 s).
    assert answer.startswith(b"HTTP/1.1 408")
    assert time.monotonic() - start < 2.2
    c.close()


def read_until_closed(sock, timeout):
    sock.settimeout(timeout)
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk


def test_idle_keepalive_connections_make_room_at_the_limit(edge_factory):
    edge = edge_factory(env={"BIQLI_EDGE_MAX_CONNECTIONS": "40", "BIQLI_EDGE_LOOPS": "1"})
    idle = []
    for _ in range(40):
        c = Conn(edge.http_port)
        c.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
        assert c.response()[0] == 200
        idle.append(c)
    start = time.monotonic()
    status, _, _ = request(edge.http_port, "/healthz")
    assert status == 200 and time.monotonic() - start < 1.0
    assert idle[0].is_closed(timeout=2), "the oldest idle connection is the one shed"
    for c in idle:
        c.close()
