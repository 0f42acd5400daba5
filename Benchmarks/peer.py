#!/usr/bin/env python3
"""Issue 17, item 3: Kinship beside another self-hosted OpenID Connect server a user might pick
instead — glewlwyd 2.7 (Debian's package, written in C), on SQLite — in the same run on the same
machine, each with one public client (PKCE) and one person, both signing RS256 with a 2048-bit key:

1. Code exchanges per second (each signs an id_token; glewlwyd's access tokens are RS256 JWTs too),
   driven by Benchmarks/Sources/OpenIDThroughput with 16 clients, median of 3 rounds.
2. Refresh grants per second (the same driver, each client rotating its own refresh token).
3. UserInfo with the access token: requests per second and p99 (wrk, 64 connections).
4. Idle memory (resident set size a second after start and set-up) and start time (from the
   process's start to its first answer on an existing database, median of 11 starts).

Prints each row with both figures and Kinship's lead; target: Kinship ahead on every row. Exits
non-zero when a row is behind. Run from the repository root:  python3 Benchmarks/peer.py
"""
import argparse
import base64
import hashlib
import http.cookiejar
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts", "e2e"))
from kinship_e2e import Browser, complete_dialog, free_port, start_server, stop  # noqa: E402
from bench_support import release_binary  # noqa: E402
from graph_throughput import ensure_wrk, wrk  # noqa: E402
from start_and_memory import first_answer, resident_mib  # noqa: E402

GLEWLWYD_SCHEMA = "/usr/share/dbconfig-common/data/glewlwyd/install/sqlite3"
REDIRECT_URI = "https://bench.example/callback"
PASSWORD = "kinship-demo"


def ensure_glewlwyd():
    if shutil.which("glewlwyd") and os.path.exists(GLEWLWYD_SCHEMA):
        return
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print("==> apt-get install glewlwyd", flush=True)
    if subprocess.run(["apt-get", "install", "-y", "-qq", "glewlwyd"], env=environment).returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=environment)
        subprocess.run(["apt-get", "install", "-y", "-qq", "glewlwyd"], check=True, env=environment)


class Session:
    """An HTTP client with a cookie jar that does not follow redirects."""

    def __init__(self, base):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect())

    def call(self, method, path, body=None, form=None):
        data, headers = None, {}
        if body is not None:
            data, headers = json.dumps(body).encode(), {"Content-Type": "application/json"}
        elif form is not None:
            data, headers = urllib.parse.urlencode(form).encode(), {"Content-Type": "application/x-www-form-urlencoded"}
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()

    def cookie_header(self):
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments, **keywords):
        return None


def rsa_key_pair(folder):
    private = os.path.join(folder, "signing.pem")
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", private],
                   check=True, capture_output=True)
    public = subprocess.run(["openssl", "pkey", "-in", private, "-pubout"], check=True, capture_output=True, text=True).stdout
    return open(private).read(), public


def prepare_glewlwyd(folder, port):
    """A glewlwyd configuration and SQLite database in `folder` with the OpenID Connect plugin (RS256,
    a 2048-bit key, code and refresh grants, PKCE); returns the command that starts it."""
    database = os.path.join(folder, "glewlwyd.db")
    with sqlite3.connect(database) as connection:
        connection.executescript(open(GLEWLWYD_SCHEMA).read())
        private, public = rsa_key_pair(folder)
        parameters = {
            "iss": f"http://127.0.0.1:{port}/api/oidc", "jwt-type": "rsa", "jwt-key-size": "256", "key": private, "cert": public,
            "access-token-duration": 3600, "refresh-token-duration": 1209600, "code-duration": 600,
            "refresh-token-rolling": True, "allow-non-oidc": False, "auth-type-code-enabled": True,
            "auth-type-refresh-enabled": True, "auth-type-token-enabled": False, "auth-type-id-token-enabled": False,
            "auth-type-none-enabled": False, "auth-type-password-enabled": False, "auth-type-client-enabled": False,
            "auth-type-device-enabled": False, "subject-type": "public", "pkce-allowed": True, "pkce-method-plain-allowed": False,
            "scope": [],
        }
        connection.execute(
            "INSERT INTO g_plugin_module_instance (gpmi_module, gpmi_name, gpmi_display_name, gpmi_parameters) VALUES (?, ?, ?, ?)",
            ("oidc", "oidc", "OpenID Connect", json.dumps(parameters)))
    config = os.path.join(folder, "glewlwyd.conf")
    with open(config, "w") as file:
        file.write(f"""port={port}
bind_address="127.0.0.1"
external_url="http://127.0.0.1:{port}"
login_url="login.html"
api_prefix="api"
log_mode="file"
log_level="ERROR"
log_file="{folder}/glewlwyd.log"
cookie_secure=0
session_expiration=2419200
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="/usr/lib/glewlwyd/user"
client_module_path="/usr/lib/glewlwyd/client"
user_auth_scheme_module_path="/usr/lib/glewlwyd/scheme"
plugin_module_path="/usr/lib/glewlwyd/plugin"
hash_algorithm="SHA512"
database = {{
  type = "sqlite3"
  path = "{database}"
}}
""")
    return ["glewlwyd", "--config-file=" + config]


