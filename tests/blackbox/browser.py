"""Headless Chromium (Debian `chromium` + `chromium-driver`) driven by selenium, for the page tests.

Everything stays on the machine: `--host-resolver-rules` sends the link domain to the edge's
HTTPS port, the store hosts to a local port that refuses connections, and the preview-image host
to `ImageServer` (a tiny local HTTPS server with a generated PNG), so the pages load exactly as
they would for a visitor, images included, and every navigation off the page fails locally.

Because the rules carry the port, page URLs have none (`https://go.example.test/invite`): the
origin is the real one, and the handoff URL the page copies can be opened as it is.

Headless Chromium keeps windows at least 500 px wide, so the phone viewport is set with the
DevTools command `Emulation.setDeviceMetricsOverride` (mobile, so `<meta name="viewport">` is
honoured as on a phone); `--window-size` only sizes the window around it.
"""
import http.server, os, shutil, socket, ssl, struct, tempfile, threading, zlib

from edge import Edge, make_cert
from fixtures_data import start_demo

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ARTIFACTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "artifacts")

UA_IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
             "Version/17.4 Mobile/15E148 Safari/604.1")
UA_FACEBOOK_BOT = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)"

STORE_HOSTS = ("apps.apple.com", "testflight.apple.com")
IMAGE_HOSTS = ("www.example.com",)

# Records Content-Security-Policy violations as they happen, in every document of the session
# (DevTools-injected scripts are not subject to the page's CSP). The console log says the same;
# this is the second witness, and it carries the directive.
CSP_RECORDER = """
window.__biqliCSP = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__biqliCSP.push(e.violatedDirective + ' ' + e.blockedURI);
}, true);
"""


def unavailable_reason():
    """Why the browser tests cannot run here, or None. (`scripts/setup` installs all of it.)"""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(path):
            return f"{path} is missing: run `BIQLI_SETUP_TEST=1 scripts/setup` (Debian chromium, chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is missing: run `BIQLI_SETUP_TEST=1 scripts/setup` (tests/requirements.txt)"
    return None


class ClosedPort:
    """A loopback port bound but never listening: connections to it are refused at once, and
    nothing else can take it while the tests run."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]

    def close(self):
        self.sock.close()


def gradient_png(width=600, height=314):
    """A diagonal blue-to-violet gradient, as a PNG (the demo link's preview image)."""
    rows = []
    for y in range(height):
        row = bytearray(b"\x00")  # filter: none
        for x in range(width):
            t = (x / width + y / height) / 2
            row += bytes((int(40 + 120 * t), int(110 - 60 * t), int(230 - 20 * t)))
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
            + chunk(b"IEND", b""))


class LocalHTTPS:
    """A small HTTPS server on loopback for `names` (a self-signed certificate, which the
    browser's `--ignore-certificate-errors` accepts), answering with `handler`, a
    `BaseHTTPRequestHandler` subclass; the browser reaches it through `extra_hosts` or the
    host rules. `close` stops it and removes its certificate."""

    def __init__(self, names, handler, prefix="browser-site-"):
        self.dir = tempfile.mkdtemp(prefix=prefix)
        pem = os.path.join(self.dir, "cert.pem")
        make_cert(pem, list(names))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(pem)
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        shutil.rmtree(self.dir, ignore_errors=True)


class QuietHandler(http.server.BaseHTTPRequestHandler):
    """A request handler that keeps the test output free of access lines."""

    def log_message(self, *args):
        pass


ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SHOP = "shop.example.test"


def subresource_integrity(asset):
    """The `integrity` value of `public/<asset>`, as the README's snippet gives it."""
    import base64, hashlib
    body = open(os.path.join(ROOT, "public", asset), "rb").read()
    return "sha384-" + base64.b64encode(hashlib.sha384(body).digest()).decode()


class Shop(LocalHTTPS):
    """A customer's site on another origin (`SHOP`), for the edge's browser scripts: every
    page but `/account` loads `script` (with its integrity hash and the attributes
    `attributes(path)` gives) under the Content-Security-Policy `csp`; `/account` records
    the Cookie header the site's server code would read (`cookies`)."""

    def __init__(self, script, asset, csp, attributes):
        self.cookies = []
        owner, digest = self, subresource_integrity(asset)

        class Handler(QuietHandler):
            def do_GET(self):
                path = self.path.split("?", 1)[0]
                if path == "/account":
                    owner.cookies.append(self.headers.get("Cookie", ""))
                    body = b"<!doctype html><title>account</title><p>ok</p>"
                else:
                    body = (f'<!doctype html><html lang="en"><title>shop</title><p>Shop</p>'
                            f'<script src="{script}" integrity="{digest}" crossorigin="anonymous" '
                            f'{attributes(path)} defer></script></html>').encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Security-Policy", csp)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        super().__init__([SHOP], Handler, prefix="shop-")


