"""The Debian package under a real systemd: a throwaway Debian 12 root (mmdebstrap, with systemd)
booted by systemd-nspawn on a private network, never this machine's own /etc, /var/lib or systemd.
In order: the older build installed and serving with data, the upgrade to this build (the service
restarted, the schema migrated, a handoff acknowledged before it still resolves, the operator's
settings kept), the unit's hardening as the kernel sees it, reload = SIGHUP, a graceful stop,
remove (data kept), purge (data gone), and a fresh install that starts at once."""
import base64, hashlib, json, os, re, shutil, signal, subprocess, tempfile, time, uuid

import pytest

from conftest import OPS, run

DOMAIN = "go.ops.test"
FINGERPRINT = ":".join(["AB"] * 32)
# The SQLite schema this checkout's binary writes: the last step of Migrations.swift.
SCHEMA = max(int(v) for v in re.findall(
    r"Migration\(version: (\d+)",
    open(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "Sources/Store/Schema/Migrations.swift")).read()))
CATALOG = {
    "domains": [{"hostname": DOMAIN, "verified": True}],
    "mobileApps": [{"name": "Ops App", "domains": [DOMAIN],
                    "android": {"packageName": "com.example.ops", "sha256CertFingerprints": [FINGERPRINT]}}],
    "links": [{"domain": DOMAIN, "key": "invite", "url": "https://www.example.com/invite",
               "mobile": {"appName": "Ops App", "route": "/invite"}}],
}
ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/126.0 Mobile Safari/537.36")


