#!/usr/bin/env python3
"""The guard against erosion (issue 24 item 5): instructions per request of the hot paths,
counted by callgrind (repeatable whatever else the machine does), against the baseline in
bench/guard-baseline.json. Fails (exit 1) when a case grows by more than 3 % on the event
loop or on the store's writer, the way SwiftNIO's allocation-counter tests guard its hot
paths. `scripts/test` runs it; it takes about a minute.

A change that must cost more updates the baseline in the same commit (`--update`) and says
why in its message; a change that makes a path cheaper should too, so that the guard holds
the gain.

Cases, each on one keep-alive connection of the plain listener, one request at a time (so
every durable write is its own commit: the writer's figure is not the batched one):
healthz, desktop visit, Android visit (click + handoff, durable), iOS Deep View (durable),
resolver handoff match (with its receipt) and resolver `none`.

Usage: bench/guard.py [--requests N] [--update] [--binary PATH]
"""
import argparse, json, os, re, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import ROOT, CallgrindEdge, scratch_dir  # noqa: E402
from lib import track_open as lib_track_open  # noqa: E402

BASELINE = os.path.join(ROOT, "bench", "guard-baseline.json")
TOLERANCE = 0.03
# Below this many instructions a thread's share is noise (a writer that does nothing for
# /healthz still wakes now and then): it is shown, not guarded.
FLOOR = 2_000
# Written after the answer, a desktop click may share a commit with the next one, or not,
# as the writer's timing has it under valgrind (10 % apart from run to run): its writer
# share is shown, not guarded. The durable cases, one commit each, guard the write path.
UNGUARDED = {("desktop visit", "writer"), ("desktop visit, options", "writer")}
HOST = "go.example.test"
UA = {
    "desktop": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    "android": ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 "
                "Mobile Safari/537.36"),
    "ios": ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
            "Version/17.4 Mobile/15E148 Safari/604.1"),
    # Instagram's Android web view: the demo app has App Links, so the app's intent with the
    # Play Store app's intent inside it (issue 36: within 5 % of the Android visit).
    "android-in-app": ("Mozilla/5.0 (Linux; Android 13; SM-S918B Build/TP1A.220624.014; wv) AppleWebKit/537.36 "
                       "(KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.144 Mobile Safari/537.36 Instagram "
                       "312.0.0.32.112 Android (33/13; 480dpi; 1080x2340; samsung; SM-S918B; dm3q; qcom; en_US; "
                       "548323757)"),
}
IN_APP_LABEL = "Android visit, in-app (durable)"
IN_APP_BUDGET = 0.05
PK = re.compile(r"publishable key \(shown once\):\s+(biqli_mobile_pk_[A-Za-z0-9_-]{64})")
SK = re.compile(r"secret key \(shown once\):\s+(biqli_sk_[A-Za-z0-9_-]+)")
# Issue 35: a link with the most a link can hold (20 rules, none of which a desktop visitor
# in the demo matches, so every one is tried; 3 variants, drawn afresh on every visit since
# the guard sends no cookie, so the cookie is set on every visit; UTM; the visitor's query).
# Guarded against its baseline like every case; also shown against the plain desktop visit
# of the same run, next to issue 35's aim of 8 % more at most (not met: README, "Performance").
OPTIONS_LABEL = "desktop visit, options"
OPTIONS_BUDGET = 0.08
OPTIONS_LINK = {
    "domain": HOST, "key": "routed", "url": "https://www.example.com/landing?src=edge",
    "rules": [{"if": {"countries": ["BR", "PT"], "languages": [f"qa{chr(97 + i)}"], "platforms": ["ios", "android"],
                      "devices": ["phone", "tablet"]}, "url": f"https://www.example.com/rule/{i}"}
              for i in range(20)],
    "variants": [{"url": "https://www.example.com/a", "weight": 34}, {"url": "https://www.example.com/b", "weight": 33},
                 {"url": "https://www.example.com/c", "weight": 33}],
    "utm": {"source": "guard", "medium": "bench", "campaign": "issue35", "term": "rules", "content": "variants"},
    "passQuery": True,
}
TOKEN = re.compile(rb"biqli_token%3D(bqmh_[A-Za-z0-9_-]{43})")
UNLIMITED = {f"BIQLI_EDGE_RATE_{k}": "10000000" for k in
             ("PER_APP", "PER_ADDRESS", "PER_INSTANCE", "PER_TOKEN", "INVALID_PER_ADDRESS")}


def visit(path, ua):
    return f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nUser-Agent: {UA[ua]}\r\n\r\n".encode()


def track_open(pk, n, token):
    return lib_track_open(pk, f"{os.getpid():08x}{n:024x}", token)


