"""The PROXY protocol (issue 17 item 3, decision 0015): behind a load balancer that passes TCP
through, the edge sees the visitor's address that the balancer's PROXY header names, on the HTTP
and the HTTPS listener (where the header comes before the ClientHello), and only from the trusted
proxies. Addresses never reach the logs (README, "Privacy"), so what the edge saw is read from its
behaviour: the resolver's per-address rate limit (`BIQLI_EDGE_RATE_PER_ADDRESS=2`) gives every
client address its own bucket, and the third request from one address is 429 before anything else
is looked at. Loopback has many source addresses: 127.0.0.1 plays the balancer, 127.0.0.2 a
visitor who connects directly, 127.0.0.3 and 127.0.0.4 visitors behind a real HAProxy."""
import ipaddress, os, shutil, socket, ssl, struct, subprocess, tempfile, time

import pytest

from edge import Edge
from fixtures_data import DEMO_HOST, start_demo

V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
PROBE = (f"POST /api/v1/track/open HTTP/1.1\r\nHost: {DEMO_HOST}\r\nContent-Length: 0\r\n"
         f"Connection: close\r\n\r\n").encode()
LIMITED = {"BIQLI_EDGE_RATE_PER_ADDRESS": "2", "BIQLI_EDGE_HTTPS_REDIRECT": "off"}


def v1(source, port=51234, dest=None, dport=443):
    family = "TCP6" if ":" in source else "TCP4"
    dest = dest or ("::1" if family == "TCP6" else "127.0.0.1")  # both of the line's family
    return f"PROXY {family} {source} {dest} {port} {dport}\r\n".encode()


def v2(source, port=51234, dest="127.0.0.1", dport=443, local=False, tlvs=b""):
    if local:
        return V2_SIGNATURE + bytes([0x20, 0x00]) + struct.pack("!H", 0)
    src, dst = ipaddress.ip_address(source), ipaddress.ip_address(dest)
    family = 0x11 if src.version == 4 else 0x21
    payload = src.packed + dst.packed + struct.pack("!HH", port, dport) + tlvs
    return V2_SIGNATURE + bytes([0x21, family]) + struct.pack("!H", len(payload)) + payload


def exchange(port, header=b"", tls=False, source=None, payload=PROBE, timeout=5):
    """Connects (from `source`, a loopback address), sends `header` in the clear, then `payload`
    (inside TLS when `tls`); returns the answer's status, or None when the edge closed without one
    (on TLS: a handshake the edge ended)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        if source:
            s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        if header:
            s.sendall(header)
        if tls:
            ctx = ssl.create_default_context()
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
            try:
                s = ctx.wrap_socket(s, server_hostname=DEMO_HOST)
            except (ssl.SSLError, ConnectionResetError, BrokenPipeError, OSError):
                return None
        try:
            s.sendall(payload)
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except (ConnectionResetError, BrokenPipeError, ssl.SSLError):
            data = b""
        if not data:
            return None
        return int(data.split(b" ", 2)[1])
    finally:
        s.close()


def metrics(edge, source="127.0.0.2"):
    """/metrics from a loopback peer that connects directly (served to loopback peers only)."""
    s = socket.create_connection(("127.0.0.1", edge.http_port), timeout=5, source_address=(source, 0))
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    s.close()
    return data.decode()


def bucket_allows_two(edge, port, header_for, tls):
    """Two requests pass the address's bucket, the third is 429; returns the statuses."""
    return [exchange(port, header_for(), tls=tls) for _ in range(3)]


