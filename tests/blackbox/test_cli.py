"""Black-box tests of the CLI (issue 4): `keys`, `apply`, `check`, `--help` everywhere, exit codes
(0 ok, 1 failure, 2 usage), and `apply` and `keys` against the data directory of a running `serve`."""
import json, os, re, socket, tempfile, time

import pytest
from edge import Edge, make_cert, request
from management_api import FINGERPRINT, Api, cli, new_key

SK = re.compile(r"^biqli_sk_[A-Za-z0-9_-]{43}$")
PK = re.compile(r"biqli_mobile_pk_[A-Za-z0-9_-]{64}")


@pytest.fixture
def data():
    return tempfile.mkdtemp(prefix="edge-cli-")


def write(path, value):
    with open(path, "w") as f:
        f.write(value if isinstance(value, str) else json.dumps(value))
    return path


CATALOG = {
    "domains": [{"hostname": "go.cli.test", "verified": True}, {"hostname": "web.cli.test"}],
    "mobileApps": [{"name": "CLI App", "domains": ["go.cli.test"],
                    "ios": {"teamId": "ABCDE12345", "bundleId": "com.example.cli", "appStoreId": "1234567890"},
                    "android": {"packageName": "com.example.cli", "sha256CertFingerprints": [FINGERPRINT.lower()]}}],
    "links": [
        {"domain": "go.cli.test", "key": "invite", "url": "https://www.example.com/invite",
         "mobile": {"appName": "CLI App", "route": "/invite", "metadata": {"campaign": "cli"}}},
        {"domain": "web.cli.test", "key": "docs", "url": "https://www.example.com/docs"},
    ],
}


# ---------------------------------------------------------------- help and usage

HELP = [["--help"], ["-h"], ["help"], ["serve", "--help"], ["keys", "--help"], ["keys", "help"],
        ["keys", "create", "--help"], ["keys", "list", "--help"], ["keys", "revoke", "--help"], ["apply", "--help"],
        ["check", "--help"], ["check", "-h"], ["apply", "x.json", "--help"], ["migrate-store", "--help"], ["nodes", "--help"]]


@pytest.mark.parametrize("args", HELP, ids=" ".join)
def test_every_command_has_help_with_examples(data, args):
    out = cli(args, data)
    assert out.returncode == 0, out.stderr
    assert "Usage:" in out.stdout and "Examples:" in out.stdout
    assert "biqli-edge" in out.stdout.split("Examples:")[1]


USAGE = [[], ["frobnicate"], ["keys"], ["keys", "frob"], ["keys", "create"], ["keys", "create", "--name"],
         ["keys", "create", "--name", ""], ["keys", "create", "--name", "x" * 65], ["keys", "create", "--name", "a\nb"],
         ["keys", "create", "--name", "a", "extra"], ["keys", "create", "--nme", "a"], ["keys", "list", "extra"],
         ["keys", "list", "--bogus"], ["keys", "revoke"], ["keys", "revoke", "a", "b"], ["apply"],
         ["apply", "a.json", "b.json"], ["apply", "--bogus", "a.json"], ["check", "extra"], ["check", "--bogus"],
         ["serve", "--bogus"], ["serve", "extra"], ["migrate-store"], ["migrate-store", "--to"],
         ["migrate-store", "--to", ""], ["migrate-store", "extra", "--to", "host=db"], ["migrate-store", "--bogus"],
         ["migrate-store", "--to", "postgresql://u:pw@db/x?bogus=1"], ["nodes", "extra"], ["nodes", "--bogus"],
         ["nodes", "--config"], ["nodes", "--json=yes"]]


@pytest.mark.parametrize("args", USAGE, ids=lambda a: " ".join(a) or "(none)")
def test_usage_errors_exit_2_with_a_message(data, args):
    out = cli(args, data)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert out.stderr.strip() and out.stdout == ""


@pytest.mark.parametrize("args", [["keys", "create", "--name", "x"], ["keys", "list"], ["apply", "f.json"]])
def test_a_bad_setting_is_a_usage_error_naming_it(data, args):
    out = cli(args, data, env={"BIQLI_EDGE_LOOPS": "0"})
    assert out.returncode == 2 and "BIQLI_EDGE_LOOPS" in out.stderr


