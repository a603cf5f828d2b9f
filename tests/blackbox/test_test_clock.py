"""The test clock (`BIQLI_EDGE_TEST_CLOCK_BACK_MS`, decision 0026) works only in a test: with
`serve --demo`, on a store whose every domain is a name no one can own (RFC 2606/6761:
*.test, *.example, example.com...). A service file that carries it by mistake gets a refusal,
`check` reports it, and an edge running with it says so on /metrics (issue 33 item 6)."""
import json, subprocess, tempfile, time

import pytest

from edge import BINARY, Edge, request
from fixtures_data import api, start_demo
from management_api import cli

pytestmark = pytest.mark.store_independent

DAY_MS = 86_400_000
CLOCK = {"BIQLI_EDGE_TEST_CLOCK_BACK_MS": str(3 * DAY_MS)}


def serve_exit(args, data_dir, env):
    """Starts `biqli-edge ARGS` expecting it to refuse: (exit code, stderr)."""
    e = Edge(args=args, env=env, data_dir=data_dir, wait=False)
    try:
        code = e.proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        e.kill()
        raise AssertionError(f"the edge kept running: {e.lines} {e.stderr_lines}")
    time.sleep(0.1)  # the pump threads' last lines
    return code, "\n".join(e.stderr_lines)


def test_a_plain_serve_refuses_the_test_clock():
    code, err = serve_exit(("serve",), tempfile.mkdtemp(prefix="edge-clock-"), CLOCK)
    assert code == 2, err
    assert "BIQLI_EDGE_TEST_CLOCK_BACK_MS is a test setting" in err and "--demo" in err


def test_the_demo_refuses_the_test_clock_on_a_store_that_serves_a_real_domain():
    data = tempfile.mkdtemp(prefix="edge-clock-")
    catalog = f"{data}/catalog.json"
    with open(catalog, "w") as f:
        json.dump({"domains": [{"hostname": "links.shop.com", "verified": True}]}, f)
    out = cli(["apply", catalog], data)
    assert out.returncode == 0, out.stderr
    code, err = serve_exit(("serve", "--demo"), data, CLOCK)
    assert code == 1, err
    assert "refused on a store that serves links.shop.com" in err
    # Nothing was written: the demo's domains are not there, and a plain serve starts.
    edge = Edge(args=("serve",), data_dir=data)
    try:
        key = cli(["keys", "create", "--name", "t"], data).stdout.strip()
        status, _, body = request(edge.http_port, "/api/v1/domains", headers={"Authorization": "Bearer " + key})
        assert status == 200, body
        assert [d["hostname"] for d in json.loads(body)["data"]] == ["links.shop.com"]
    finally:
        edge.stop()


def test_a_demo_with_the_test_clock_says_so_and_takes_no_real_domain(edge_factory):
    edge = start_demo(edge_factory, env=CLOCK)
    assert any("the clock is set" in line for line in edge.stderr_lines)
    status, _, body = request(edge.http_port, "/metrics")
    assert status == 200
    assert f"biqli_test_clock_back_seconds {3 * DAY_MS // 1000}" in body.decode()
    refused = api(edge, "POST", "/domains", {"hostname": "links.shop.com", "verified": True}, expect=(422,))
    assert refused["error"]["details"]["errors"][0]["field"] == "hostname"
    assert api(edge, "POST", "/domains", {"hostname": "more.example.test", "verified": True})["hostname"] \
        == "more.example.test"


def test_an_edge_without_the_test_clock_has_no_such_metric(edge_factory):
    edge = start_demo(edge_factory)
    status, _, body = request(edge.http_port, "/metrics")
    assert status == 200 and b"biqli_test_clock" not in body


def test_check_reports_the_test_clock_as_an_error():
    data = tempfile.mkdtemp(prefix="edge-clock-")
    out = cli(["check", "--json"], data, env=CLOCK)
    findings = json.loads(out.stdout)
    clock = [f for f in findings if f["code"] == "test_clock_on"]
    assert len(clock) == 1 and clock[0]["severity"] == "error", findings
    assert out.returncode != 0
    quiet = json.loads(cli(["check", "--json"], data).stdout)
    assert not [f for f in quiet if f["code"] == "test_clock_on"]
