#!/usr/bin/env python3
"""Kinship under load, attack and faults, against real `kinship serve` processes.

  crash    64 workers sign up, log in through the dialog and exchange codes with PKCE; the server
           is killed with SIGKILL in the middle and restarted on the same database: every token a
           client received still works, every code it received can be exchanged exactly once, and
           the database is consistent (SQLite's integrity check, no half-made grant). SQLite and
           PostgreSQL.
  outage   PostgreSQL is stopped for 10 seconds under load and started again: meanwhile answers
           are 503 with Retry-After, never a 500 and never later than the time limit; afterwards
           the same server answers normally.
  load     60 seconds of mixed traffic on 256 connections (wrk): no error, and the server's
           memory after it within 10% of before (measured after a 20-second warm-up).
  slow     500 connections send their headers a byte at a time: everyone else is answered within
           a second, and the idle timeout closes the slow ones.

Each part prints its figures and its checks; the exit status says whether all passed.
"""
import argparse
import base64
import hashlib
import os
import re
import secrets
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

import requests

from kinship_e2e import Checks, demo_credentials, forms_of, fresh_postgres, log_in, start_server, stop

WORKERS = 64
PASSWORD = "storm password 1"


def csrf_of(page):
    match = re.search(r'name="csrf_token" value="([^"]+)"', page)
    return match.group(1) if match else None


class Person:
    """One person at their own browser: a session with its cookies, a connection of its own."""

    def __init__(self, base, client_id):
        self.base = base
        self.client_id = client_id
        self.http = requests.Session()

    def get(self, path, **options):
        return self.http.get(self.base + path, allow_redirects=False, timeout=30, **options)

    def post(self, path, data, **options):
        return self.http.post(self.base + path, data=data, allow_redirects=False, timeout=30, **options)

    def sign_up(self, email):
        page = self.get("/signup")
        answer = self.post("/signup", {"csrf_token": csrf_of(page.text), "name": "Storm " + email.split("@")[0],
                                       "email": email, "password": PASSWORD, "password_again": PASSWORD})
        if answer.status_code != 303:
            raise RuntimeError(f"sign-up: HTTP {answer.status_code}")

    def authorize(self, email):
        """The dialog as a logged-in person (logging in when asked); returns code, verifier, redirect URI."""
        verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        redirect_uri = "http://127.0.0.1:9/callback"
        dialog = "/dialog/oauth?" + urllib.parse.urlencode({
            "client_id": self.client_id, "redirect_uri": redirect_uri, "response_type": "code", "scope": "email,user_friends",
            "state": "s", "code_challenge": challenge, "code_challenge_method": "S256"})
        page = self.get(dialog)
        forms = forms_of(page.text)
        if "/dialog/login" in forms:
            fields = dict(forms["/dialog/login"]["fields"])
            fields.update({"login": email, "password": PASSWORD})
            answer = self.post("/dialog/login", fields)
            if answer.status_code != 303:
                raise RuntimeError(f"dialog login: HTTP {answer.status_code}")
            page = self.get(answer.headers["Location"])
            forms = forms_of(page.text)
        if page.status_code != 200 or "/dialog/oauth/confirm" not in forms:
            raise RuntimeError(f"consent page: HTTP {page.status_code}")
        consent = forms["/dialog/oauth/confirm"]
        fields = list(consent["fields"]) + [(n, v) for n, v, checked in consent["checkboxes"] if checked] + [("action", "continue")]
        answer = self.post("/dialog/oauth/confirm", fields)
        if answer.status_code != 303:
            raise RuntimeError(f"consent: HTTP {answer.status_code}")
        code = urllib.parse.parse_qs(urllib.parse.urlparse(answer.headers["Location"]).query)["code"][0]
        return code, verifier, redirect_uri

    def exchange(self, code, verifier, redirect_uri):
        answer = self.http.post(self.base + "/oauth/access_token", timeout=30, data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "client_id": self.client_id,
            "code_verifier": verifier})
        return answer.status_code, answer.json()


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


def sql_value(database, query):
    if database.startswith("postgres"):
        return subprocess.run(["psql", database, "-qAtc", query], check=True, capture_output=True, text=True).stdout.strip()
    with sqlite3.connect(database) as connection:
        return "\n".join("|".join(str(value) for value in row) for row in connection.execute(query).fetchall())


# MARK: - crash

