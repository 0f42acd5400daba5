#!/usr/bin/env python3
"""Issue 17, item 5: the platform at 10,000, 100,000 and 1,000,000 people.

For each size and engine, `kinship populate` builds a platform (people in several scripts, about 50
friends each on a skewed curve with some at 5,000, an app for every 50 people, logins, pending
requests), then a release-built `kinship serve --explain-queries` serves it and each busy path is
timed one request after another, as one person would wait for it, for `typical` (a person with about
50 friends; the busiest person is timed too, for the record):

  GET /me · GET /me/friends (first page, a middle page) · a friend request and its acceptance on
  /account/friends · a login through the dialog (login form, consent, code exchange; bcrypt at cost
  12) · the people search on /account/friends · the sample app's friend picker JSON

Prints the median of each at each size, the curve's ratio (largest size ÷ smallest), the database's
size per million people and the time to build it. Targets: no path of the typical person more than
2× slower at the largest size than at the smallest; no statement served reads a whole table (the
plans `--explain-queries` wrote are printed). Exits non-zero when one is missed.

Run from the repository root:
  python3 Benchmarks/scale.py                                   # SQLite, 10k/100k/1M
  python3 Benchmarks/scale.py --postgres postgres://…          # and PostgreSQL (a database is made there)
  python3 Benchmarks/scale.py --sizes 2000,20000 --requests 50  # a quick look
"""
import argparse
import base64
import hashlib
import json
import os
import re
import secrets
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts", "e2e"))
from kinship_e2e import Browser, complete_dialog, forms_of, fresh_postgres, start_server, stop  # noqa: E402
from bench_support import release_binary  # noqa: E402

PASSWORD = "kinship-demo"
SAMPLE_APP_ID = "1"
FLAGSHIP = ("200000000000000", "https://app1.example.com/callback")  # App 1: four people in five use it


def timed(function, count):
    """Milliseconds of each of `count` calls, after three not counted."""
    for _ in range(3):
        function()
    times = []
    for _ in range(count):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1000)
    return times


def token_for(base, email, scope="email user_friends"):
    """A token for App 1 through the dialog (PKCE), as App 1's own client would get one."""
    app_id, redirect_uri = FLAGSHIP
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    location = complete_dialog(Browser(base), "/dialog/oauth?" + urllib.parse.urlencode({
        "client_id": app_id, "redirect_uri": redirect_uri, "response_type": "code", "scope": scope, "state": "s",
        "code_challenge": challenge, "code_challenge_method": "S256"}), email, PASSWORD)
    code = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)["code"][0]
    return json.loads(urllib.request.urlopen(base + "/oauth/access_token", data=urllib.parse.urlencode({
        "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "client_id": app_id,
        "code_verifier": verifier}).encode()).read())["access_token"]


def graph(base, path, token):
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def logged_in_browser(base, email):
    browser = Browser(base)
    _, _, page = browser.request("/login")
    fields = dict(forms_of(page)["/login"]["fields"])
    fields.update({"login": email, "password": PASSWORD})
    status, _, _ = browser.request("/login", fields)
    assert status == 303, f"logging in as {email} failed (HTTP {status})"
    return browser


def csrf(browser):
    _, _, page = browser.request("/account/friends")
    return dict(forms_of(page)["/account/friends"]["fields"])["csrf_token"]


def friends_pages(base, token):
    """Every page of the person's friends through App 1 (10 a page, so a typical person has several): the paths of each page."""
    paths, path = [], "/me/friends?limit=10"
    while path:
        paths.append(path)
        answer = graph(base, path, token)
        following = answer.get("paging", {}).get("next")
        path = following[len(base):] if following else None
    return paths