@pytest.mark.parametrize("args", [["serve"], ["nodes"], ["keys", "list"]])
@pytest.mark.parametrize("name", ["", "has space", "x" * 65, "a/b", "ünï"])
def test_a_bad_node_name_is_a_usage_error_naming_it(data, args, name):
    out = cli(args, data, env={"BIQLI_EDGE_NODE": name})
    assert out.returncode == 2 and out.stderr.startswith("biqli-edge") and "BIQLI_EDGE_NODE" in out.stderr, out


def test_the_node_name_defaults_to_the_host_name_in_every_log_line(data):
    e = Edge(data_dir=data, env={"BIQLI_EDGE_NODE": None})
    try:
        request(e.http_port, "/healthz")
        status, _, body = request(e.http_port, "/metrics")
    finally:
        e.stop()
    host = re.sub(r"[^A-Za-z0-9._-]", "-", socket.gethostname())[:64] or "edge"
    entries = e.log_entries()
    assert entries and all(x.get("node") == host for x in entries), entries
    assert "request" in {x["msg"] for x in entries}
    assert f'biqli_node_info{{node="{host}",' in body.decode()


@pytest.mark.sqlite_only
def test_nodes_on_sqlite_says_there_is_one_node(data):
    out = cli(["nodes"], data, env={"BIQLI_EDGE_NODE": "solo"})
    assert out.returncode == 0 and "SQLite: one node" in out.stdout and data in out.stdout and "solo" in out.stdout
    out = cli(["nodes", "--json", "--all"], data)
    assert out.returncode == 0 and out.stdout.strip() == "[]" and "PostgreSQL" in out.stderr


@pytest.mark.sqlite_only
def test_the_config_file_is_read_like_serve_reads_it(data):
    other = tempfile.mkdtemp(prefix="edge-cli-other-")
    config = write(f"{data}/edge.json", {"dataDir": other})
    out = cli(["keys", "create", "--name", "from-file", "--config", config], data, env={"BIQLI_EDGE_DATA_DIR": ""})
    assert out.returncode == 2  # the environment wins, and an empty data directory is refused
    env = {"PATH": os.environ["PATH"]}
    import subprocess
    from edge import BINARY
    out = subprocess.run([BINARY, "keys", "create", "--name", "from-file", "--config", config], env=env,
                         capture_output=True, text=True, cwd=data)
    assert out.returncode == 0 and os.path.exists(f"{other}/edge.sqlite3")
    assert "from-file" in cli(["keys", "list"], other).stdout


# ---------------------------------------------------------------- keys


def test_keys_create_prints_the_key_alone_on_one_line(data):
    out = cli(["keys", "create", "--name", "ci"], data)
    assert out.returncode == 0 and out.stderr == ""
    assert out.stdout.endswith("\n") and out.stdout.count("\n") == 1 and SK.match(out.stdout.strip())


def test_keys_list_shows_names_and_hints_but_never_the_keys(data):
    a = new_key(data, "first key")
    b = new_key(data, "second")
    out = cli(["keys", "list"], data)
    assert out.returncode == 0
    assert a not in out.stdout and b not in out.stdout
    lines = out.stdout.strip().splitlines()
    assert lines[0].split() == ["ID", "TYPE", "NAME", "HINT", "SCOPES", "CREATED", "REVOKED"]
    assert " secret " in lines[1]
    assert "first key" in lines[1] and "..." + a[-4:] in lines[1] and lines[1].rstrip().endswith("-")
    assert " all " in lines[1], "a key made without --scope holds every power"
    listed = json.loads(cli(["keys", "list", "--json"], data).stdout)
    assert [k["name"] for k in listed] == ["first key", "second"]
    assert all(set(k) == {"id", "type", "name", "hint", "scopes", "createdAt", "revokedAt"} for k in listed)
    assert all(k["type"] == "secret" for k in listed)
    assert all(k["scopes"] is None for k in listed)
    assert listed[0]["hint"] == a[-4:] and listed[0]["revokedAt"] is None and listed[0]["id"].startswith("sk_")


def test_keys_list_on_an_empty_store_says_how_to_make_one(data):
    out = cli(["keys", "list"], data)
    assert out.returncode == 0 and "keys create" in out.stdout


def test_keys_revoke(data):
    new_key(data, "r")
    key_id = json.loads(cli(["keys", "list", "--json"], data).stdout)[0]["id"]
    out = cli(["keys", "revoke", key_id], data)
    assert out.returncode == 0 and "revoked" in out.stdout
    assert json.loads(cli(["keys", "list", "--json"], data).stdout)[0]["revokedAt"]
    again = cli(["keys", "revoke", key_id], data)
    assert again.returncode == 0 and "already revoked" in again.stdout
    missing = cli(["keys", "revoke", "sk_nope"], data)
    assert missing.returncode == 1 and "sk_nope" in missing.stderr