def measure(n):
    """{case: {"loops": instructions per request, "writer": ...}}."""
    work = scratch_dir("bench-guard-")
    edge = CallgrindEdge(work, 1, extra_env=UNLIMITED)
    results = {}
    try:
        conn = edge.connect()
        pk = None
        for _ in range(600):
            m = PK.search(open(edge.log_path).read())
            if m:
                pk = m.group(1)
                break
            time.sleep(0.1)
        assert pk, "the demo did not print its publishable key"
        sk = SK.search(open(edge.log_path).read()).group(1)
        body = json.dumps(OPTIONS_LINK).encode()
        made = conn.roundtrip(
            f"POST /api/v1/links HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Bearer {sk}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
        assert made.startswith(b"HTTP/1.1 201"), made[:400]
        sent = [0]

        def opens(token):
            sent[0] += 1
            return track_open(pk, sent[0], token)

        tokens = []

        def android():
            r = conn.roundtrip(visit("/invite", "android"))
            tokens.append(TOKEN.search(r).group(1).decode())
            return r

        # The desktop visit last: its clicks are written after their answers, a little
        # later, and must not land in another case's part.
        cases = [
            ("healthz", lambda: conn.roundtrip(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"), b"200"),
            ("Android visit (durable)", android, b"302"),
            (IN_APP_LABEL, lambda: conn.roundtrip(visit("/invite", "android-in-app")), b"302"),
            ("iOS Deep View (durable)", lambda: conn.roundtrip(visit("/invite", "ios")), b"200"),
            ("resolver match", lambda: conn.roundtrip(opens(tokens.pop())), b"200"),
            ("resolver none", lambda: conn.roundtrip(opens(None)), b"200"),
            ("desktop visit", lambda: conn.roundtrip(visit("/invite", "desktop")), b"302"),
            (OPTIONS_LABEL, lambda: conn.roundtrip(visit("/routed?ref=guard&page=2", "desktop")), b"302"),
        ]
        # Tokens for the matched opens, made before anything is counted (warm-ups included).
        for _ in range(n + 40):
            android()
        part = 1
        parts = {}
        for label, send, status in cases:
            for _ in range(20):  # warm-up: caches, the classifier's answer for this user agent
                send()
            # Clicks written after their answer (desktop) land before the part closes.
            time.sleep(0.3)
            edge.dump()
            part += 1
            for _ in range(n):
                r = send()
                assert r.startswith(b"HTTP/1.1 " + status), (label, r[:300])
            time.sleep(1.0 if label.startswith("desktop visit") else 0.3)
            edge.dump()
            parts[label] = part  # the part this dump closed
            part += 1
    finally:
        edge.stop()
    for label, part in parts.items():
        per = edge.per_request(part, n)
        results[label] = {"loops": round(per["loops"]), "writer": round(per["writer"])}
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--update", action="store_true", help="write the measured figures as the new baseline")
    parser.add_argument("--binary", help="the release binary (default .build/release/biqli-edge)")
    args = parser.parse_args()
    if args.binary:
        os.environ["BIQLI_EDGE_BINARY"] = args.binary
    measured = measure(args.requests)
    baseline = json.load(open(BASELINE))["cases"] if os.path.exists(BASELINE) else {}
    failures = []
    print(f"instructions per request under callgrind ({args.requests} per case, one connection, one loop)")
    print(f"{'case':28} {'thread':7} {'baseline':>10} {'now':>10} {'change':>8}")
    for label, now in measured.items():
        for thread in ("loops", "writer"):
            was = baseline.get(label, {}).get(thread)
            change = "" if not was else f"{(now[thread] - was) / was:+.1%}"
            print(f"{label:28} {thread:7} {was if was is not None else '-':>10} {now[thread]:>10} {change:>8}")
            guarded = was is not None and was >= FLOOR and (label, thread) not in UNGUARDED
            if guarded and now[thread] > was * (1 + TOLERANCE):
                failures.append(f"{label} on the {thread}: {was} -> {now[thread]} instructions per request")
    plain, routed = measured["desktop visit"]["loops"], measured[OPTIONS_LABEL]["loops"]
    print(f"{OPTIONS_LABEL} against the plain desktop visit on the loops: {(routed - plain) / plain:+.1%} "
          f"(issue 35's aim: at most {OPTIONS_BUDGET:+.0%})")
    if routed > plain * (1 + OPTIONS_BUDGET):
        print(f"  above issue 35's aim: {routed} against {plain * (1 + OPTIONS_BUDGET):.0f} (README, \"Performance\")")
    android, in_app = measured["Android visit (durable)"]["loops"], measured[IN_APP_LABEL]["loops"]
    print(f"{IN_APP_LABEL} against the Android visit on the loops: {(in_app - android) / android:+.1%} "
          f"(issue 36's aim: at most {IN_APP_BUDGET:+.0%})")
    # Shown, not a failure: issue 36 is open and its intents are not yet within its aim; the
    # case is guarded against its own baseline like every other.
    if in_app > android * (1 + IN_APP_BUDGET):
        print(f"  above issue 36's aim: {in_app} against {android * (1 + IN_APP_BUDGET):.0f} (README, \"Performance\")")
    if args.update:
        with open(BASELINE, "w") as f:
            json.dump({"tolerance": TOLERANCE, "requestsPerCase": args.requests,
                       "note": "bench/guard.py --update; a commit that changes it says why",
                       "cases": measured}, f, indent=2)
            f.write("\n")
        print(f"baseline written to {os.path.relpath(BASELINE, ROOT)}")
        return 0
    if not baseline:
        print("no baseline yet: run bench/guard.py --update")
        return 1
    if failures:
        print("\nguard: a hot path grew by more than its budget:")
        for f in failures:
            print("  " + f)
        print("If the cost is meant, run bench/guard.py --update and say why in the commit message.")
        return 1
    print("guard: no hot path grew by more than 3 %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
