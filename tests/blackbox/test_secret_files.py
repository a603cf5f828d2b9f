"""Black-box tests: files holding secrets are the owner's alone (issue 14, item 3).

The database (and its -wal and -shm) holds the Ed25519 receipt-signing keys, and the
generated default.pem its private key. They were created 0644 when the data directory
already existed with mode 0755, so any local user could forge attribution receipts.
"""
import pytest
import json, os, stat, subprocess, tempfile
from edge import BINARY, Edge, make_cert
from management_api import cli

pytestmark = pytest.mark.sqlite_only


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def secret_files(data):
    return [f"{data}/edge.sqlite3", f"{data}/edge.sqlite3-wal", f"{data}/edge.sqlite3-shm",
            f"{data}/certs/default.pem", f"{data}/secrets/source-address.key"]


def test_serve_creates_every_secret_file_0600_in_an_open_directory():
    data = tempfile.mkdtemp(prefix="edge-modes-")
    os.chmod(data, 0o755)
    old = os.umask(0o022)
    try:
        e = Edge(data_dir=data)
    finally:
        os.umask(old)
    try:
        for path in secret_files(data):
            assert mode(path) == 0o600, f"{path}: {oct(mode(path))}"
    finally:
        e.kill()


def test_the_cli_creates_the_database_0600_even_with_umask_0():
    data = tempfile.mkdtemp(prefix="edge-modes-")
    os.chmod(data, 0o777)
    out = subprocess.run([BINARY, "keys", "create", "--name", "ops"], env={"PATH": "/usr/bin:/bin",
                         "BIQLI_EDGE_DATA_DIR": data}, capture_output=True, text=True, umask=0, timeout=30)
    assert out.returncode == 0, out.stderr
    for path in secret_files(data)[:3]:
        if os.path.exists(path):
            assert mode(path) == 0o600, f"{path}: {oct(mode(path))}"
    assert mode(f"{data}/edge.sqlite3") == 0o600


def test_loose_files_are_reported_by_check_and_made_private_by_serve():
    data = tempfile.mkdtemp(prefix="edge-modes-")
    Edge(data_dir=data).stop()
    os.makedirs(f"{data}/certs", exist_ok=True)
    make_cert(f"{data}/certs/go.modes.test.pem", ["go.modes.test"])
    os.chmod(f"{data}/certs/go.modes.test.pem", 0o644)
    for path in (f"{data}/edge.sqlite3", f"{data}/secrets/source-address.key"):
        os.chmod(path, 0o644)

    findings = json.loads(cli(["check", "--json"], data).stdout)
    readable = {f["subject"] for f in findings if f["code"] == "secret_file_readable"}
    assert readable == {f"{data}/edge.sqlite3", f"{data}/secrets/source-address.key",
                        f"{data}/certs/go.modes.test.pem"}, findings
    assert all(f["severity"] == "warning" and "0644" in f["message"] for f in findings
               if f["code"] == "secret_file_readable")

    e = Edge(data_dir=data)
    try:
        warned = {(entry.get("path"), entry["msg"]) for entry in e.log_entries() if entry.get("level") == "warn"}
        assert (f"{data}/edge.sqlite3", "secret file was readable by others; made private") in warned
        assert (f"{data}/secrets/source-address.key", "secret file was readable by others; made private") in warned
        assert (f"{data}/certs/go.modes.test.pem",
                "certificate file with a private key is readable by others; make it 0600") in warned
        assert mode(f"{data}/edge.sqlite3") == 0o600 and mode(f"{data}/secrets/source-address.key") == 0o600
        assert mode(f"{data}/certs/go.modes.test.pem") == 0o644, "the operator's file is reported, not changed"
    finally:
        e.kill()
    findings = json.loads(cli(["check", "--json"], data).stdout)
    readable = {f["subject"] for f in findings if f["code"] == "secret_file_readable"}
    assert readable == {f"{data}/certs/go.modes.test.pem"}