# ---------------------------------------------------------------- apply


def test_apply_creates_then_changes_nothing_the_second_time(data):
    path = write(f"{data}/catalog.json", CATALOG)
    first = cli(["apply", path], data)
    assert first.returncode == 0, first.stderr
    assert "domains     2 created, 0 updated, 0 unchanged" in first.stdout
    assert "mobile apps 1 created, 0 updated, 0 unchanged" in first.stdout
    assert "links       2 created, 0 updated, 0 unchanged" in first.stdout
    assert "created link go.cli.test/invite" in first.stdout
    assert len(PK.findall(first.stdout)) == 1
    second = cli(["apply", path], data)
    assert second.returncode == 0
    assert "Nothing to change" in second.stdout and "5 object(s)" in second.stdout
    assert "links       0 created, 0 updated, 2 unchanged" in second.stdout
    assert not PK.findall(second.stdout)


def test_apply_updates_what_changed_and_only_that(data):
    path = write(f"{data}/catalog.json", CATALOG)
    assert cli(["apply", path], data).returncode == 0
    changed = json.loads(json.dumps(CATALOG))
    changed["links"][0]["url"] = "https://www.example.com/v2"
    changed["mobileApps"][0]["ios"]["appStoreId"] = "42"
    out = cli(["apply", write(f"{data}/changed.json", changed)], data)
    assert out.returncode == 0, out.stderr
    assert "updated link go.cli.test/invite" in out.stdout and "updated Mobile App CLI App" in out.stdout
    assert "links       0 created, 1 updated, 1 unchanged" in out.stdout
    assert "domains     0 created, 0 updated, 2 unchanged" in out.stdout


def test_apply_declares_tags_that_its_links_name(data):
    catalog = json.loads(json.dumps(CATALOG))
    catalog["tags"] = [{"name": "Spring", "color": "green"}]
    catalog["links"][1]["tagNames"] = ["spring"]
    path = write(f"{data}/tags.json", catalog)
    first = cli(["apply", path], data)
    assert first.returncode == 0, first.stderr
    assert "tags        1 created, 0 updated, 0 unchanged" in first.stdout
    assert re.search(r"created tag Spring \(biq_tag_[0-9A-Z]{26}\)", first.stdout)
    second = cli(["apply", path], data)
    assert "Nothing to change" in second.stdout and "6 object(s)" in second.stdout
    catalog["links"][1]["tagNames"] = ["Spring", "autumn"]
    out = cli(["apply", write(f"{data}/unknown.json", catalog)], data)
    assert out.returncode == 1 and "links[1].tagNames[1]: names no tag (autumn)" in out.stderr, out.stderr


def test_apply_dry_run_writes_nothing(data):
    path = write(f"{data}/catalog.json", CATALOG)
    out = cli(["apply", "--dry-run", path], data)
    assert out.returncode == 0 and "Dry run: nothing was written." in out.stdout
    assert "would have created link go.cli.test/invite" in out.stdout and not PK.findall(out.stdout)
    assert "2 created" in cli(["apply", path], data).stdout


def test_apply_refuses_a_broken_file_whole_and_names_each_problem(data):
    broken = json.loads(json.dumps(CATALOG))
    broken["links"][0]["mobile"]["route"] = "no-slash"
    broken["links"][1]["url"] = "javascript:alert(1)"
    broken["mobileApps"][0]["ios"]["teamId"] = "bad"
    broken["extra"] = []
    out = cli(["apply", write(f"{data}/broken.json", broken)], data)
    assert out.returncode == 1 and out.stdout == ""
    for needle in ["extra: is not a known section", "mobileApps[0].ios.teamId:", "links[0].mobile.route: must start with /",
                   "links[1].url: uses the javascript: scheme", "nothing was changed"]:
        assert needle in out.stderr, (needle, out.stderr)
    # Nothing of the valid entries was written either.
    assert "5 created" not in cli(["apply", write(f"{data}/ok.json", CATALOG)], data).stdout
    assert "domains     2 created" in cli(["apply", "--dry-run", write(f"{data}/ok2.json", {"domains": CATALOG["domains"]})],
                                          tempfile.mkdtemp()).stdout


