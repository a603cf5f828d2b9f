"""The Debian package as a file (scripts/package): its version, Depends: found by dpkg-shlibdeps,
conffile, contents and maintainer scripts; lintian without errors or warnings; and its systemd unit:
`systemd-analyze security` within the score the README prints (`verify`: test_systemd)."""
import os, re, subprocess, tempfile

from conftest import ROOT, run

# README, "Install": the exposure level systemd-analyze security gives the unit (lower is safer).
SECURITY_SCORE = 1.5


def field(deb, name):
    return run("dpkg-deb", "--field", deb, name).stdout.strip()


def source_version():
    text = open(os.path.join(ROOT, "Sources/Edge/CLI/EdgeVersion.swift")).read()
    return re.search(r'static let current = "([^"]+)"', text).group(1)


def test_the_version_is_the_binarys_in_debians_spelling(new_deb, old_deb):
    upstream = source_version()
    assert field(new_deb, "Version") == upstream.replace("-", "~")
    assert os.path.basename(new_deb) == f"biqli-edge_{upstream.replace('-', '~')}_amd64.deb"
    assert field(old_deb, "Version") == "0.1.0"
    # A pre-release sorts before its release and after the older release: upgrades go forward.
    new = field(new_deb, "Version")
    release = upstream.split("-")[0]
    assert run("dpkg", "--compare-versions", new, "lt", release, check=False).returncode == 0
    assert run("dpkg", "--compare-versions", "0.1.0", "lt", new, check=False).returncode == 0


def test_depends_are_debians_runtime_libraries_from_dpkg_shlibdeps(new_deb):
    depends = [d.strip().split(" ")[0] for d in field(new_deb, "Depends").split(",")]
    for package in ("libc6", "libssl3", "libsodium23", "libsqlite3-0", "libpq5", "libqrencode4", "libmaxminddb0",
                    "zlib1g", "adduser", "procps"):
        assert package in depends, (package, depends)
    assert not any("swift" in d for d in depends)
    # Versioned as dpkg-shlibdeps writes them, not typed by hand.
    assert re.search(r"libssl3 \(>= 3\.\d", field(new_deb, "Depends"))


def test_contents_conffile_and_maintainer_scripts(new_deb):
    listing = run("dpkg-deb", "--contents", new_deb).stdout
    for path in ("./usr/bin/biqli-edge", "./lib/systemd/system/biqli-edge.service", "./etc/biqli-edge/biqli-edge.env",
                 "./etc/biqli-edge/certs/", "./usr/share/man/man1/biqli-edge.1.gz",
                 "./usr/share/doc/biqli-edge/copyright", "./usr/share/doc/biqli-edge/changelog.gz",
                 "./usr/share/biqli-edge/prometheus/alerts.yml"):
        assert re.search(rf" {re.escape(path)}$", listing, re.M), path
    assert "./var/lib/biqli-edge" not in listing, "the data directory is made on install, not shipped"
    with tempfile.TemporaryDirectory() as control:
        run("dpkg-deb", "--control", new_deb, control)
        assert open(os.path.join(control, "conffiles")).read().split() == ["/etc/biqli-edge/biqli-edge.env"]
        for script in ("postinst", "prerm", "postrm"):
            assert os.access(os.path.join(control, script), os.X_OK)
            run("sh", "-n", os.path.join(control, script))


def test_the_copyright_file_grants_the_apache_licence(new_deb):
    with tempfile.TemporaryDirectory() as root:
        run("dpkg-deb", "--extract", new_deb, root)
        copyright = open(os.path.join(root, "usr/share/doc/biqli-edge/copyright")).read()
    assert re.search(r"^License: Apache-2\.0$", copyright, re.M)
    assert "/usr/share/common-licenses/Apache-2.0" in copyright
    licence = open(os.path.join(ROOT, "LICENSE")).read()
    assert "Apache License" in licence and "Version 2.0, January 2004" in licence


def test_lintian_reports_no_error_and_no_warning(new_deb):
    result = run("lintian", "--tag-display-limit", "0", "--display-level", ">=warning", new_deb, check=False)
    tags = [line for line in result.stdout.splitlines() if re.match(r"^[EW]: ", line)]
    assert tags == [], result.stdout
    assert result.returncode == 0, result.stdout + result.stderr


def unpacked(deb, into):
    run("dpkg-deb", "--extract", deb, into)
    return os.path.join(into, "lib/systemd/system/biqli-edge.service")


def test_systemd_analyze_security_is_within_the_readme_score(new_deb, tmp_path):
    """`systemd-analyze verify` needs a whole system to load the unit in: test_systemd runs it
    inside the booted Debian root the package is installed in."""
    unit = unpacked(new_deb, str(tmp_path))
    report = run("systemd-analyze", "security", "--offline=true", unit, check=False).stdout
    score = float(re.search(r"Overall exposure level for biqli-edge.service: ([0-9.]+)", report).group(1))
    print(f"systemd-analyze security: {score}")
    assert score <= SECURITY_SCORE, report
    lines = open(unit).read().splitlines()
    for must in ("AmbientCapabilities=CAP_NET_BIND_SERVICE", "NoNewPrivileges=yes", "ProtectSystem=strict",
                 "ProtectHome=yes", "PrivateTmp=yes", "PrivateDevices=yes", "SystemCallFilter=@system-service",
                 "Restart=on-failure", "ExecReload=/bin/kill -HUP $MAINPID", "KillSignal=SIGTERM",
                 "TimeoutStopSec=15", "StateDirectory=biqli-edge", "StateDirectoryMode=0700", "LimitNOFILE=16384"):
        assert must in lines, must


def test_a_weaker_unit_scores_worse(tmp_path):
    """The score can fail: without the sandboxing directives the exposure rises past the README's."""
    text = open(os.path.join(ROOT, "deploy/systemd/biqli-edge.service")).read()
    weak = "\n".join(line for line in text.splitlines()
                     if not line.startswith(("Protect", "Private", "SystemCall", "Restrict")))
    unit = tmp_path / "biqli-edge.service"
    unit.write_text(weak + "\n")
    report = run("systemd-analyze", "security", "--offline=true", str(unit), check=False).stdout
    score = float(re.search(r"Overall exposure level for biqli-edge.service: ([0-9.]+)", report).group(1))
    assert score > SECURITY_SCORE + 2, score