def crash(kinship, database, folder, check, engine):
    print(f"==> crash safety on {engine}: a login storm of {WORKERS} workers, SIGKILL in the middle", flush=True)
    extra = ["--bcrypt-cost", "4", "--signups-per-address", "100000", "--failed-logins-per-address", "100000"]
    process, base, banner = start_server(kinship, database, folder, extra=extra)
    client_id, _ = demo_credentials(banner)
    received, held, failures = [], [], []
    lock = threading.Lock()
    killed = threading.Event()

    def worker(index):
        person = Person(base, client_id)
        email = f"storm{index}-{secrets.token_hex(3)}@example.com"
        rounds = 0
        try:
            person.sign_up(email)
            person.http.cookies.clear()
            while not killed.is_set():
                code, verifier, redirect_uri = person.authorize(email)
                rounds += 1
                if rounds % 8 == 0:
                    with lock:
                        held.append((code, verifier, redirect_uri))
                    continue
                status, answer = person.exchange(code, verifier, redirect_uri)
                if status != 200:
                    raise RuntimeError(f"token exchange: HTTP {status} {answer}")
                with lock:
                    received.append(answer["access_token"])
                if rounds % 5 == 0:
                    person.http.cookies.clear()
        except (requests.ConnectionError, requests.Timeout, KeyError):
            if not killed.is_set():
                with lock:
                    failures.append(f"worker {index}: connection lost before the kill")
        except RuntimeError as error:
            if not killed.is_set():
                with lock:
                    failures.append(f"worker {index}: {error}")

    threads = [threading.Thread(target=worker, args=(index,), daemon=True) for index in range(WORKERS)]
    started = time.time()
    for thread in threads:
        thread.start()
    backup, backed_up = os.path.join(folder, f"backup-{secrets.token_hex(3)}.sqlite"), None
    while time.time() - started < 60 and len(received) < 400 and not failures:
        if engine == "SQLite" and backed_up is None and len(received) >= 150:
            # Taken mid-storm by an operator's command: the server's writes go on meanwhile.
            backed_up = subprocess.run([kinship, "backup", backup, "--database", database], capture_output=True, text=True, timeout=120)
        time.sleep(0.2)
    elapsed = time.time() - started
    killed.set()
    process.kill()
    process.wait()
    for thread in threads:
        thread.join(timeout=30)
    tokens, codes = list(received), list(held)
    print(f"    {len(tokens)} tokens and {len(codes)} unexchanged codes in {elapsed:.1f} s "
          f"({len(tokens) / elapsed:.0f} tokens/s) before SIGKILL", flush=True)
    check(f"{engine}: the storm ran at {WORKERS} workers with no error before the kill", not failures, failures[:5])
    check(f"{engine}: the storm issued tokens", len(tokens) >= 50, len(tokens))

    process, base, _ = start_server(kinship, database, folder, extra=extra)
    try:
        broken = []

        def verify(chunk):
            http = requests.Session()
            for token in chunk:
                answer = http.get(base + "/me", headers={"Authorization": f"Bearer {token}"}, timeout=30)
                if answer.status_code != 200:
                    broken.append((answer.status_code, answer.text[:200]))

        checkers = [threading.Thread(target=verify, args=(tokens[index::8],)) for index in range(8)]
        for thread in checkers:
            thread.start()
        for thread in checkers:
            thread.join()
        check(f"{engine}: every token a client received before the kill works after the restart", not broken, broken[:3])
        person = Person(base, client_id)
        first = [person.exchange(*code)[0] for code in codes]
        again = [person.exchange(*code)[0] for code in codes]
        check(f"{engine}: every code a client received can be exchanged once after the restart",
              first.count(200) == len(first), first)
        check(f"{engine}: and only once", all(status == 400 for status in again), again)
    finally:
        stop(process)
    if engine == "SQLite":
        check("SQLite: kinship backup during the storm succeeded", backed_up is not None and backed_up.returncode == 0,
              backed_up and backed_up.stderr)
        if backed_up is not None and backed_up.returncode == 0:
            check("SQLite: the backup passes PRAGMA integrity_check and foreign_key_check",
                  sql_value(backup, "PRAGMA integrity_check") == "ok" and sql_value(backup, "PRAGMA foreign_key_check") == "")
            copied = sql_value(backup, "SELECT COUNT(*) FROM access_tokens")
            check("SQLite: the backup holds the tokens issued before it, and no half-made grant",
                  int(copied) >= 150 and sql_value(backup, "SELECT COUNT(*) FROM authorizations a WHERE NOT EXISTS "
                                                           "(SELECT 1 FROM authorization_permissions p WHERE p.authorization_id = a.id)") == "0",
                  copied)
            check("SQLite: the backup is readable by its owner only", oct(os.stat(backup).st_mode & 0o777) == "0o600")
        check("SQLite: PRAGMA integrity_check is ok", sql_value(database, "PRAGMA integrity_check") == "ok")
        check("SQLite: no row points at a missing one (foreign_key_check)", sql_value(database, "PRAGMA foreign_key_check") == "")
    half_made = sql_value(database, "SELECT COUNT(*) FROM authorizations a WHERE NOT EXISTS "
                                    "(SELECT 1 FROM authorization_permissions p WHERE p.authorization_id = a.id)")
    check(f"{engine}: no half-made grant: every login holds its permissions", half_made == "0", half_made)
    orphans = sql_value(database, "SELECT COUNT(*) FROM access_tokens t WHERE t.code_hash IS NOT NULL AND NOT EXISTS "
                                  "(SELECT 1 FROM authorization_codes c WHERE c.code_hash = t.code_hash AND c.used_at IS NOT NULL)")
    check(f"{engine}: no token without the used code it came from", orphans == "0", orphans)