@pytest.mark.parametrize("content,needle", [
    ("{", "not valid JSON"), ("[]", "must hold a JSON object"), ('{"domains": {}}', "domains: must be an array"),
    ('{"links": [{"domain": "go.cli.test", "url": "https://x.com/"}]}', "links[0].key: is required here"),
    ('{"links": [{"domain": "absent.cli.test", "key": "k", "url": "https://x.com/"}]}', "links[0].domain: names no domain"),
    ('{"links": [{"domain": "go.cli.test", "key": "k", "url": "https://x.com/", "mobile": {"appName": "Nope", "route": "/"}}],'
     ' "domains": [{"hostname": "go.cli.test"}]}', "links[0].mobile.appName: names no Mobile App"),
    ('{"mobileApps": [{"id": "biq_mapp_bad", "name": "X", "android": {"packageName": "com.x.y"}}]}', "mobileApps[0].id"),
])
def test_apply_reports_file_problems_with_exit_1(data, content, needle):
    out = cli(["apply", write(f"{data}/f.json", content)], data)
    assert out.returncode == 1 and needle in out.stderr, out.stderr


def test_apply_of_a_missing_file_exits_1(data):
    out = cli(["apply", f"{data}/absent.json"], data)
    assert out.returncode == 1 and "cannot read" in out.stderr


def test_apply_reads_standard_input(data):
    out = cli(["apply", "-"], data, stdin=json.dumps({"domains": [{"hostname": "stdin.cli.test"}]}))
    assert out.returncode == 0 and "created domain stdin.cli.test" in out.stdout


def test_apply_identifies_apps_by_id_or_name(data):
    app_id = "biq_mapp_01JC0APP00000000000000000A"
    doc = {"mobileApps": [{"id": app_id, "name": "Pinned", "android": {"packageName": "com.example.pinned"}},
                          {"name": "Named", "android": {"packageName": "com.example.named"}}]}
    assert cli(["apply", write(f"{data}/a.json", doc)], data).returncode == 0
    doc["mobileApps"][0]["name"] = "Pinned renamed"
    doc["mobileApps"][1]["enabled"] = False
    out = cli(["apply", write(f"{data}/b.json", doc)], data)
    assert out.returncode == 0 and f"updated Mobile App Pinned renamed ({app_id})" in out.stdout
    assert "mobile apps 0 created, 2 updated" in out.stdout
    twins = {"mobileApps": [{"name": "Twin", "android": {"packageName": "com.example.twin1"}},
                            {"name": "Twin", "android": {"packageName": "com.example.twin2"}}]}
    out = cli(["apply", write(f"{data}/c.json", twins)], data)
    assert out.returncode == 1 and "mobileApps[1].name" in out.stderr


def test_apply_while_serve_runs_is_seen_within_two_seconds(data):
    key = new_key(data)
    edge = Edge(env={"BIQLI_EDGE_HTTPS_REDIRECT": "off"}, data_dir=data)
    try:
        api = Api(edge, key)
        path = write(f"{data}/catalog.json", CATALOG)
        assert request(edge.http_port, "/invite", host="go.cli.test")[0] == 404  # caches the miss
        started = time.time()
        assert cli(["apply", path], data).returncode == 0
        seen = None
        while time.time() - started < 5:
            status, headers, _ = request(edge.http_port, "/invite", host="go.cli.test",
                                         headers={"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"})
            if status == 302:
                seen = time.time() - started
                assert headers["location"] == "https://www.example.com/invite"
                break
            time.sleep(0.05)
        assert seen is not None and seen < 2.0, seen
        assert api.get("/api/v1/domains/go.cli.test").status == 200
        status, _, body = request(edge.http_port, "/.well-known/assetlinks.json", host="go.cli.test")
        assert status == 200 and b"com.example.cli" in body
        # A change made by apply replaces what the edge cached.
        changed = json.loads(json.dumps(CATALOG))
        changed["links"][0]["url"] = "https://www.example.com/changed"
        started = time.time()
        assert cli(["apply", write(f"{data}/changed.json", changed)], data).returncode == 0
        while time.time() - started < 5:
            location = request(edge.http_port, "/invite", host="go.cli.test",
                               headers={"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"})[1].get("location")
            if location == "https://www.example.com/changed":
                break
            time.sleep(0.05)
        assert time.time() - started < 2.0
    finally:
        edge.kill()


# ---------------------------------------------------------------- check


def check(data, *args, env=None):
    out = cli(["check", *args], data, env=env)
    return out


