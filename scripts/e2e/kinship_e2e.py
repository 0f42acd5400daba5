"""Helpers the end-to-end checks share: a real `kinship serve`, a browser-like client, the login dialog."""
import base64
import hashlib
import html.parser
import http.cookiejar
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request


class FormParser(html.parser.HTMLParser):
    """Collects each form's action and the fields a browser would submit."""

    def __init__(self):
        super().__init__()
        self.forms = {}
        self._action = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._action = attrs.get("action")
            self.forms[self._action] = {"fields": [], "checkboxes": []}
        elif tag == "input" and self._action is not None and "name" in attrs:
            form = self.forms[self._action]
            if attrs.get("type") == "checkbox":
                form["checkboxes"].append((attrs["name"], attrs.get("value", "on"), "checked" in attrs))
            else:
                form["fields"].append((attrs["name"], attrs.get("value") or ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self._action = None


class Checks:
    """A named list of pass/fail checks, printed as they are made."""

    def __init__(self):
        self.results = []

    def __call__(self, name, condition, detail=""):
        self.results.append((name, bool(condition)))
        print(("  ok    " if condition else "  FAIL  ") + name + ("" if condition else f"  ({detail})"), flush=True)
        return condition

    @property
    def failed(self):
        return [name for name, passed in self.results if not passed]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect())

    def request(self, path, data=None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body)
        if body is not None:
            request.add_header("Content-Type", "application/x-www-form-urlencoded")
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()


def forms_of(page):
    parser = FormParser()
    parser.feed(page)
    return parser.forms


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def admin(kinship, database, *arguments):
    completed = subprocess.run([kinship, *arguments, "--database", database], capture_output=True, text=True, timeout=120)
    return completed.returncode, completed.stdout, completed.stderr


def server_log_path(folder):
    """Where a server started for `folder` logs: in $KINSHIP_E2E_LOGS when the test command sets it
    (it reads every server log of the run afterwards for secrets), else in the folder."""
    logs = os.environ.get("KINSHIP_E2E_LOGS")
    if not logs:
        return os.path.join(folder, "server.log")
    os.makedirs(logs, exist_ok=True)
    return os.path.join(logs, f"{os.path.basename(folder)}-{secrets.token_hex(4)}.log")


def secret_file_arguments(kinship, database, folder):
    """`--secret-file` for a PostgreSQL database; none for SQLite, which keeps its secret beside the
    database file. Every process on one PostgreSQL database is one deployment and must share one
    secret (it seals the id_token signing keys), so the file is named after the database."""
    if not database.startswith("postgres"):
        return []
    path = os.path.join(tempfile.gettempdir(), "kinship-e2e-" + hashlib.sha256(database.encode()).hexdigest()[:16] + ".secret")
    if not os.path.exists(path):
        made = subprocess.run([kinship, "secret", "generate", "--output", path], capture_output=True, text=True, timeout=60)
        if made.returncode != 0 and not os.path.exists(path):
            raise SystemExit("kinship secret generate failed: " + made.stderr)
    return ["--secret-file", path]


def start_server(kinship, database, folder, log_level="info", extra=(), port=None):
    port = port or free_port()
    log_path = server_log_path(folder)
    log = open(log_path, "w")
    process = subprocess.Popen(
        [kinship, "serve", "--demo", "--port", str(port), "--database", database, "--log-level", log_level,
         *secret_file_arguments(kinship, database, folder), *extra],
        cwd=folder, stdout=subprocess.PIPE, stderr=log, text=True)
    process.log_path = log_path
    banner = []
    deadline = time.time() + 120
    while time.time() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        banner.append(line)
        if len([l for l in banner if l.strip().startswith("user")]) == 5 or line.startswith("Demo data not created"):
            break
    base = f"http://127.0.0.1:{port}"
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                if response.status == 200:
                    return process, base, "".join(banner)
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("kinship serve did not start; its log:\n" + open(log_path).read())



def fresh_postgres(url, name):
    """A new, empty database on the test server; its URL."""
    subprocess.run(["psql", url, "-qAtc", f"DROP DATABASE IF EXISTS {name}"], check=True, capture_output=True)
    subprocess.run(["psql", url, "-qAtc", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    parts = urllib.parse.urlparse(url)
    return urllib.parse.urlunparse(parts._replace(path="/" + name))


def stop(process, timeout=30):
    """Stops a server the way an operator does (SIGTERM), killing it when it does not stop in time."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def complete_dialog(browser, dialog_path, login, password, untick=(), button="continue"):
    """Plays the person at the dialog: logs in, unticks `untick` on each consent step, presses
    `button`; returns the redirect URL the dialog sent the browser to."""
    status, headers, page = browser.request(dialog_path)
    if "/dialog/login" in forms_of(page):
        fields = dict(forms_of(page)["/dialog/login"]["fields"])
        fields.update({"login": login, "password": password})
        status, headers, _ = browser.request("/dialog/login", fields)
        assert status == 303, f"logging in as {login} failed (HTTP {status})"
        status, headers, page = browser.request(headers["Location"])
    while status == 200:
        consent = forms_of(page)["/dialog/oauth/confirm"]
        submitted = list(consent["fields"])
        submitted += [(name, value) for name, value, checked in consent["checkboxes"] if checked and value not in untick]
        submitted.append(("action", button))
        status, headers, page = browser.request("/dialog/oauth/confirm", submitted)
    return headers["Location"]


def approve_device(base, verification_uri_complete, login, password, untick=(), button="continue"):
    """Plays the person finishing a device login on /device from another browser: logs in, confirms
    the filled-in code, unticks `untick` and presses `button`; returns the last page."""
    browser = Browser(base)
    path = verification_uri_complete[len(base):]
    status, headers, _ = browser.request(path)
    assert status == 303 and headers["Location"].startswith("/login?next="), f"/device did not ask to log in first (HTTP {status})"
    status, _, page = browser.request(headers["Location"])
    fields = dict(forms_of(page)["/login"]["fields"])
    fields.update({"login": login, "password": password})
    status, headers, _ = browser.request("/login", fields)
    assert status == 303 and headers["Location"] == path, f"logging in as {login} did not lead back to {path}"
    status, _, page = browser.request(path)
    status, _, page = browser.request("/device", forms_of(page)["/device"]["fields"])
    while status == 200 and "/device/confirm" in forms_of(page):
        consent = forms_of(page)["/device/confirm"]
        submitted = list(consent["fields"])
        submitted += [(name, value) for name, value, checked in consent["checkboxes"] if checked and value not in untick]
        submitted.append(("action", button))
        status, _, page = browser.request("/device/confirm", submitted)
    assert status == 200, f"the device consent ended with HTTP {status}"
    return page


def log_in(base, client_id, login, password, scope, untick=()):
    """Drives the dialog like a person and exchanges the code; returns the token response."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    state = secrets.token_urlsafe(16)
    redirect_uri = f"http://127.0.0.1:{free_port()}/callback"
    location = complete_dialog(Browser(base), "/dialog/oauth?" + urllib.parse.urlencode({
        "client_id": client_id, "redirect_uri": redirect_uri, "response_type": "code", "scope": scope,
        "state": state, "code_challenge": challenge, "code_challenge_method": "S256"}), login, password, untick)
    query = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)
    assert query.get("state") == [state], "the state came back changed"
    return json.loads(urllib.request.urlopen(base + "/oauth/access_token", data=urllib.parse.urlencode({
        "grant_type": "authorization_code", "code": query["code"][0], "redirect_uri": redirect_uri,
        "client_id": client_id, "code_verifier": verifier}).encode()).read())


def demo_credentials(banner):
    """The demo app's id and secret from `serve --demo`'s output."""
    return re.search(r"client_id=(\d+)", banner).group(1), re.search(r"client_secret=(\S+)", banner).group(1)