# MARK: - outage

def outage(kinship, postgres_url, folder, check):
    print("==> PostgreSQL stopped for 10 s under load, then started again", flush=True)
    data, pg_ctl = os.environ.get("KINSHIP_TEST_POSTGRES_DATA"), os.environ.get("KINSHIP_TEST_PG_CTL")
    if not (data and pg_ctl):
        check("the outage check has the test PostgreSQL to stop (KINSHIP_TEST_POSTGRES_DATA, KINSHIP_TEST_PG_CTL)", False)
        return
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    database = fresh_postgres(postgres_url, "kinship_outage")
    # One token makes every Graph call: lift the per-person limit (error 17) so that only the outage is measured.
    process, base, banner = start_server(kinship, database, folder, extra=[
        "--bcrypt-cost", "4", "--graph-calls-per-user", "100000000", "--graph-calls-per-app", "100000000"])
    client_id, _ = demo_credentials(banner)
    token = log_in(base, client_id, "ada@example.com", "kinship-demo", "user_friends")["access_token"]
    results = []
    lock = threading.Lock()
    finished = threading.Event()
    started = time.time()

    def load(index):
        http = requests.Session()
        while not finished.is_set():
            began = time.time()
            # A quarter of the requests need no database (a page with no session): they go on being answered.
            needs_database = index % 4 != 3
            try:
                if needs_database:
                    answer = http.get(base + ("/me" if index % 2 else "/me/friends"),
                                      headers={"Authorization": f"Bearer {token}"}, timeout=20)
                else:
                    answer = http.get(base + "/signup", timeout=20)
                outcome = (answer.status_code, answer.headers.get("Retry-After"))
            except requests.RequestException as error:
                outcome = ("no answer: " + type(error).__name__, None)
            with lock:
                results.append((began - started, time.time() - began, *outcome, needs_database))
            time.sleep(0.02)

    threads = [threading.Thread(target=load, args=(index,), daemon=True) for index in range(16)]
    for thread in threads:
        thread.start()
    time.sleep(5)
    ready_before = requests.get(base + "/readyz", timeout=10).status_code
    subprocess.run(as_postgres + [pg_ctl, "-D", data, "-m", "fast", "-w", "stop"], check=True, capture_output=True)
    stopped_at = time.time() - started  # once pg_ctl says it has stopped: until then requests may still be served
    time.sleep(1)
    ready_during = requests.get(base + "/readyz", timeout=10)
    time.sleep(max(0.0, stopped_at + 10 - (time.time() - started)))
    starting_at = time.time() - started
    subprocess.run(as_postgres + [pg_ctl, "-D", data, "-l", os.path.join(os.path.dirname(data), "server.log"), "-w", "start"],
                   check=True, capture_output=True)
    back_at = time.time() - started
    time.sleep(12)
    ready_after = requests.get(base + "/readyz", timeout=10).status_code
    finished.set()
    for thread in threads:
        thread.join(timeout=30)
    stop(process)
    check("outage: /readyz says ready before, 503 with Retry-After while PostgreSQL is down, ready once it is back",
          (ready_before, ready_during.status_code, ready_after) == (200, 503, 200) and ready_during.headers.get("Retry-After"),
          (ready_before, ready_during.status_code, ready_after))

    during = [r for r in results if stopped_at + 0.5 <= r[0] <= back_at - 0.5 and r[4]]
    after = [r for r in results if r[0] >= back_at + 5]
    unavailable = [r for r in during if r[2] == 503]
    bad = [r for r in results if not (isinstance(r[2], int) and (r[2] < 500 or r[2] == 503))]
    print(f"    {len(results)} requests: {len(during)} needing the database while it was down ({len(unavailable)} answered 503), "
          f"{len(after)} after it came back; slowest answer {max(r[1] for r in results):.2f} s", flush=True)
    check("outage: no 500 and no request without an answer, before, during or after", not bad, bad[:5])
    # A request may also wait for a connection and be served once PostgreSQL is back, within the limit
    # (PostgreSQL takes connections a little before pg_ctl returns).
    served_late = [r for r in during if r[2] == 200 and r[0] + r[1] >= starting_at]
    check("outage: while PostgreSQL is down, what needs it is answered 503 (or served once it is back)",
          during and len(unavailable) + len(served_late) == len(during), f"{len(unavailable)} of {len(during)}: {sorted({r[2] for r in during})}")
    check("outage: every 503 carries Retry-After", all(r[3] for r in results if r[2] == 503))
    check("outage: every answer comes within the time limit (5 s waiting for a connection, then 503)",
          max(r[1] for r in results) < 6.5, f"{max(r[1] for r in results):.1f} s")
    check("outage: afterwards the same server answers normally", after and all(r[2] in (200, 303) for r in after),
          sorted({r[2] for r in after}))