def test_a_trusted_balancers_headers_name_the_client_on_both_listeners(edge_factory):
    edge = start_demo(edge_factory, env={**LIMITED, "BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1/32",
                                         "BIQLI_EDGE_PROXY_PROTOCOL": "on"})
    # Plain HTTP, v1: 203.0.113.10's bucket.
    statuses = [exchange(edge.http_port, v1("203.0.113.10", dport=80)) for _ in range(3)]
    assert statuses[0] not in (None, 429) and statuses[1] not in (None, 429) and statuses[2] == 429, statuses
    # HTTPS, v2 before the ClientHello: another client, another bucket, TLVs skipped.
    statuses = [exchange(edge.https_port, v2("203.0.113.11", tlvs=b"\x01\x00\x02h2"), tls=True) for _ in range(3)]
    assert statuses[0] not in (None, 429) and statuses[1] not in (None, 429) and statuses[2] == 429, statuses
    # The other way round: v2 on HTTP, v1 on HTTPS, a third client (IPv6 through v1 too).
    assert exchange(edge.http_port, v2("203.0.113.12", dport=80)) not in (None, 429)
    assert exchange(edge.https_port, v1("203.0.113.12"), tls=True) not in (None, 429)
    assert exchange(edge.https_port, v1("203.0.113.12"), tls=True) == 429
    assert exchange(edge.https_port, v1("2001:db8:1::7"), tls=True) not in (None, 429)
    # The first client is still limited whichever listener and version it comes through.
    assert exchange(edge.https_port, v2("203.0.113.10"), tls=True) == 429
    # A LOCAL header (the balancer's own health check) keeps the balancer's address.
    assert exchange(edge.http_port, v2("0.0.0.0", local=True), payload=b"GET /healthz HTTP/1.1\r\n"
                    b"Host: localhost\r\nConnection: close\r\n\r\n") == 200
    # A visitor who reaches the edge directly is served as before, with its own bucket.
    assert exchange(edge.https_port, tls=True, source="127.0.0.2") not in (None, 429)
    text = metrics(edge)
    assert 'biqli_proxy_protocol_headers_total{version="1"} 6' in text, text
    assert 'biqli_proxy_protocol_headers_total{version="2"} 6' in text, text
    assert 'biqli_proxy_protocol_refused_total{reason="untrusted"} 0' in text, text


def test_a_header_from_an_untrusted_peer_is_refused(edge_factory):
    edge = start_demo(edge_factory, env={**LIMITED, "BIQLI_EDGE_TRUSTED_PROXIES": "10.0.0.0/8",
                                         "BIQLI_EDGE_PROXY_PROTOCOL": "on"})
    # 127.0.0.1 is not a trusted proxy: it may not say who the client is, in either version.
    assert exchange(edge.http_port, v1("203.0.113.20", dport=80)) is None
    assert exchange(edge.https_port, v2("203.0.113.20"), tls=True) is None
    assert exchange(edge.https_port, v1("203.0.113.20"), tls=True) is None
    assert exchange(edge.http_port, v2("203.0.113.20", dport=80)) is None
    # Without a header it is a visitor like any other, on both listeners.
    assert exchange(edge.http_port) not in (None, 429)
    assert exchange(edge.https_port, tls=True) not in (None, 429)
    text = metrics(edge, source="127.0.0.1")
    assert 'biqli_proxy_protocol_refused_total{reason="untrusted"} 4' in text, text
    assert 'biqli_proxy_protocol_headers_total{version="1"} 0' in text, text


def test_a_trusted_peer_without_the_required_header_is_closed(edge_factory):
    edge = start_demo(edge_factory, env={**LIMITED, "BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1",
                                         "BIQLI_EDGE_PROXY_PROTOCOL": "on"})
    assert exchange(edge.http_port) is None
    assert exchange(edge.https_port, tls=True) is None
    # A malformed header is closed too.
    assert exchange(edge.http_port, b"PROXY TCP4 203.0.113.9 nowhere 1 2\r\n") is None
    assert exchange(edge.https_port, V2_SIGNATURE + b"\x21\x11\x00\x04abcd", tls=True) is None
    assert exchange(edge.http_port, source="127.0.0.2") not in (None, 429)
    text = metrics(edge)
    assert 'biqli_proxy_protocol_refused_total{reason="missing"} 2' in text, text
    assert 'biqli_proxy_protocol_refused_total{reason="malformed"} 2' in text, text


def test_optional_lets_a_trusted_peer_send_a_header_or_not(edge_factory):
    edge = start_demo(edge_factory, env={**LIMITED, "BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1",
                                         "BIQLI_EDGE_PROXY_PROTOCOL": "optional"})
    assert exchange(edge.https_port, tls=True) not in (None, 429)  # 127.0.0.1's own bucket
    assert [exchange(edge.https_port, v2("203.0.113.30"), tls=True) for _ in range(3)][2] == 429
    assert exchange(edge.http_port) not in (None, 429)
    assert exchange(edge.http_port) == 429
    assert exchange(edge.http_port, v1("203.0.113.31", dport=80)) not in (None, 429)


