"""The container image (Containerfile), built by scripts/test-ops with buildah and run here with
podman: a non-root user, the runtime libraries and nothing of the toolchain, the data in a volume
that outlives the container, ports 8080/8443, the health check on /healthz, a graceful stop."""
import json, os, socket, ssl, time, urllib.request, uuid

import pytest

IMAGE = os.environ.get("BIQLI_OPS_IMAGE", "localhost/biqli-edge:test")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def container(podman):
    name = "biqli-ops-" + uuid.uuid4().hex[:8]
    volume = name + "-data"
    ports = (free_port(), free_port())
    started = []

    def start():
        podman("run", "-d", "--name", name, "-p", f"127.0.0.1:{ports[0]}:8080", "-p", f"127.0.0.1:{ports[1]}:8443",
               "-v", f"{volume}:/var/lib/biqli-edge", IMAGE)
        started.append(name)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{ports[0]}/healthz", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise AssertionError(podman("logs", name, check=False).stdout)

    yield name, ports, start
    podman("rm", "-f", name, check=False)
    podman("volume", "rm", "-f", volume, check=False)


def test_the_image_runs_as_a_non_root_user_with_only_runtime_libraries(podman):
    config = json.loads(podman("image", "inspect", IMAGE).stdout)[0]["Config"]
    assert config["User"] == "10001:10001"
    assert set(config["ExposedPorts"]) == {"8080/tcp", "8443/tcp"}
    assert "/var/lib/biqli-edge" in config["Volumes"]
    assert config["Entrypoint"] == ["/usr/bin/biqli-edge"] and config["Cmd"] == ["serve"]
    assert config["StopSignal"] == "SIGTERM"
    assert config["Labels"]["org.opencontainers.image.licenses"] == "Apache-2.0"
    assert "/healthz" in " ".join(json.loads(podman("image", "inspect", "--format", "{{json .HealthCheck}}",
                                                        IMAGE).stdout)["Test"])
    version = podman("run", "--rm", IMAGE, "--version").stdout.strip()
    assert version.startswith("biqli-edge ")
    out = podman("run", "--rm", "--entrypoint", "/bin/sh", IMAGE, "-c", "id -u; id -g; ldd /usr/bin/biqli-edge").stdout
    lines = out.splitlines()
    assert lines[:2] == ["10001", "10001"], out
    assert "not found" not in out and "libswift" not in out, out
    for lib in ("libsodium.so.23", "libssl.so.3", "libsqlite3.so.0", "libpq.so.5", "libqrencode.so.4",
                "libmaxminddb.so.0"):
        assert lib in out, (lib, out)
    # Nothing of the build stage: no compiler, no Swift toolchain.
    tools = podman("run", "--rm", "--entrypoint", "/bin/sh", IMAGE, "-c",
                   "command -v swift swiftc gcc cc ld dpkg-shlibdeps; ls -d /usr/lib/swift 2>/dev/null; true").stdout
    assert tools.strip() == "", tools


def test_the_container_serves_keeps_its_data_in_the_volume_and_stops_gracefully(podman, container):
    name, (http, https), start = container
    start()
    with urllib.request.urlopen(f"http://127.0.0.1:{http}/healthz", timeout=5) as r:
        assert json.load(r)["status"] == "ok"
    # HTTPS on 8443 with the self-signed certificate the edge made in the volume.
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    with urllib.request.urlopen(f"https://127.0.0.1:{https}/healthz", timeout=5, context=context) as r:
        assert r.status == 200
    # The image's health check (timers need systemd; podman runs it on demand).
    assert podman("healthcheck", "run", name, check=False).returncode == 0
    assert podman("inspect", "--format", "{{.State.Health.Status}}", name).stdout.strip() == "healthy"

    key = podman("exec", name, "biqli-edge", "keys", "create", "--name", "ops-test").stdout
    assert "biqli_sk_" in key
    listing = podman("exec", name, "ls", "-ln", "/var/lib/biqli-edge").stdout
    assert all(" 10001 10001 " in line for line in listing.splitlines()[1:]), listing

    stopped = time.monotonic()
    podman("stop", "-t", "15", name)
    assert time.monotonic() - stopped < 10, "SIGTERM stops it at once when nothing is in flight"
    assert podman("inspect", "--format", "{{.State.ExitCode}}", name).stdout.strip() == "0"
    logs = podman("logs", name).stdout
    assert '"msg":"shutting down"' in logs and '"msg":"stopped"' in logs

    # A new container on the same volume has the key.
    podman("rm", name)
    start()
    assert "ops-test" in podman("exec", name, "biqli-edge", "keys", "list").stdout