# MARK: - load

MIXED_TRAFFIC = """
local token, secret, client, user, redirect = os.getenv("KINSHIP_TOKEN"), os.getenv("KINSHIP_SECRET"),
    os.getenv("KINSHIP_CLIENT"), os.getenv("KINSHIP_USER"), os.getenv("KINSHIP_DIALOG")
local bearer = { ["Authorization"] = "Bearer " .. token }
local form = { ["Content-Type"] = "application/x-www-form-urlencoded" }
local exchange = "grant_type=fb_exchange_token&client_id=" .. client .. "&client_secret=" .. secret .. "&fb_exchange_token=" .. token
local counter = 0
request = function()
    counter = counter + 1
    local pick = counter % 20
    if pick < 8 then return wrk.format("GET", "/me?fields=id,name,email", bearer) end
    if pick < 13 then return wrk.format("GET", "/me/friends?limit=25", bearer) end
    if pick < 16 then return wrk.format("GET", "/pictures/" .. user .. "?size=100") end
    if pick < 18 then return wrk.format("GET", redirect) end
    return wrk.format("POST", "/oauth/access_token", form, exchange)
end
"""


def run_wrk(base, folder, seconds, connections, environment):
    script = os.path.join(folder, "mixed_traffic.lua")
    with open(script, "w") as file:
        file.write(MIXED_TRAFFIC)
    completed = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--timeout", "10s", "-s", script, base],
                               capture_output=True, text=True, env={**os.environ, **environment}, timeout=seconds + 120)
    return completed.stdout + completed.stderr