def consent_sample(database, friend_ids, now):
    """The probe's friends use the sample app too (as they would have logged in to it), so its
    picker has friends to list; written straight into the generated database."""
    rows = [(f"sample-{index}", friend, SAMPLE_APP_ID, now) for index, friend in enumerate(friend_ids)]
    permissions = [(login, "user_friends", "granted", now) for login, _, _, _ in rows]
    if database.startswith("postgres"):
        values = ",".join(f"('{a}','{b}','{c}',{d})" for a, b, c, d in rows)
        grants = ",".join(f"('{a}','{b}','{c}',{d})" for a, b, c, d in permissions)
        sql = (f"INSERT INTO authorizations (id, user_id, app_id, created_at) VALUES {values};"
               f"INSERT INTO authorization_permissions (authorization_id, permission, status, updated_at) VALUES {grants};")
        subprocess.run(["psql", database, "-qAtc", sql], check=True, capture_output=True)
    else:
        with sqlite3.connect(database) as connection:
            connection.executemany("INSERT INTO authorizations (id, user_id, app_id, created_at) VALUES (?, ?, ?, ?)", rows)
            connection.executemany(
                "INSERT INTO authorization_permissions (authorization_id, permission, status, updated_at) VALUES (?, ?, ?, ?)",
                permissions)