def set_up_glewlwyd(base):
    """One public client and one person who granted it `openid`; returns the person's session cookie."""
    admin = Session(base)
    status, _, body = admin.call("POST", "/api/auth/", {"username": "admin", "password": "password"})
    assert status == 200, f"glewlwyd's admin login: HTTP {status} {body}"
    status, _, body = admin.call("POST", "/api/user/", {
        "username": "ada", "password": PASSWORD, "name": "Ada Lovelace", "email": "ada@example.com",
        "scope": ["openid", "g_profile"], "enabled": True})
    assert status == 200, f"glewlwyd's user: HTTP {status} {body}"
    status, _, body = admin.call("POST", "/api/client/", {
        "client_id": "bench", "name": "Bench", "confidential": False, "redirect_uri": [REDIRECT_URI],
        "authorization_type": ["code", "refresh_token"], "scope": [], "enabled": True})
    assert status == 200, f"glewlwyd's client: HTTP {status} {body}"
    person = Session(base)
    status, _, body = person.call("POST", "/api/auth/", {"username": "ada", "password": PASSWORD})
    assert status == 200, f"glewlwyd's person login: HTTP {status} {body}"
    status, _, body = person.call("PUT", "/api/auth/grant/bench", {"scope": "openid"})
    assert status == 200, f"glewlwyd's grant: HTTP {status} {body}"
    return person


def code_and_token(session, base, authorize, token_path, client_id, scope, redirect_uri, prompt):
    """One code through `authorize` with the session's cookie, exchanged for tokens."""
    verifier = base64.urlsafe_b64encode(os.urandom(48)).rstrip(b"=").decode()
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    status, headers, body = session.call("GET", authorize + "?" + urllib.parse.urlencode({
        "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri, "scope": scope, "state": "s",
        "nonce": "n", "code_challenge": challenge, "code_challenge_method": "S256", **({"prompt": prompt} if prompt else {}),
        **({"g_continue": ""} if authorize.startswith("/api/") else {})}))
    location = headers.get("Location", "")
    code = urllib.parse.parse_qs(urllib.parse.urlparse(location).query).get("code", [None])[0]
    assert code, f"no code from {authorize}: HTTP {status} {location} {body[:300]}"
    status, _, body = Session(base).call("POST", token_path, form={
        "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "client_id": client_id,
        "code_verifier": verifier})
    assert status == 200, f"{token_path}: HTTP {status} {body}"
    return json.loads(body)


