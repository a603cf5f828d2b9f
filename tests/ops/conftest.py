"""What scripts/test-ops prepared: the packages, the Debian roots and the image (.build/ops)."""
import glob, os, shlex, subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPS = os.environ.get("BIQLI_OPS_DIR", os.path.join(ROOT, ".build", "ops"))


def run(*args, check=True, timeout=300, **kwargs):
    result = subprocess.run(list(args), capture_output=True, text=True, timeout=timeout, **kwargs)
    if check and result.returncode != 0:
        raise AssertionError(f"{args} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result


def one(pattern):
    found = sorted(glob.glob(pattern))
    assert len(found) == 1, (pattern, found)
    return found[0]


@pytest.fixture(scope="session")
def new_deb():
    return one(os.path.join(OPS, "debs", "biqli-edge_*_amd64.deb"))


@pytest.fixture(scope="session")
def old_deb():
    return one(os.path.join(OPS, "debs", "old", "biqli-edge_*_amd64.deb"))


@pytest.fixture(scope="session")
def podman():
    base = shlex.split(os.environ.get("BIQLI_OPS_PODMAN", "podman"))
    limits = shlex.split(os.environ.get("BIQLI_OPS_LIMITS", ""))

    def call(*args, check=True, timeout=300):
        argv = base + list(args)
        if args and args[0] in ("run", "create"):
            argv = base + [args[0]] + limits + list(args[1:])
        return run(*argv, check=check, timeout=timeout)
    return call