@pytest.mark.sqlite_only
def test_check_on_a_fresh_directory_warns_but_passes(data):
    out = check(data)
    assert out.returncode == 0, out.stdout
    assert "store_missing" not in out.stdout  # text mode shows messages, not codes
    assert "There is no database" in out.stdout and "BIQLI_EDGE_PUBLIC_URL" in out.stdout
    assert out.stdout.strip().splitlines()[-1].startswith("check: 0 error(s)")


def test_check_reports_a_domain_without_certificate_with_the_fix(data):
    assert cli(["apply", write(f"{data}/c.json", CATALOG)], data).returncode == 0
    out = check(data)
    assert out.returncode == 1
    assert "error   go.cli.test: No valid, unexpired certificate covers go.cli.test" in out.stdout
    assert "fix: Put go.cli.test.pem" in out.stdout
    findings = json.loads(check(data, "--json").stdout)
    codes = {(f["code"], f["subject"]) for f in findings if f["severity"] == "error"}
    assert ("certificate_missing", "go.cli.test") in codes and ("certificate_missing", "web.cli.test") in codes
    assert all(f["fix"] for f in findings if f["severity"] != "ok")


def test_check_passes_with_certificates_and_warns_about_an_expiring_one(data):
    assert cli(["apply", write(f"{data}/c.json", CATALOG)], data).returncode == 0
    os.makedirs(f"{data}/certs", exist_ok=True)
    make_cert(f"{data}/certs/go.cli.test.pem", ["go.cli.test"], days=90)
    make_cert(f"{data}/certs/web.cli.test.pem", ["web.cli.test"], days=5)
    new_key(data)
    out = check(data, env={"BIQLI_EDGE_PUBLIC_URL": "https://edge.cli.test"})
    findings = json.loads(check(data, "--json", env={"BIQLI_EDGE_PUBLIC_URL": "https://edge.cli.test"}).stdout)
    problems = [(f["severity"], f["code"], f["subject"]) for f in findings if f["severity"] != "ok"]
    assert ("warning", "certificate_expiring", "web.cli.test") in problems
    # web.cli.test has no app attached: a warning, not an error.
    assert ("warning", "domain_no_app", "web.cli.test") in problems
    assert not [p for p in problems if p[0] == "error"], problems
    assert out.returncode == 0, out.stdout


def test_check_reports_association_problems(data):
    doc = json.loads(json.dumps(CATALOG))
    doc["domains"][0]["verified"] = False
    doc["mobileApps"][0]["android"]["sha256CertFingerprints"] = []
    assert cli(["apply", write(f"{data}/c.json", doc)], data).returncode == 0
    os.makedirs(f"{data}/certs", exist_ok=True)
    make_cert(f"{data}/certs/go.cli.test.pem", ["go.cli.test", "web.cli.test"], days=90)
    out = check(data, "--json")
    assert out.returncode == 1
    codes = {f["code"] for f in json.loads(out.stdout) if f["severity"] == "error"}
    assert {"domain_unverified", "android_no_fingerprints"} <= codes, codes


def test_check_reports_an_invalid_configuration_and_an_unusable_certificate(data):
    out = check(data, env={"BIQLI_EDGE_LOG": "loud"})
    assert out.returncode == 1 and "BIQLI_EDGE_LOG" in out.stdout and "fix:" in out.stdout
    os.makedirs(f"{data}/certs", exist_ok=True)
    write(f"{data}/certs/broken.pem", "not a certificate")
    out = check(data, "--json")
    assert out.returncode == 1
    assert any(f["code"] == "certificate_unusable" for f in json.loads(out.stdout))
    out = check(data, env={"BIQLI_EDGE_HTTP_ADDR": "", "BIQLI_EDGE_HTTPS_ADDR": ""})
    assert out.returncode == 1 and "nothing would listen" in out.stdout


def test_check_reads_the_config_file(data):
    other = tempfile.mkdtemp(prefix="edge-cli-conf-")
    config = write(f"{data}/edge.json", {"dataDir": other, "publicUrl": "https://edge.cli.test"})
    import subprocess
    from edge import BINARY
    out = subprocess.run([BINARY, "check", "--config", config], env={"PATH": os.environ["PATH"]},
                         capture_output=True, text=True, cwd=data)
    assert out.returncode == 0 and f"data {other}" in out.stdout and "PUBLIC_URL" not in out.stdout
    out = subprocess.run([BINARY, "check", "--config", f"{data}/absent.json"], env={"PATH": os.environ["PATH"]},
                         capture_output=True, text=True, cwd=data)
    assert out.returncode == 1 and "absent.json" in out.stdout