def token_rates(driver, base, client_id, cookie, pid, authorize, token_path, scope, redirect_uri, prompt):
    answer = subprocess.run([driver, base, client_id, redirect_uri, cookie, str(pid), "8", "16", "--authorize", authorize,
                             "--token", token_path, "--scope", scope, "--prompt", prompt, "--rates-only"]
                            + (["--continue"] if authorize.startswith("/api/") else []), capture_output=True, text=True)
    if answer.returncode != 0:
        raise SystemExit(f"OpenIDThroughput against {base} failed:\n{answer.stderr[-2000:]}")
    return json.loads(answer.stdout)


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--starts", type=int, default=11, help="starts timed for each server (the median is reported)")
    arguments.add_argument("--kinship", help="a built kinship executable (default: build it in release mode)")
    options = arguments.parse_args()
    ensure_wrk()
    ensure_glewlwyd()
    kinship = os.path.abspath(options.kinship) if options.kinship else release_binary("kinship")
    driver = release_binary("OpenIDThroughput", package_path=os.path.join(HERE))
    folder = tempfile.mkdtemp(prefix="kinship-bench-peer-")
    rows = {}

    # Kinship: the demo's public app, Ada logged in to it once.
    database = os.path.join(folder, "kinship.sqlite")
    server, base, banner = start_server(kinship, database, folder, log_level="warning",
                                        extra=("--graph-calls-per-user", "100000000", "--graph-calls-per-app", "100000000"))
    try:
        time.sleep(1)
        kinship_idle = resident_mib(server.pid)
        client_id = banner.split("client_id=")[1].split()[0]
        redirect = f"http://127.0.0.1:{free_port()}/callback"
        person = Browser(base)
        complete_dialog(person, "/dialog/oauth?" + urllib.parse.urlencode({
            "client_id": client_id, "redirect_uri": redirect, "response_type": "code", "scope": "openid profile",
            "state": "s", "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "S256"}),
            "ada@example.com", PASSWORD)
        jar = next(handler.cookiejar for handler in person.opener.handlers if hasattr(handler, "cookiejar"))
        cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
        session = Session(base)
        for c in jar:
            session.jar.set_cookie(c)
        token = code_and_token(session, base, "/dialog/oauth", "/oauth/access_token", client_id, "openid profile", redirect, "none")
        print("==> Kinship: code exchanges and refresh grants", flush=True)
        rows["kinship", "tokens"] = token_rates(driver, base, client_id, cookie, server.pid, "/dialog/oauth", "/oauth/access_token",
                                                "openid profile", redirect, "none")
        print("==> Kinship: UserInfo, wrk for 10 s", flush=True)
        wrk(base + "/userinfo", 3, 64, 1, server.pid, token["access_token"])
        rows["kinship", "userinfo"] = wrk(base + "/userinfo", 10, 64, 1, server.pid, token["access_token"])
    finally:
        stop(server)

    # glewlwyd: its OpenID Connect plugin, one client, one person.
    port = free_port()
    command = prepare_glewlwyd(folder, port)
    glewlwyd_base = f"http://127.0.0.1:{port}"
    process, _ = first_answer(command, port, folder, path="/api/oidc/.well-known/openid-configuration")
    try:
        person = set_up_glewlwyd(glewlwyd_base)
        time.sleep(1)
        glewlwyd_idle = resident_mib(process.pid)
        # glewlwyd answers prompt=none without an id_token_hint with an error; with g_continue (what its
        # login page sends back) the person's session and grant give the code at once.
        token = code_and_token(person, glewlwyd_base, "/api/oidc/auth", "/api/oidc/token", "bench", "openid", REDIRECT_URI, "")
        print("==> glewlwyd: code exchanges and refresh grants", flush=True)
        rows["glewlwyd", "tokens"] = token_rates(driver, glewlwyd_base, "bench", person.cookie_header(), process.pid,
                                                 "/api/oidc/auth", "/api/oidc/token", "openid", REDIRECT_URI, "")
        print("==> glewlwyd: UserInfo, wrk for 10 s", flush=True)
        wrk(glewlwyd_base + "/api/oidc/userinfo", 3, 64, 1, process.pid, token["access_token"])
        rows["glewlwyd", "userinfo"] = wrk(glewlwyd_base + "/api/oidc/userinfo", 10, 64, 1, process.pid, token["access_token"])
    finally:
        stop(process)

    print(f"==> start to first answer on the existing databases, {options.starts} starts each", flush=True)
    starts = {"kinship": [], "glewlwyd": []}
    for _ in range(options.starts):
        kinship_port = free_port()
        started, seconds = first_answer([kinship, "serve", "--port", str(kinship_port), "--database", database,
                                         "--log-level", "warning"], kinship_port, folder)
        starts["kinship"].append(seconds)
        stop(started)
        started, seconds = first_answer(command, port, folder, path="/api/oidc/.well-known/openid-configuration")
        starts["glewlwyd"].append(seconds)
        stop(started)
    shutil.rmtree(folder, ignore_errors=True)

    table = [
        ("code exchanges per second (RS256 id_token)", rows["kinship", "tokens"]["exchanges_per_second"],
         rows["glewlwyd", "tokens"]["exchanges_per_second"], True, "{:,.0f}"),
        ("refresh grants per second", rows["kinship", "tokens"]["refreshes_per_second"],
         rows["glewlwyd", "tokens"]["refreshes_per_second"], True, "{:,.0f}"),
        ("UserInfo requests per second", rows["kinship", "userinfo"][0], rows["glewlwyd", "userinfo"][0], True, "{:,.0f}"),
        ("UserInfo p99 latency (ms)", rows["kinship", "userinfo"][1], rows["glewlwyd", "userinfo"][1], False, "{:.2f}"),
        ("idle memory (MiB resident)", kinship_idle, glewlwyd_idle, False, "{:.1f}"),
        ("start to first answer (ms)", statistics.median(starts["kinship"]) * 1000,
         statistics.median(starts["glewlwyd"]) * 1000, False, "{:.0f}"),
    ]
    print(f"\nKinship beside glewlwyd 2.7.5 (C), both on SQLite, RS256 with 2048-bit keys, the load on the same "
          f"{os.cpu_count()} cores")
    print(f"{'':46}{'Kinship':>12}{'glewlwyd':>12}{'Kinship ahead':>16}")
    behind = []
    for label, ours, theirs, higher_is_better, shape in table:
        lead = ours / theirs if higher_is_better else theirs / ours
        ahead = lead > 1
        if not ahead:
            behind.append(label)
        print(f"{label:46}{shape.format(ours):>12}{shape.format(theirs):>12}{lead:>14.2f}× {'✓' if ahead else '✗ BEHIND'}")
    if behind:
        print("behind: " + "; ".join(behind))
    return 1 if behind else 0


if __name__ == "__main__":
    sys.exit(main())