def load(kinship, folder, check):
    print("==> 60 s of mixed traffic on 256 connections (wrk) on SQLite", flush=True)
    database = os.path.join(folder, "load.sqlite")
    process, base, banner = start_server(kinship, database, folder, log_level="warning", extra=[
        "--graph-calls-per-user", "100000000", "--graph-calls-per-app", "100000000"])
    try:
        client_id, client_secret = demo_credentials(banner)
        token = log_in(base, client_id, "ada@example.com", "kinship-demo", "email,user_friends")["access_token"]
        user = requests.get(base + "/me", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()["id"]
        dialog = "/dialog/oauth?" + urllib.parse.urlencode({
            "client_id": client_id, "redirect_uri": "http://127.0.0.1:9/callback", "response_type": "code", "scope": "email",
            "state": "s", "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "S256"})
        environment = {"KINSHIP_TOKEN": token, "KINSHIP_SECRET": client_secret, "KINSHIP_CLIENT": client_id, "KINSHIP_USER": user,
                       "KINSHIP_DIALOG": dialog}
        # The baseline is taken after a short run at the same concurrency: SQLite's page caches and the
        # allocator's arenas fill on first use and stay, which is not growth under load.
        run_wrk(base, folder, 20, 256, environment)
        time.sleep(5)
        before = rss_kib(process.pid)
        output = run_wrk(base, folder, 60, 256, environment)
        time.sleep(5)
        after = rss_kib(process.pid)
        requests_done = re.search(r"(\d+) requests in", output)
        rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
        non_success = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
        socket_errors = re.search(r"Socket errors: (.*)", output)
        print(f"    {requests_done.group(1) if requests_done else '?'} requests, {rate.group(1) if rate else '?'} req/s; "
              f"RSS {before // 1024} MiB before, {after // 1024} MiB after", flush=True)
        check("load: wrk ran", requests_done is not None, output[-2000:])
        check("load: no answer other than 2xx or 3xx", non_success is None, non_success.group(0) if non_success else "")
        check("load: no connect, read, write or timeout error", socket_errors is None, socket_errors.group(0) if socket_errors else "")
        check("load: the server's RSS after the load is within 10% of before", after <= before * 1.10, f"{before} KiB → {after} KiB")
        check("load: the server still answers", requests.get(base + "/healthz", timeout=5).status_code == 200)
    finally:
        stop(process)


# MARK: - slow

def slow(kinship, folder, check):
    print("==> 500 connections sending their headers a byte at a time", flush=True)
    database = os.path.join(folder, "slow.sqlite")
    process, base, banner = start_server(kinship, database, folder, extra=["--idle-timeout", "5"])
    try:
        client_id, _ = demo_credentials(banner)
        token = log_in(base, client_id, "ada@example.com", "kinship-demo", "user_friends")["access_token"]
        port = int(base.rsplit(":", 1)[1])
        slow_sockets = []
        for _ in range(500):
            connection = socket.create_connection(("127.0.0.1", port))
            connection.setblocking(False)
            connection.send(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
            slow_sockets.append(connection)
        closed = set()
        times = []
        http = requests.Session()
        started = time.time()
        next_normal = started
        while time.time() - started < 9:
            for index, connection in enumerate(slow_sockets):
                if index in closed:
                    continue
                try:
                    connection.send(b"X")
                    if connection.recv(1, socket.MSG_PEEK) == b"":
                        closed.add(index)
                except BlockingIOError:
                    pass
                except OSError:
                    closed.add(index)
            if time.time() >= next_normal:
                began = time.time()
                answer = http.get(base + "/me", headers={"Authorization": f"Bearer {token}"}, timeout=10)
                times.append((time.time() - began, answer.status_code))
                next_normal = time.time() + 0.1
            time.sleep(0.05)
        for connection in slow_sockets:
            connection.close()
        slowest = max(seconds for seconds, _ in times)
        print(f"    {len(times)} normal requests, slowest {slowest * 1000:.0f} ms; "
              f"{len(closed)} of 500 slow connections closed by the server", flush=True)
        check("slow: normal requests are answered within 1 s", slowest < 1 and all(status == 200 for _, status in times),
              f"{slowest:.2f} s")
        check("slow: the idle timeout closes the connections that never finish their headers", len(closed) >= 490, len(closed))
    finally:
        stop(process)


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--kinship", required=True, help="path of the built kinship executable")
    arguments.add_argument("--postgres", help="a postgres:// URL of the test server (crash on PostgreSQL, outage)")
    arguments.add_argument("parts", nargs="*", default=["crash", "outage", "load", "slow"], help="which parts to run")
    options = arguments.parse_args()
    kinship = os.path.abspath(options.kinship)
    check = Checks()
    for part in options.parts:
        folder = tempfile.mkdtemp(prefix=f"kinship-{part}-")
        if part == "crash":
            crash(kinship, os.path.join(folder, "crash.sqlite"), folder, check, "SQLite")
            if options.postgres:
                crash(kinship, fresh_postgres(options.postgres, "kinship_crash"), folder, check, "PostgreSQL")
            else:
                check("crash on PostgreSQL needs --postgres", False)
        elif part == "outage":
            if options.postgres:
                outage(kinship, options.postgres, folder, check)
            else:
                check("outage needs --postgres", False)
        elif part == "load":
            load(kinship, folder, check)
        elif part == "slow":
            slow(kinship, folder, check)
        else:
            check(f"unknown part {part}", False)
    failed = len(check.failed)
    print(f"under load: {len(check.results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
