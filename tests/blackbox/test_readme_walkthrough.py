"""The README's first command, walked through: `scripts/demo` runs `biqli-edge serve --demo` in
the working directory with no file and no flag; it must print the demo keys and curl commands
that all work when pasted into a shell. The binary is run directly (the script only builds it
first), with the listeners on free loopback ports instead of 8080/8443, which may be taken."""
import pytest
import json, os, queue, re, shlex, signal, subprocess, tempfile, threading, time

from edge import BINARY, ROOT

pytestmark = pytest.mark.sqlite_only

HANDOFF = r"https://go\.example\.test(:\d+)?/m/handoff\?biqli_token=bqmh_[A-Za-z0-9_-]{43}"


def readme_demo_args():
    """The README's first command is scripts/demo, which execs the binary with `serve --demo`."""
    readme = open(os.path.join(ROOT, "README.md")).read()
    first_block = re.search(r"```sh\n(.*?)```", readme, re.S).group(1).strip()
    assert first_block == "scripts/demo", first_block
    script = open(os.path.join(ROOT, "scripts", "demo")).read()
    exec_line = [l for l in script.splitlines() if l.startswith("exec ")][0]
    words = shlex.split(exec_line)[1:]
    assert words[0] == ".build/release/biqli-edge" and words[-1] == "$@", exec_line
    return words[1:-1]


class Demo:
    def __init__(self, cwd, env=None):
        self.lines, self.events = [], queue.Queue()
        full_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "BIQLI_EDGE_HTTP_ADDR": "127.0.0.1:0",
                    "BIQLI_EDGE_HTTPS_ADDR": "127.0.0.1:0", "BIQLI_EDGE_CONSOLE_ADDR": "127.0.0.1:0",
                    "BIQLI_EDGE_LOOPS": "2", **(env or {})}
        self.proc = subprocess.Popen([BINARY, *readme_demo_args()], cwd=cwd, env=full_env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.lines.append(line)
            self.events.put(line)

    def banner(self, timeout=20):
        """The text after `== biqli-edge demo ==`, once the last command of it has arrived."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            text = "\n".join(self.lines)
            if "== biqli-edge demo ==" in text and "http://127.0.0.1:" in text.split("== biqli-edge demo ==")[1]:
                time.sleep(0.1)
                return "\n".join(self.lines).split("== biqli-edge demo ==")[1]
            if self.proc.poll() is not None:
                raise AssertionError(f"the demo exited {self.proc.returncode}: {self.lines}")
            time.sleep(0.05)
        raise AssertionError(f"no banner: {self.lines}")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def commands(banner):
    """(comment, command) for every curl line, the comment being the `#` line above it."""
    out, comment = [], ""
    for line in banner.splitlines():
        if line.startswith("# "):
            comment = line[2:]
        elif line.startswith("curl "):
            out.append((comment, line))
    return out


def run(command, cwd, env=None):
    result = subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True, timeout=30,
                            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **(env or {})})
    assert result.returncode == 0, (command, result.stdout, result.stderr)
    return result.stdout


def check_output(comment, command, output):
    """What each printed command must show."""
    if comment.startswith("Android visit"):
        assert re.fullmatch(r"302 https://play\.google\.com/store/apps/details\?id=com\.example\.demo"
                            r"&referrer=biqli_token%3Dbqmh_[A-Za-z0-9_-]{43}\n", output), output
    elif comment.startswith("iOS visit"):
        assert re.fullmatch(HANDOFF + r"\n", output), output
    elif comment.startswith("Desktop visit"):
        assert output == "302 https://www.example.com/invite\n", output
    elif comment.startswith("Link-preview bot"):
        assert 'property="og:title" content="Join me on Biqli Demo"' in output, output
        assert "og:image" in output and "bqmh_" not in output
    elif comment.startswith("Association files") and "apple-app-site-association" in command:
        aasa = json.loads(output)
        assert "ABCDE12345.com.example.demo" in json.dumps(aasa["applinks"]), aasa
    elif comment.startswith("Association files"):
        links = json.loads(output)
        assert links[0]["target"]["package_name"] == "com.example.demo", links
    elif comment.startswith("Resolver"):
        body = json.loads(output)
        assert body["open"]["matchedBy"] == "exact_app_link", body
        assert body["link"]["route"] == "/invite/accepted" and body["attribution"]["referralCode"] == "PARTNER_42"
        assert body["attribution"]["dynamic"] == {"ref": "BOB"}
    elif comment.startswith("Workspace API"):
        listed = json.loads(output)
        assert {l["key"] for l in listed["data"]} >= {"invite", "promo", "docs"} and listed["nextCursor"] is None
    elif comment.startswith("Plain HTTP"):
        assert re.fullmatch(r"308 https://go\.example\.test:\d+/invite\n", output), output
    else:
        raise AssertionError(f"a printed command this test does not know: {comment}: {command}")
    return comment.split(":")[0]


def test_the_readme_demo_prints_keys_and_curl_commands_that_all_work():
    cwd = tempfile.mkdtemp(prefix="readme-demo-")
    demo = Demo(cwd)
    try:
        banner = demo.banner()
        sk = re.search(r"Demo workspace secret key \(shown once\):\s+(biqli_sk_[A-Za-z0-9_-]{43})\n", banner)
        pk = re.search(r"Demo app publishable key \(shown once\):\s+(biqli_mobile_pk_[A-Za-z0-9_-]{64})\n", banner)
        assert sk and pk, banner
        assert os.path.isfile(os.path.join(cwd, "demo-data", "edge.sqlite3"))
        listed = commands(banner)
        kinds = [check_output(comment, command, run(command, cwd)) for comment, command in listed]
        assert sorted(set(kinds)) == sorted({"Android visit", "iOS visit", "Desktop visit", "Link-preview bot",
                                             "Association files", "Resolver", "Workspace API", "Plain HTTP visits are redirected to HTTPS (308); association files never are"}), kinds
        assert len(listed) == 9
        # Pasting them again works as well (the resolver call replays its first answer).
        for comment, command in listed:
            check_output(comment, command, run(command, cwd))
    finally:
        demo.stop()
    assert demo.proc.returncode == 0

    # A second start on the same folder cannot show the keys again; its commands work once the
    # keys are exported as it says.
    again = Demo(cwd)
    try:
        banner = again.banner()
        assert "biqli_sk_" not in banner.replace("biqli_sk_...", "") and "export BIQLI_DEMO_SK=" in banner
        env = {"BIQLI_DEMO_SK": sk.group(1), "BIQLI_DEMO_PK": pk.group(1)}
        for comment, command in commands(banner):
            check_output(comment, command, run(command, cwd, env))
    finally:
        again.stop()