def database_bytes(database):
    if database.startswith("postgres"):
        return int(subprocess.run(["psql", database, "-qAtc", "SELECT pg_database_size(current_database())"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    return sum(os.path.getsize(database + suffix) for suffix in ("", "-wal") if os.path.exists(database + suffix))


def measure(kinship, database, folder, size, requests):
    """Builds the platform, serves it, times each path; returns (times by path, facts, full scans)."""
    print(f"==> kinship populate --people {size:,}", flush=True)
    started = time.perf_counter()
    made = subprocess.run([kinship, "populate", "--people", str(size), "--database", database], capture_output=True, text=True)
    if made.returncode != 0:
        raise SystemExit("kinship populate failed:\n" + made.stderr[-3000:])
    build_seconds = time.perf_counter() - started
    report = json.loads(made.stdout)
    probes = {probe["role"]: probe for probe in report["probes"]}
    size_bytes = database_bytes(database)
    print(f"    {report['friendships']:,} friendships, {report['logins']:,} logins in {build_seconds:.0f} s; "
          f"{size_bytes / 1e9:.2f} GB", flush=True)

    plans_file = os.path.join(folder, f"plans-{size}.txt")
    unlimited = ("--graph-calls-per-user", "100000000", "--graph-calls-per-app", "100000000", "--explain-queries", plans_file,
                 "--failed-logins-per-address", "100000", "--signups-per-address", "100000")
    server, base, _ = start_server(kinship, database, folder, log_level="warning", extra=unlimited)
    times = {}
    try:
        typical, busiest = probes["typical"], probes["busiest"]
        token = token_for(base, typical["email"])
        busy_token = token_for(base, busiest["email"])
        friend_ids = [friend["id"] for path in friends_pages(base, token) for friend in graph(base, path, token)["data"]]
        print(f"    typical: {typical['friends']} friends, {len(friend_ids)} of them on App 1; busiest: {busiest['friends']}",
              flush=True)
        times["GET /me"] = timed(lambda: graph(base, "/me?fields=id,name,email", token), requests)
        pages = friends_pages(base, token)
        times["GET /me/friends, first page"] = timed(lambda: graph(base, pages[0], token), requests)
        times["GET /me/friends, a middle page"] = timed(lambda: graph(base, pages[len(pages) // 2], token), requests)
        busy_pages = friends_pages(base, busy_token)
        times["busiest: /me/friends, a middle page"] = timed(lambda: graph(base, busy_pages[len(busy_pages) // 2], busy_token),
                                                            max(5, requests // 10))

        me = logged_in_browser(base, typical["email"])
        strangers = [str(100_000_000_000_000 + index) for index in range(0, size, max(1, size // (requests + 10)))]
        strangers = [stranger for stranger in strangers if stranger not in friend_ids and stranger != typical["id"]][:requests + 3]
        asked = iter(strangers)
        form_token = csrf(me)
        times["friend request"] = timed(lambda: me.request("/account/friends", {
            "csrf_token": form_token, "action": "request", "user_id": next(asked)}), requests)
        accepting = iter(strangers)

        def accept():
            stranger = next(accepting)
            browser = logged_in_browser(base, f"person{int(stranger) - 100_000_000_000_000}@people.example")
            token_field = csrf(browser)
            started = time.perf_counter()
            browser.request("/account/friends", {"csrf_token": token_field, "action": "accept", "user_id": typical["id"]})
            return time.perf_counter() - started
        accepts = [accept() * 1000 for _ in range(min(len(strangers), requests + 3))][3:]
        times["accepting a request"] = accepts
        times["a login (dialog, bcrypt 12, exchange)"] = timed(lambda: token_for(base, typical["email"]), max(5, requests // 20))
        word = re.split(r"\s+", graph(base, "/me?fields=name", token)["name"])[0][:3]
        times["people search on /account/friends"] = timed(lambda: me.request("/account/friends?q=" + urllib.parse.quote(word)),
                                                          requests)
        consent_sample(database, friend_ids, int(time.time()))
        def path(location):
            return location[len(base):] if location.startswith("http") else location
        _, headers, _ = me.request("/sample/login")
        me.request(path(complete_dialog(me, path(headers["Location"]), typical["email"], PASSWORD)))
        picker = json.loads(me.request("/sample/friends.json")[2])
        assert picker.get("total", 0) > 0, f"the sample's picker lists nobody: {picker}"
        times["the sample's friend picker JSON"] = timed(lambda: me.request("/sample/friends.json"), requests)
    finally:
        stop(server)
    with open(plans_file) as file:
        plans = file.read()
    scans = [line for line in plans.splitlines() if line.startswith("FULL SCAN")]
    facts = {"build_seconds": build_seconds, "bytes": size_bytes, "friendships": report["friendships"],
             "statements": int(re.match(r"# (\d+)", plans).group(1))}
    return times, facts, scans, plans


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--sizes", default="10000,100000,1000000", help="people at each step, comma-separated")
    arguments.add_argument("--requests", type=int, default=200, help="timed requests of each path at each size")
    arguments.add_argument("--postgres", help="also on this PostgreSQL server (a scratch database is made there)")
    arguments.add_argument("--kinship", help="a built kinship executable (default: build it in release mode)")
    arguments.add_argument("--engines", default="sqlite,postgres",
                           help="which engines to measure (postgres needs --postgres)")
    arguments.add_argument("--keep", action="store_true", help="keep the generated databases (SQLite files) for a look")
    options = arguments.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    kinship = os.path.abspath(options.kinship) if options.kinship else release_binary("kinship")
    engines = [engine for engine in options.engines.split(",") if engine == "sqlite" or (engine == "postgres" and options.postgres)]
    missed = []
    for engine in engines:
        results = {}
        for size in sizes:
            folder = tempfile.mkdtemp(prefix=f"kinship-scale-{size}-")
            database = (fresh_postgres(options.postgres, f"kinship_scale_{size}") if engine == "postgres"
                        else os.path.join(folder, "kinship.sqlite"))
            print(f"==> {engine}, {size:,} people", flush=True)
            results[size] = measure(kinship, database, folder, size, options.requests)
            if not options.keep:
                shutil.rmtree(folder, ignore_errors=True)
            times, _, scans, plans = results[size]
            for name, values in times.items():
                print(f"    {name:42} median {statistics.median(values):8.2f} ms", flush=True)
            if scans:
                print(plans)
                missed.append(f"{engine} at {size:,}: {len(scans)} statements read a whole table")

        first, last = sizes[0], sizes[-1]
        print(f"\n{engine}: median milliseconds by people on the platform (one request at a time)")
        print(f"{'':44}" + "".join(f"{size:>12,}" for size in sizes) + f"{'ratio':>9}")
        for name in results[first][0]:
            medians = [statistics.median(results[size][0][name]) for size in sizes]
            ratio = medians[-1] / medians[0]
            judged = not name.startswith("busiest")
            verdict = ("✓" if ratio <= 2 else "✗ MISSED") if judged else "(for the record)"
            print(f"{name:44}" + "".join(f"{median:>12.2f}" for median in medians) + f"{ratio:>8.2f}× {verdict}")
            if judged and ratio > 2:
                missed.append(f"{engine}: {name} {ratio:.2f}× slower at {last:,} than at {first:,}")
        for size in sizes:
            facts = results[size][1]
            print(f"    {size:>10,} people: built in {facts['build_seconds']:.0f} s, {facts['bytes'] / 1e9:.2f} GB "
                  f"({facts['bytes'] / 1e9 * 1_000_000 / size:.2f} GB per million people), {facts['friendships']:,} friendships; "
                  f"{facts['statements']} distinct statements served, {len(results[size][2])} reading a whole table")
    if missed:
        print("missed: " + "; ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
