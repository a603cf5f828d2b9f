"""`/metrics` without a listener of its own is for this machine only (issue 23 item 1). "This
machine" is the client as the edge resolves it through its trusted proxies, never the proxy's own
loopback address: behind a same-host HTTP reverse proxy that forwards an internet client, or a
trusted balancer whose PROXY header names no client (`UNKNOWN`, v2 `LOCAL`, `AF_UNSPEC`,
`AF_UNIX`), or a trusted peer that sends no header in `optional` mode, the answer is 404.

The internet client is played by HAProxy itself: its front end accepts a PROXY header from the
test (`accept-proxy`) naming 203.0.113.50, so HAProxy really believes that is its client and
forwards it the way it would forward a visitor: in `X-Forwarded-For` (HTTP mode, `option
forwardfor`) or in its own PROXY header (TCP mode, `send-proxy`)."""
import socket
import struct

import pytest

from fixtures_data import start_demo
from test_proxy_protocol import V2_SIGNATURE, free_port, haproxy, v1, v2, wait_listening  # noqa: F401

METRICS = b"GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
TRUST_LOOPBACK = {"BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1/32", "BIQLI_EDGE_HTTPS_REDIRECT": "off"}

pytestmark = pytest.mark.store_independent


def get(port, header=b"", request=METRICS, source=None):
    """Sends `header` then `request` in the clear; returns (status, body) or (None, b"")."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(5)
    try:
        if source:
            s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(header + request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    except (ConnectionResetError, BrokenPipeError):
        data = b""
    finally:
        s.close()
    if not data:
        return None, b""
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def v2_unspec():
    return V2_SIGNATURE + bytes([0x21, 0x00]) + struct.pack("!H", 0)


def v2_unix():
    payload = b"/run/client.sock".ljust(108, b"\0") + b"/run/edge.sock".ljust(108, b"\0")
    return V2_SIGNATURE + bytes([0x21, 0x31]) + struct.pack("!H", len(payload)) + payload


def test_a_same_host_http_proxy_forwarding_an_internet_client_gets_no_metrics(edge_factory, haproxy):
    edge = start_demo(edge_factory, env=TRUST_LOOPBACK)
    port = free_port()
    proc = haproxy(f"""
defaults
    mode http
    timeout connect 5s
    timeout client 30s
    timeout server 30s

frontend web
    bind 127.0.0.1:{port} accept-proxy
    option forwardfor
    default_backend edge

backend edge
    server edge 127.0.0.1:{edge.http_port}
""")
    wait_listening(port, proc)
    # HAProxy's client is 203.0.113.50 (it says so in X-Forwarded-For); its own address is 127.0.0.1.
    status, body = get(port, v1("203.0.113.50", dport=80))
    assert status == 404, body
    assert b"biqli_node_info" not in body and b"go.example.test" not in body
    # The same proxy forwarding a client on this machine: served.
    status, body = get(port, v1("127.0.0.9", dport=80))
    assert status == 200 and b"biqli_node_info" in body, body
    # An internet client's own X-Forwarded-For cannot pass for loopback: HAProxy appends the
    # address it saw, and the edge reads from the right.
    forged = METRICS.replace(b"Connection: close\r\n", b"Connection: close\r\nX-Forwarded-For: 127.0.0.1\r\n")
    status, _ = get(port, v1("203.0.113.50", dport=80), request=forged)
    assert status == 404
    # Straight to the edge from 127.0.0.1, a trusted proxy's address, without X-Forwarded-For:
    # the edge cannot tell this from the proxy relaying an unnamed client, so it refuses.
    assert get(edge.http_port)[0] == 404
    # A loopback peer that is not a trusted proxy is this machine.
    assert get(edge.http_port, source="127.0.0.2")[0] == 200


def test_a_balancer_passing_tcp_through_gets_metrics_only_for_a_named_loopback_client(edge_factory, haproxy):
    edge = start_demo(edge_factory, env={**TRUST_LOOPBACK, "BIQLI_EDGE_PROXY_PROTOCOL": "on"})
    port = free_port()
    proc = haproxy(f"""
defaults
    mode tcp
    timeout connect 5s
    timeout client 30s
    timeout server 30s

frontend tcp_in
    bind 127.0.0.1:{port} accept-proxy
    default_backend edge

backend edge
    server edge 127.0.0.1:{edge.http_port} send-proxy
""")
    wait_listening(port, proc)
    assert get(port, v1("203.0.113.50", dport=80))[0] == 404
    # HAProxy relays a client it cannot name (an UNKNOWN header reached it) as PROXY UNKNOWN.
    assert get(port, b"PROXY UNKNOWN\r\n")[0] == 404
    status, body = get(port, v1("127.0.0.9", dport=80))
    assert status == 200 and b"biqli_node_info" in body, body


@pytest.mark.parametrize("header", [b"PROXY UNKNOWN\r\n", b"PROXY UNKNOWN 1.2.3.4 5.6.7.8 1 2\r\n",
                                    v2("0.0.0.0", local=True), v2_unspec(), v2_unix()],
                         ids=["v1-unknown", "v1-unknown-with-addresses", "v2-local", "v2-af-unspec", "v2-af-unix"])
def test_a_proxy_header_that_names_no_client_gets_no_metrics(edge_factory, header):
    edge = start_demo(edge_factory, env={**TRUST_LOOPBACK, "BIQLI_EDGE_PROXY_PROTOCOL": "on"})
    status, body = get(edge.http_port, header)
    assert status == 404, body
    # The same connection kind still reaches everything else (a balancer's health check).
    assert get(edge.http_port, header, request=METRICS.replace(b"/metrics", b"/healthz"))[0] == 200
    # A header naming a loopback client is this machine.
    assert get(edge.http_port, v1("127.0.0.9", dport=80))[0] == 200


def test_optional_mode_without_a_header_from_a_trusted_peer_gets_no_metrics(edge_factory):
    edge = start_demo(edge_factory, env={**TRUST_LOOPBACK, "BIQLI_EDGE_PROXY_PROTOCOL": "optional"})
    assert get(edge.http_port)[0] == 404
    assert get(edge.http_port, v1("127.0.0.9", dport=80))[0] == 200
    assert get(edge.http_port, v2("203.0.113.50", dport=80))[0] == 404
    assert get(edge.http_port, source="127.0.0.2")[0] == 200


def test_without_trusted_proxies_loopback_peers_get_metrics_and_forwarded_headers_change_nothing(edge_factory):
    edge = start_demo(edge_factory, env={"BIQLI_EDGE_HTTPS_REDIRECT": "off"})
    assert get(edge.http_port)[0] == 200
    forged = METRICS.replace(b"Connection: close\r\n", b"Connection: close\r\nX-Forwarded-For: 203.0.113.50\r\n")
    assert get(edge.http_port, request=forged)[0] == 200  # nobody is trusted to say so
