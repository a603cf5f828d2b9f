"""Real versions (issue 23 item 8): the version is written once, in
Sources/Edge/CLI/EdgeVersion.swift; `--version` and `biqli_node_info` show what the build was
made with (the `nodes` table too: test_nodes), CHANGELOG.md's newest section is that version,
and `scripts/release` sets it from the release and tags the commit, in a throwaway clone."""
import os, re, shutil, subprocess, tempfile

import pytest

from edge import Edge, request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("BIQLI_EDGE_BINARY", os.path.join(ROOT, ".build", "debug", "biqli-edge"))
pytestmark = pytest.mark.store_independent


def source_version(root=ROOT):
    text = open(os.path.join(root, "Sources", "Edge", "CLI", "EdgeVersion.swift")).read()
    return re.search(r'static let current = "([^"]+)"', text).group(1)


def test_the_binary_the_metrics_and_the_changelog_show_the_one_version():
    version = source_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+(-dev)?", version), version
    out = subprocess.run([BINARY, "--version"], capture_output=True, text=True, timeout=10)
    assert out.returncode == 0 and out.stdout == f"biqli-edge {version}\n", out
    newest = re.search(r"^## \[([0-9.]+)\]", open(os.path.join(ROOT, "CHANGELOG.md")).read(), re.M).group(1)
    assert newest == version.removesuffix("-dev")
    edge = Edge()
    try:
        status, _, body = request(edge.http_port, "/metrics")
        assert status == 200
        assert f'version="{version}"' in re.search(r"^biqli_node_info\{.*$", body.decode(), re.M).group(0)
    finally:
        edge.kill()


def git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def test_a_release_sets_the_version_tags_it_and_opens_the_next():
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    clone = tempfile.mkdtemp(prefix="release-")
    try:
        subprocess.run(["git", "clone", "-q", "--no-hardlinks", ROOT, clone], check=True)
        git(clone, "config", "user.email", "release@example.test")
        git(clone, "config", "user.name", "Release test")
        # The test works on what is committed; make the clone's version a known -dev one.
        version = source_version(clone)
        release = version.removesuffix("-dev")
        assert version.endswith("-dev"), f"main should be between releases, not at {version}"
        check = subprocess.run(["scripts/check-version"], cwd=clone, capture_output=True, text=True)
        assert check.returncode == 0 and check.stdout.strip() == f"version {version}", check
        out = subprocess.run(["scripts/release", release], cwd=clone, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        # The tag names the release commit, whose code says exactly that version...
        git(clone, "checkout", "-q", f"v{release}")
        assert source_version(clone) == release
        changelog = open(os.path.join(clone, "CHANGELOG.md")).read()
        assert re.search(rf"^## \[{re.escape(release)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.M), changelog[:600]
        assert subprocess.run(["scripts/check-version"], cwd=clone, capture_output=True).returncode == 0
        # ...and main moved on to the next -dev version at once.
        git(clone, "checkout", "-q", "-")
        major, minor, patch = release.split(".")
        assert source_version(clone) == f"{major}.{minor}.{int(patch) + 1}-dev"
        assert subprocess.run(["scripts/check-version"], cwd=clone, capture_output=True).returncode == 0
        # A tag that does not match the code is caught, as is a changelog that lags.
        git(clone, "tag", "v9.9.9")
        bad = subprocess.run(["scripts/check-version"], cwd=clone, capture_output=True, text=True)
        assert bad.returncode == 1 and "tagged v9.9.9" in bad.stderr, bad
        git(clone, "tag", "-d", "v9.9.9")
        path = os.path.join(clone, "Sources", "Edge", "CLI", "EdgeVersion.swift")
        current, text = source_version(clone), open(path).read()
        open(path, "w").write(text.replace(current, "7.0.0-dev"))
        bad = subprocess.run(["scripts/check-version"], cwd=clone, capture_output=True, text=True)
        assert bad.returncode == 1 and "CHANGELOG.md's newest section" in bad.stderr, bad
        # Releasing twice, or without a changelog section, is refused.
        again = subprocess.run(["scripts/release", release], cwd=clone, capture_output=True, text=True)
        assert again.returncode == 1, again
    finally:
        shutil.rmtree(clone, ignore_errors=True)
