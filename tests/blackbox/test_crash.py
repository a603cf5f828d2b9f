"""Durability (issue 3): the real edge under a bounded write load is killed with SIGKILL;
after a restart every handoff it acknowledged (a Play redirect carrying the token is the
acknowledgement) is present and the database passes `PRAGMA integrity_check`."""
import pytest
import signal, sqlite3, threading, time
from fixtures_data import UA_ANDROID, handoff_key, referrer_token, start_demo, visit

pytestmark = pytest.mark.sqlite_only


def test_every_acknowledged_handoff_survives_sigkill(edge_factory, tmp_path):
    data = str(tmp_path / "data")
    edge = start_demo(edge_factory, env={"BIQLI_EDGE_DATA_DIR": data, "BIQLI_EDGE_HTTPS_REDIRECT": "off"})
    acknowledged = []
    stop = threading.Event()

    def load():
        while not stop.is_set() and len(acknowledged) < 5000:
            try:
                status, headers, _ = visit(edge, "/invite", ua=UA_ANDROID, tls=False)
            except (OSError, EOFError):
                return  # the edge is gone (killed mid-request: a reset or a close before any answer)
            if status == 302:
                acknowledged.append(referrer_token(headers["location"]))

    workers = [threading.Thread(target=load) for _ in range(8)]
    for w in workers:
        w.start()
    deadline = time.time() + 20
    while len(acknowledged) < 300 and time.time() < deadline:
        time.sleep(0.05)
    edge.proc.send_signal(signal.SIGKILL)  # mid-load: writes are in flight
    stop.set()
    for w in workers:
        w.join(timeout=10)
    edge.proc.wait(timeout=10)
    tokens = list(acknowledged)
    assert len(tokens) >= 300

    # The edge starts again on the same data and serves.
    again = edge_factory(args=("serve",), env={"BIQLI_EDGE_DATA_DIR": data})
    assert visit(again, "/invite", ua=UA_ANDROID)[0] == 302
    db = sqlite3.connect(f"file:{data}/edge.sqlite3?mode=ro", uri=True)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    stored = {row[0] for row in db.execute("SELECT token_hash FROM handoffs")}
    missing = [t for t in tokens if handoff_key(t) not in stored]
    assert missing == [], f"{len(missing)} of {len(tokens)} acknowledged handoffs were lost"
