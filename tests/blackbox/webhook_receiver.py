"""A webhook receiver for the black-box tests: a real HTTP server on 127.0.0.1 that checks every
request's Standard Webhooks signature with the specification's own library (`standardwebhooks`
from PyPI) and answers as the test scripts it: a status (with headers), a delay, a redirect."""
import json, socket, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


class Received:
    def __init__(self, path, headers, body, verified, at):
        self.path, self.headers, self.body, self.verified, self.at = path, headers, body, verified, at
        self.id = headers.get("webhook-id")
        self.payload = json.loads(body) if body else None
        self.answered = None  # the status sent back (None: no answer in time, or none)


class Receiver:
    """`script`: a list of answers used in turn, then `default`: an int (status), a dict
    {"status", "headers", "delay"}; `secrets`: the endpoint's secrets (any one must verify)."""

    def __init__(self, port=0, default=200, secrets=()):
        self.requests = []
        self.script = []
        self.default = default
        # Given here when the edge is already sending: a request may come as soon as it serves.
        self.secrets = list(secrets)
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                got = Received(self.path, headers, body, receiver.verify(body, headers), time.time())
                got.connection = self.client_address
                with receiver.lock:
                    receiver.requests.append(got)
                    answer = receiver.script.pop(0) if receiver.script else receiver.default
                if isinstance(answer, int):
                    answer = {"status": answer}
                if answer.get("delay"):
                    time.sleep(answer["delay"])
                status = answer.get("status", 200)
                payload = answer.get("body", b"ok")
                try:
                    self.send_response(status)
                    for k, v in (answer.get("headers") or {}).items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    got.answered = status
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def verify(self, body, headers):
        for secret in self.secrets:
            try:
                Webhook(secret).verify(body, headers)
                return True
            except WebhookVerificationError:
                continue
        return False

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def delivered(self):
        """The requests answered 2xx."""
        with self.lock:
            return [r for r in self.requests if r.answered is not None and 200 <= r.answered < 300]

    def all(self):
        with self.lock:
            return list(self.requests)

    def wait(self, condition, limit, what):
        deadline = time.time() + limit
        while not condition():
            assert time.time() < deadline, f"{what}: not within {limit} s; got {[(r.id, r.answered) for r in self.all()]}"
            time.sleep(0.05)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port