def wait_until(condition, what, seconds=5):
    """`condition()`'s first true value within `seconds`, else a failure naming `what`."""
    import time
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class ImageServer(LocalHTTPS):
    """HTTPS on loopback answering every GET with one PNG; `paths` lists what was asked for."""

    def __init__(self):
        self.png = gradient_png()
        self.paths = []
        owner = self

        class Handler(QuietHandler):
            def do_GET(self):
                owner.paths.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(owner.png)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(owner.png)

        super().__init__(IMAGE_HOSTS, Handler, prefix="browser-images-")


class Browser:
    """One headless Chromium with one user agent. `host` is the link domain the edge serves."""

    def __init__(self, edge_port, closed_port, image_port, ua, host="go.example.test", width=390, height=844,
                 prefs=None, extra_hosts=None):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.host = host
        self.origin = f"https://{host}"
        self.ua = ua
        self.size = (width, height)
        rules = [f"MAP {host} 127.0.0.1:{edge_port}"]
        rules += [f"MAP {h} 127.0.0.1:{closed_port}" for h in STORE_HOSTS]
        rules += [f"MAP {h} 127.0.0.1:{image_port}" for h in IMAGE_HOSTS]
        # Other sites a test serves itself (a customer's site on another origin): host -> port.
        rules += [f"MAP {h} 127.0.0.1:{port}" for h, port in (extra_hosts or {}).items()]
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    f"--window-size={width},{height}", f"--user-agent={ua}", "--ignore-certificate-errors",
                    "--host-resolver-rules=" + ", ".join(rules),
                    "--no-first-run", "--disable-extensions", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--metrics-recording-only",
                    "--hide-scrollbars", "--force-color-profile=srgb"):
            options.add_argument(arg)
        # English unless the test asks for another browser language; set_accept_language
        # overrides it per test without a new browser.
        options.add_experimental_option("prefs", {"intl.accept_languages": "en-US,en", **(prefs or {})})
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # Service(path): without it selenium-manager would look for a driver on the network.
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        # Limits against a hang, not measures of speed: axe-core takes 3 s over a link's page
        # beside `stress-ng --cpu 2` (0.5 s on a quiet machine), and more on a busier one.
        self.driver.set_page_load_timeout(60)
        self.driver.set_script_timeout(60)
        self.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": CSP_RECORDER})
        self.reset()

    # ------------------------------------------------------------ state

    def cdp(self, command, params=None):
        return self.driver.execute_cdp_cmd(command, params or {})

    def reset(self):
        """Phone viewport, light scheme, the browser's own language, empty log: the state every
        test starts from."""
        self.set_viewport(*self.size)
        self.set_color_scheme("light")
        self.set_accept_language(None)
        self.take_log()

    def set_viewport(self, width, height):
        self.cdp("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})

    def set_color_scheme(self, scheme):
        self.cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})

    def set_accept_language(self, value):
        """The `Accept-Language` header (and `navigator.languages`) of the next requests; None
        goes back to the browser's own setting (the `intl.accept_languages` preference)."""
        params = {"userAgent": self.ua}
        if value is not None:
            params["acceptLanguage"] = value
        self.cdp("Emulation.setUserAgentOverride", params)

    def grant_clipboard(self):
        self.cdp("Browser.grantPermissions",
                 {"origin": self.origin, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})

    # ------------------------------------------------------------ pages

    def open(self, path):
        self.driver.get(self.origin + path)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def read_clipboard(self):
        """The clipboard's text, read by the current page (it must be on `origin`)."""
        return self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "navigator.clipboard.readText().then(done, e => done('clipboard read failed: ' + e));")

    def write_clipboard(self, text):
        return self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "navigator.clipboard.writeText(arguments[0]).then(() => done(true), e => done(String(e)));", text)

    def csp_violations_here(self):
        """Violations the current document reported (the recorder resets with every document)."""
        return self.js("return window.__biqliCSP || ['recorder missing'];")

    def take_log(self):
        """Browser console entries since the last call."""
        return self.driver.get_log("browser")

    def screenshot(self, name):
        os.makedirs(ARTIFACTS, exist_ok=True)
        path = os.path.join(ARTIFACTS, name)
        assert self.driver.save_screenshot(path), path
        with open(path, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n", path
        assert os.path.getsize(path) > 10_000, path  # a page, not an empty frame
        return path

    def quit(self):
        self.driver.quit()


def is_csp_message(entry):
    return "Content Security Policy" in entry.get("message", "")


def errors_in(log, allowed=()):
    """Console entries at error level (SEVERE) whose message contains none of `allowed`."""
    return [e for e in log if e.get("level") == "SEVERE" and not any(a in e.get("message", "") for a in allowed)]


class Site:
    """A demo edge (`serve --demo`, with `env`), the closed store port and the preview-image
    server, shared by a test module; `close` stops them all."""

    def __init__(self, env=None):
        self.edges = []
        self.edge = start_demo(self._start, env=env)
        self.closed = ClosedPort()
        self.images = ImageServer()

    def _start(self, **kwargs):
        e = Edge(**kwargs)
        self.edges.append(e)
        return e

    def browser(self, ua, **kwargs):
        return Browser(self.edge.https_port, self.closed.port, self.images.port, ua, **kwargs)

    def close(self):
        for e in self.edges:
            e.kill()
        self.closed.close()
        self.images.close()