@pytest.mark.parametrize("env,fragment", [
    ({"BIQLI_EDGE_PROXY_PROTOCOL": "maybe"}, "must be off, on or optional"),
    ({"BIQLI_EDGE_PROXY_PROTOCOL": "on"}, "needs BIQLI_EDGE_TRUSTED_PROXIES"),
])
def test_the_setting_is_checked_at_start(env, fragment):
    e = Edge(env=env, wait=False)
    assert e.proc.wait(timeout=10) == 2
    time.sleep(0.1)
    assert any("BIQLI_EDGE_PROXY_PROTOCOL" in line and fragment in line for line in e.stderr_lines), e.stderr_lines


# ---------------------------------------------------------------- a real HAProxy in front


# Ports below the kernel's ephemeral range, never handed out twice (see acme_ca.free_port).
from acme_ca import free_port  # noqa: E402


@pytest.fixture
def haproxy():
    """Starts HAProxy (Debian's) with a configuration written for the test; stops it at the end."""
    binary = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.path.exists("/usr/sbin/haproxy") else None)
    if binary is None:
        pytest.skip("haproxy is not installed (BIQLI_SETUP_TEST=1 scripts/setup installs it)")
    started = []

    def start(config):
        d = tempfile.mkdtemp(prefix="haproxy-test-")
        path = os.path.join(d, "haproxy.cfg")
        with open(path, "w") as f:
            f.write(config)
        check = subprocess.run([binary, "-c", "-f", path], capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr
        proc = subprocess.Popen([binary, "-f", path, "-db"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_listening(port, proc, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        assert proc.poll() is None, proc.stdout.read().decode()
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"haproxy never listened on {port}")


def test_the_edge_sees_the_client_address_haproxy_saw(edge_factory, haproxy):
    edge = start_demo(edge_factory, env={**LIMITED, "BIQLI_EDGE_TRUSTED_PROXIES": "127.0.0.1",
                                         "BIQLI_EDGE_PROXY_PROTOCOL": "on"})
    tls_port, http_port = free_port(), free_port()
    proc = haproxy(f"""
global
    maxconn 200

defaults
    mode tcp
    timeout connect 5s
    timeout client 30s
    timeout server 30s

frontend https_in
    bind 127.0.0.1:{tls_port}
    default_backend edge_https

backend edge_https
    server edge 127.0.0.1:{edge.https_port} send-proxy-v2 check inter 500ms

frontend http_in
    bind 127.0.0.1:{http_port}
    default_backend edge_http

backend edge_http
    server edge 127.0.0.1:{edge.http_port} send-proxy check inter 500ms
""")
    wait_listening(tls_port, proc)
    wait_listening(http_port, proc)
    time.sleep(1.2)  # a few health checks (a v2 header, then a close) reach the edge too
    # Through HAProxy's TLS passthrough (v2): 127.0.0.3's bucket, not HAProxy's.
    three = [exchange(tls_port, tls=True, source="127.0.0.3") for _ in range(3)]
    assert three[0] not in (None, 429) and three[1] not in (None, 429) and three[2] == 429, three
    # Another visitor through the same HAProxy has a bucket of its own: without the PROXY
    # protocol both would share HAProxy's address, and this would be 429 already.
    four = [exchange(http_port, source="127.0.0.4") for _ in range(2)]
    assert four[0] not in (None, 429) and four[1] not in (None, 429), four
    assert exchange(tls_port, tls=True, source="127.0.0.4") == 429  # one bucket across both listeners
    assert exchange(tls_port, tls=True, source="127.0.0.5") not in (None, 429)
    text = metrics(edge, source="127.0.0.2")
    assert 'biqli_proxy_protocol_refused_total{reason="missing"} 0' in text, text
    assert 'biqli_proxy_protocol_refused_total{reason="malformed"} 0' in text, text