class Machine:
    """A booted Debian root; `sh` runs a command inside it (all its namespaces) as root."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="biqli-ops-root-")
        run("tar", "-x", "-p", "--numeric-owner", "-f", os.path.join(OPS, "cache", "bookworm-systemd.tar"),
            "-C", self.root)
        self.name = "biqli-ops-" + uuid.uuid4().hex[:8]
        self.log = open(os.path.join(self.root + ".console.log"), "w")
        self.proc = subprocess.Popen(
            ["systemd-nspawn", "--boot", "--directory", self.root, "--machine", self.name, "--register=no",
             "--keep-unit", "--private-network", "--console=passive"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        self.leader = None
        while time.time() < deadline:
            children = run("pgrep", "-P", str(self.proc.pid), check=False).stdout.split()
            if children:
                self.leader = children[0]
                state = self.sh("systemctl is-system-running", check=False).stdout.strip()
                if state in ("running", "degraded"):
                    return
            time.sleep(0.3)
        raise AssertionError("the container did not boot: " + open(self.root + ".console.log").read()[-2000:])

    def sh(self, command, check=True, timeout=120):
        return run("nsenter", "-t", self.leader, "-a", "/bin/sh", "-c", command, check=check, timeout=timeout)

    def copy_in(self, path):
        os.makedirs(os.path.join(self.root, "root", "debs"), exist_ok=True)
        shutil.copy(path, os.path.join(self.root, "root", "debs"))
        return "/root/debs/" + os.path.basename(path)

    def write(self, path, text, mode=0o644):
        full = os.path.join(self.root, path.lstrip("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
        os.chmod(full, mode)

    def wait_active(self, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.sh("curl -sf -m 2 http://127.0.0.1/healthz", check=False).returncode == 0:
                return
            time.sleep(0.3)
        raise AssertionError(self.sh("systemctl status biqli-edge --no-pager; journalctl -u biqli-edge --no-pager "
                                     "| tail -30", check=False).stdout)

    def main_pid(self):
        return int(self.sh("systemctl show -p MainPID --value biqli-edge").stdout.strip())

    def journal(self):
        return self.sh("journalctl -u biqli-edge --no-pager -o cat").stdout

    def as_edge(self, command):
        return self.sh(f"runuser -u biqli-edge -- env BIQLI_EDGE_DATA_DIR=/var/lib/biqli-edge {command}")

    def stop(self):
        if self.leader:
            self.sh("systemctl poweroff", check=False)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()
        shutil.rmtree(self.root, ignore_errors=True)
        os.unlink(self.root + ".console.log")


@pytest.fixture(scope="module")
def machine():
    m = Machine()
    yield m
    m.stop()


def handoff_key(token):
    body = token[len("bqmh_"):]
    raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    return (raw[:6] + hashlib.sha256(token.encode()).digest()).hex()


def android_visit(m):
    out = m.sh(f"curl -sk -o /dev/null -w '%{{http_code}} %{{redirect_url}}' --resolve {DOMAIN}:443:127.0.0.1 "
               f"-A '{ANDROID}' https://{DOMAIN}/invite").stdout
    status, location = out.split(" ", 1)
    assert status == "302" and "play.google.com" in location, out
    referrer = re.search(r"referrer=([^&]+)", location).group(1)
    return re.search(r"biqli_token%3D(bqmh_[A-Za-z0-9_-]{43})", referrer).group(1)


def sqlite(m, sql):
    return m.sh(f"sqlite3 -readonly /var/lib/biqli-edge/edge.sqlite3 \"{sql}\"").stdout.strip()


STATE = {}


def test_the_older_build_installs_and_serves_as_an_unprivileged_service(machine, old_deb):
    m = machine
    # The older build (0.1.0) still needs a certificate it can read in its certificate directory.
    with tempfile.TemporaryDirectory() as tmp:
        run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-days", "30", "-subj", "/CN=localhost", "-addext", f"subjectAltName=DNS:localhost,DNS:{DOMAIN}",
            "-keyout", f"{tmp}/key.pem", "-out", f"{tmp}/cert.pem")
        cert = open(f"{tmp}/cert.pem").read() + open(f"{tmp}/key.pem").read()  # chain, then key
    m.write("/etc/biqli-edge/certs/default.pem", cert, 0o644)
    m.sh(f"dpkg -i {m.copy_in(old_deb)}")
    m.wait_active()
    assert m.sh("biqli-edge --version").stdout.strip() == "biqli-edge 0.1.0"
    assert m.sh("getent passwd biqli-edge").stdout.split(":")[6].strip() == "/usr/sbin/nologin"
    assert m.sh("stat -c '%a %U %G' /var/lib/biqli-edge").stdout.split() == ["700", "biqli-edge", "biqli-edge"]
    assert m.sh("stat -c '%a %U %G' /etc/biqli-edge/biqli-edge.env").stdout.split() == ["640", "root", "biqli-edge"]
    assert m.sh("systemctl is-enabled biqli-edge").stdout.strip() == "enabled"
    pid = m.main_pid()
    assert m.sh(f"ps -o user= -p {pid}").stdout.strip() == "biqli-edge"
    listening = m.sh("cat /proc/net/tcp").stdout
    assert ":0050 " in listening and ":01BB " in listening, "ports 80 and 443 without root"

    # Data in its store: a domain, an app, a link, then Android visits with durable handoffs.
    m.write("/srv/catalog.json", json.dumps(CATALOG))
    m.as_edge("biqli-edge apply /srv/catalog.json")
    STATE["secret"] = re.search(r"biqli_sk_[A-Za-z0-9_-]+", m.as_edge("biqli-edge keys create --name ops").stdout).group(0)
    time.sleep(1.5)  # the serving edge sees the CLI's commit within a second
    STATE["tokens"] = [android_visit(m) for _ in range(5)]
    assert sqlite(m, "PRAGMA user_version") == "6"
    STATE["clicks"] = int(sqlite(m, "SELECT count(*) FROM clicks"))
    STATE["pid"] = pid
    # The operator's own setting, which an upgrade must keep.
    m.sh("echo 'BIQLI_EDGE_NODE=ops-node' >> /etc/biqli-edge/biqli-edge.env && systemctl restart biqli-edge")
    m.wait_active()
    STATE["pid"] = m.main_pid()


def test_the_upgrade_restarts_the_service_migrates_the_store_and_keeps_data_and_settings(machine, new_deb):
    m = machine
    m.sh(f"dpkg -i {m.copy_in(new_deb)}")
    m.wait_active()
    version = m.sh("biqli-edge --version").stdout.strip()
    assert version != "biqli-edge 0.1.0"
    assert m.main_pid() != STATE["pid"], "postinst restarted the service on the new binary"
    assert sqlite(m, "PRAGMA user_version") == str(SCHEMA), "the new binary migrated the store at start-up"
    assert int(sqlite(m, "SELECT count(*) FROM clicks")) == STATE["clicks"]
    stored = set(sqlite(m, "SELECT hex(token_hash) FROM handoffs").lower().split())
    assert {handoff_key(t) for t in STATE["tokens"]} <= stored
    # The conffile: the operator's line is still there, and no copy was left beside it.
    env = m.sh("cat /etc/biqli-edge/biqli-edge.env").stdout
    assert "BIQLI_EDGE_NODE=ops-node" in env
    assert m.sh("ls /etc/biqli-edge").stdout.split() == ["biqli-edge.env", "certs"]
    metrics = m.sh("curl -s http://127.0.0.1/metrics").stdout
    assert re.search(r'biqli_node_info\{node="ops-node",version="[^"]+",backend="sqlite"\} 1', metrics), metrics[:500]

    # A handoff acknowledged by the older build resolves on the new one.
    rotated = json.loads(m.sh(
        f"curl -sk --resolve {DOMAIN}:443:127.0.0.1 -H 'Authorization: Bearer {STATE['secret']}' "
        f"https://{DOMAIN}/api/v1/mobile-apps").stdout)
    app_id = rotated["data"][0]["id"]
    key = json.loads(m.sh(
        f"curl -sk -X POST --resolve {DOMAIN}:443:127.0.0.1 -H 'Authorization: Bearer {STATE['secret']}' "
        f"https://{DOMAIN}/api/v1/mobile-apps/{app_id}/keys/rotate").stdout)
    publishable = re.search(r"biqli_mobile_pk_[A-Za-z0-9_-]+", json.dumps(key)).group(0)
    event = "open_" + uuid.uuid4().hex
    body = json.dumps({
        "eventId": event, "appId": app_id, "appInstanceId": "install_" + uuid.uuid4().hex,
        "platform": "android", "firstOpen": True, "probabilisticAllowed": False, "handoffToken": STATE["tokens"][0],
        "deepLink": None, "domain": None, "appVersion": "1.0", "osVersion": "14", "sdkVersion": "1.0.0",
        "occurredAt": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()), "attestation": None})
    m.write("/root/open.json", body)
    answer = json.loads(m.sh(
        f"curl -sk --resolve {DOMAIN}:443:127.0.0.1 -H 'Authorization: Bearer {publishable}' "
        f"-H 'Content-Type: application/json' -H 'Accept: application/json' -H 'X-Biq-SDK: android' "
        f"-H 'X-Biq-SDK-Version: 1.0.0' -H 'X-Biq-Request-Id: req_{uuid.uuid4().hex}' -H 'Idempotency-Key: {event}' "
        f"--data @/root/open.json https://{DOMAIN}/api/v1/track/open").stdout)
    assert answer.get("open", {}).get("matchedBy") == "exact_install_referrer", answer


def test_the_unit_verifies_and_its_hardening_holds_in_the_running_process(machine):
    m = machine
    verify = m.sh("systemd-analyze verify --man=no biqli-edge.service 2>&1", check=False)
    assert verify.returncode == 0 and verify.stdout.strip() == "", verify.stdout
    pid = m.main_pid()
    status = m.sh(f"cat /proc/{pid}/status").stdout
    fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
    assert int(fields["CapEff"].strip(), 16) == 1 << 10, "CAP_NET_BIND_SERVICE alone"
    assert int(fields["CapBnd"].strip(), 16) == 1 << 10
    assert fields["NoNewPrivs"].strip() == "1" and fields["Seccomp"].strip() == "2"
    assert m.sh(f"cat /proc/{pid}/limits | grep 'open files'").stdout.split()[3] == "16384"
    # ProtectSystem=strict: the edge's view of the file system is read-only but for its data.
    ns = f"nsenter -t {pid} -m -U --preserve-credentials -S follow -G follow"
    assert m.sh(f"nsenter -t {pid} -m touch /etc/biqli-probe", check=False).returncode != 0
    assert m.sh(f"nsenter -t {pid} -m touch /usr/biqli-probe", check=False).returncode != 0
    assert m.sh(f"nsenter -t {pid} -m sh -c 'touch /var/lib/biqli-edge/.probe && rm /var/lib/biqli-edge/.probe'",
                check=False).returncode == 0
    assert m.sh(f"nsenter -t {pid} -m ls /home", check=False).stdout.strip() == ""
    del ns


def test_reload_sends_sighup_which_reloads_the_certificates(machine):
    m = machine
    pid = m.main_pid()
    before = m.journal().count('"certificates reloaded"')
    m.sh("systemctl reload biqli-edge")
    deadline = time.time() + 10
    while m.journal().count('"certificates reloaded"') == before and time.time() < deadline:
        time.sleep(0.2)
    assert m.journal().count('"certificates reloaded"') == before + 1
    assert m.main_pid() == pid, "a reload is not a restart"


def test_the_readmes_backup_and_restore_as_root_beside_the_service(machine):
    """README, "Backups": a backup taken as root while the service runs, then the restore
    into an emptied data directory; the service starts on the restored files, which are its own."""
    m = machine
    handoffs = sqlite(m, "SELECT count(*) FROM handoffs")
    m.sh("BIQLI_EDGE_DATA_DIR=/var/lib/biqli-edge biqli-edge backup --to /root/edge.tar")
    m.sh("curl -sf -m 2 http://127.0.0.1/healthz")  # the service kept serving, and its files are its own
    assert m.sh("find /var/lib/biqli-edge ! -user biqli-edge").stdout.strip() == ""
    m.sh("systemctl stop biqli-edge && mv /var/lib/biqli-edge /var/lib/biqli-edge.old "
         "&& install -d -o biqli-edge -g biqli-edge -m 0700 /var/lib/biqli-edge")
    m.sh("BIQLI_EDGE_DATA_DIR=/var/lib/biqli-edge biqli-edge restore --from /root/edge.tar")
    assert m.sh("find /var/lib/biqli-edge ! -user biqli-edge").stdout.strip() == ""
    m.sh("systemctl start biqli-edge")
    m.wait_active()
    assert sqlite(m, "SELECT count(*) FROM handoffs") == handoffs
    android_visit(m)  # and it writes
    m.sh("rm -rf /var/lib/biqli-edge.old /root/edge.tar")


def test_stop_is_graceful_and_restart_on_failure_brings_it_back(machine):
    m = machine
    pid = m.main_pid()
    m.sh(f"kill -KILL {pid}")  # a crash: Restart=on-failure
    deadline = time.time() + 15
    while time.time() < deadline and m.sh("systemctl show -p MainPID --value biqli-edge").stdout.strip() in (
            "0", str(pid)):
        time.sleep(0.3)
    m.wait_active()
    started = time.time()
    m.sh("systemctl stop biqli-edge")
    assert time.time() - started < 10
    journal = m.journal()
    assert '"msg":"shutting down","node":"ops-node","signal":15' in journal and '"msg":"stopped"' in journal
    assert m.sh("systemctl show -p ExecMainStatus --value biqli-edge").stdout.strip() == "0"


def test_remove_keeps_the_data_and_purge_deletes_it(machine, new_deb):
    m = machine
    m.sh("systemctl start biqli-edge")
    m.wait_active()
    m.sh("dpkg --remove biqli-edge")
    assert m.sh("systemctl is-active biqli-edge", check=False).stdout.strip() in ("inactive", "unknown")
    assert m.sh("test -f /var/lib/biqli-edge/edge.sqlite3", check=False).returncode == 0
    assert m.sh("test -f /etc/biqli-edge/biqli-edge.env", check=False).returncode == 0
    m.sh("dpkg --purge biqli-edge")
    for path in ("/var/lib/biqli-edge", "/etc/biqli-edge"):
        assert m.sh(f"test -e {path}", check=False).returncode != 0, path
    assert m.sh("dpkg-statoverride --list | grep biqli", check=False).stdout == ""

    # A fresh install starts at once, with an empty certificate directory it may not write.
    m.sh(f"dpkg -i {m.copy_in(new_deb)}")
    m.wait_active()
    assert "read-only to the edge" in m.journal()
    assert m.sh("ls -A /etc/biqli-edge/certs").stdout.strip() == ""