def test_a_second_serve_on_the_same_data_directory_stops_at_once(data):
    first = Edge(data_dir=data)
    try:
        assert open(os.path.join(data, "serve.lock")).read().strip() == str(first.proc.pid)
        second = Edge(data_dir=data, wait=False)
        assert second.proc.wait(timeout=20) == 1
        time.sleep(0.1)
        message = " ".join(second.stderr_lines)
        assert "another biqli-edge serve" in message and "serve.lock" in message, second.stderr_lines
        assert request(first.http_port, "/healthz")[0] == 200  # the first one is untouched
        # The CLI writes beside a running edge: it does not take the lock.
        assert cli(["keys", "create", "--name", "beside"], data).returncode == 0
    finally:
        first.kill()  # SIGKILL: the kernel drops the lock with the process
    again = Edge(data_dir=data)
    try:
        assert request(again.http_port, "/healthz")[0] == 200
    finally:
        again.stop()


def test_the_demo_banner_goes_to_stderr_and_stdout_stays_json_lines(data):
    # Issue 14, item 10: the banner (with the keys) used to sit in the JSON log stream.
    e = Edge(args=("serve", "--demo"), data_dir=data)
    try:
        deadline = time.time() + 10
        while "Demo workspace secret key" not in "\n".join(e.stderr_lines):
            assert time.time() < deadline, e.stderr_lines
            time.sleep(0.05)
        request(e.http_port, "/healthz")
        time.sleep(0.3)
        assert e.lines, "the log has lines"
        for line in e.lines:
            json.loads(line)  # every stdout line is one JSON object
        assert not any("biqli_sk_" in line for line in e.lines)
    finally:
        e.kill()


def test_the_sdk_settings_are_printed_and_a_public_url_the_sdks_refuse_is_warned_about(data):
    """Issue 23 item 10: the official Android SDK refuses an API base URL on any port but 443,
    so the edge's defaults (https://localhost:8443) cannot be given to it: the demo banner prints
    what to give the SDKs and why that URL will not do, and `check` and the start-up log warn."""
    e = Edge(args=("serve", "--demo"), data_dir=data)
    try:
        deadline = time.time() + 10
        while "Official SDKs" not in "\n".join(e.stderr_lines) or "Operator console" not in "\n".join(e.stderr_lines):
            assert time.time() < deadline, e.stderr_lines
            time.sleep(0.05)
        banner = "\n".join(e.stderr_lines)
        assert "appId:           biq_mapp_01JDEM0APP00000000000000AA" in banner, banner
        assert re.search(r"publishableKey:  biqli_mobile_pk_[A-Za-z0-9_-]{64}\n", banner), banner
        assert "apiBaseURL:      https://localhost:8443/api/v1" in banner
        assert "applinks:go.example.test" in banner
        assert "Not usable as it is: its port is 8443 (the Android SDK takes only 443" in banner
        warned = [x for x in e.log_entries() if x.get("msg", "").startswith("the official SDKs cannot use")]
        assert warned and warned[0]["level"] == "warn" and warned[0]["publicUrl"] == "https://localhost:8443", warned
    finally:
        e.kill()
    findings = json.loads(check(data, "--json").stdout)
    sdk = [f for f in findings if f["code"] == "public_url_not_for_sdks"]
    assert len(sdk) == 1 and sdk[0]["severity"] == "warning" and "443" in sdk[0]["fix"], sdk
    for url, warns in (("https://go.example.com", False), ("https://go.example.com:443", False),
                       ("http://go.example.com", True), ("https://go.example.com:8443", True)):
        findings = json.loads(check(data, "--json", env={"BIQLI_EDGE_PUBLIC_URL": url}).stdout)
        assert any(f["code"] == "public_url_not_for_sdks" for f in findings) == warns, (url, findings)
    # On 443 the banner gives the URL without the warning, and the start-up log is quiet.
    e = Edge(args=("serve", "--demo"), data_dir=tempfile.mkdtemp(prefix="edge-cli-"),
             env={"BIQLI_EDGE_PUBLIC_URL": "https://go.example.com"})
    try:
        deadline = time.time() + 10
        while "Operator console" not in "\n".join(e.stderr_lines):
            assert time.time() < deadline, e.stderr_lines
            time.sleep(0.05)
        banner = "\n".join(e.stderr_lines)
        assert "apiBaseURL:      https://go.example.com/api/v1" in banner and "Not usable" not in banner, banner
        assert not any(x.get("msg", "").startswith("the official SDKs cannot use") for x in e.log_entries())
    finally:
        e.kill()
