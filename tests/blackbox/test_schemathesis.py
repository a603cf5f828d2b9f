"""Schemathesis (from PyPI, tests/requirements.txt) against the workspace API of the real
binary, reading the document the binary serves (GET /api/v1/openapi.json): every check
(`--checks all`), every phase (examples, coverage, fuzzing and the stateful one, which follows
the document's links), with a workspace secret key. Any failure or error fails this test, so
the document and the server cannot drift apart again (issue 14, item 7).

Bounded by tests/blackbox/schemathesis.toml (examples per operation, stateful steps): about
two minutes here. BIQLI_SCHEMATHESIS_SEED picks another seed (the default is fixed, so that a
red run can be replayed); BIQLI_SCHEMATHESIS_MAX_EXAMPLES runs longer."""
import json, os, subprocess, sys, tempfile

from edge import Edge
from management_api import new_key

HERE = os.path.dirname(os.path.abspath(__file__))
ST = os.path.join(os.path.dirname(sys.executable), "st")


def test_schemathesis_finds_no_disagreement_between_the_document_and_the_server():
    data = tempfile.mkdtemp(prefix="edge-schemathesis-")
    key = new_key(data)
    edge = Edge(data_dir=data)
    try:
        base = f"http://127.0.0.1:{edge.http_port}"
        report = os.path.join(data, "schemathesis.json")
        command = [
            ST, "--no-color", "--config-file", os.path.join(HERE, "schemathesis.toml"),
            "run", base + "/api/v1/openapi.json", "--url", base,
            "--checks", "all", "--phases", "examples,coverage,fuzzing,stateful",
            "--workers", "1",  # more workers buy nothing on two shared cores (and trip a Hypothesis race)
            "--seed", os.environ.get("BIQLI_SCHEMATHESIS_SEED", "1"),
            "--header", f"Authorization: Bearer {key}",
            "--report", "json", "--report-json-path", report,
        ]
        if os.environ.get("BIQLI_SCHEMATHESIS_MAX_EXAMPLES"):
            command += ["--max-examples", os.environ["BIQLI_SCHEMATHESIS_MAX_EXAMPLES"]]
        # Schemathesis filters the Authorization header out of what it prints.
        run = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=data,
                             env={**os.environ, "PYTHONUNBUFFERED": "1"})
        summary = json.load(open(report)) if os.path.exists(report) else {}
        print(f"schemathesis: {summary.get('operations', {}).get('tested')} operations, "
              f"{summary.get('test_cases', {}).get('generated')} test cases, "
              f"{len(summary.get('failures') or [])} failures, {len(summary.get('errors') or [])} errors, {round(summary.get('running_time') or 0)} s")
        assert run.returncode == 0, run.stdout[-30000:] + run.stderr[-5000:]
        assert summary["complete"] and not summary["failures"] and not summary["errors"], summary
        assert summary["operations"]["tested"] == summary["operations"]["total"] == 54, summary["operations"]
        assert all(summary["phases"][p]["status"] == "success" for p in ("coverage", "fuzzing", "stateful")), \
            summary["phases"]
        # Nothing the edge answered was a crash of its own.
        assert edge.proc.poll() is None
    finally:
        edge.kill()
