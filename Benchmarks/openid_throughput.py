#!/usr/bin/env python3
"""Issue 14's benchmark, side by side in one run on SQLite (release-built `kinship serve`):

1. GET /userinfo against GET /me with the same token, alternating wrk runs (64 connections),
   medians of 3 rounds: requests/s, p99 and server CPU per request; target /userinfo ≥ 90% of /me.
2. The token endpoint, driven by Benchmarks/Sources/OpenIDThroughput (AsyncHTTPClient): code
   exchanges that sign an RS256 id_token per second next to bare RS256 signing with jwt-kit on the
   same cores (target ≥ 70%), and refresh grants per second. Where the server's CPU per exchange
   went, by kind of thread, with the SQLite writer's next to the floor of its write: the same
   statements through SQLite's C API alone (Benchmarks/Sources/WriterFloor), on a copy of the
   benchmark's database.

--thread-scheduling inherited runs the server with its event loops and SQLite threads left under the
kernel's default policy instead of SCHED_BATCH (`kinship serve --thread-scheduling`).

Exits non-zero when a target is missed.

Run from the repository root:  python3 Benchmarks/openid_throughput.py [--thread-scheduling inherited]
"""
import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts", "e2e"))
from kinship_e2e import Browser, admin, complete_dialog, demo_credentials, free_port, log_in, start_server, stop  # noqa: E402
from bench_support import alternate, release_binary  # noqa: E402
from graph_throughput import ensure_wrk, wrk  # noqa: E402


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--seconds", type=int, default=8, help="length of each wrk run and of the refresh run")
    arguments.add_argument("--rounds", type=int, default=3, help="alternating wrk runs of each route; medians are reported")
    arguments.add_argument("--connections", type=int, default=64)
    arguments.add_argument("--concurrency", type=int, default=16, help="concurrent clients of the token endpoint")
    arguments.add_argument("--kinship", help="a built kinship executable (default: build it in release mode)")
    arguments.add_argument("--thread-scheduling", choices=["batch", "inherited"], default="batch",
                           help="the server's --thread-scheduling (default: batch, the server's default)")
    options = arguments.parse_args()

    ensure_wrk()
    kinship = os.path.abspath(options.kinship) if options.kinship else release_binary("kinship")
    driver = release_binary("OpenIDThroughput", package_path="Benchmarks")
    writer_floor = release_binary("WriterFloor", package_path="Benchmarks")
    folder = tempfile.mkdtemp(prefix="kinship-bench-oidc-")
    database = os.path.join(folder, "kinship.sqlite")
    unlimited = ("--graph-calls-per-user", "100000000", "--graph-calls-per-app", "100000000",
                 "--thread-scheduling", options.thread_scheduling)
    server, base, banner = start_server(kinship, database, folder, log_level="warning", extra=unlimited)
    runs = {"me": [], "userinfo": []}
    try:
        redirect_uri = f"http://127.0.0.1:{free_port()}/callback"
        code, out, err = admin(kinship, database, "apps", "create", "--name", "Bench Native", "--redirect-uri", "http://127.0.0.1/callback")
        if code != 0:
            raise SystemExit("apps create failed: " + err)
        app_id = json.loads(out)["client_id"]
        browser = Browser(base)
        first = complete_dialog(browser, "/dialog/oauth?" + urllib.parse.urlencode({
            "client_id": app_id, "redirect_uri": redirect_uri, "response_type": "code", "scope": "openid profile email",
            "state": "bench", "nonce": "bench", "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            "code_challenge_method": "S256"}), "ada@example.com", "kinship-demo")
        if "code=" not in first:
            raise SystemExit("the first consent gave no code: " + first)
        jar = next(handler.cookiejar for handler in browser.opener.handlers if hasattr(handler, "cookiejar"))
        floor = writer_floor_us(writer_floor, database, app_id, folder)
        cookie = "; ".join(f"{c.name}={c.value}" for c in jar)

        demo_id, _ = demo_credentials(banner)
        user_token = log_in(base, demo_id, "ada@example.com", "kinship-demo", "openid,email")["access_token"]
        load = (options.connections, 1)
        routes = {
            "me": lambda seconds: wrk(base + "/me?fields=id,name,email", seconds, *load, server.pid, user_token),
            "userinfo": lambda seconds: wrk(base + "/userinfo", seconds, *load, server.pid, user_token),
        }
        alternate(routes, runs, options.rounds, options.seconds)
        token_endpoint = subprocess.run([driver, base, app_id, redirect_uri, cookie, str(server.pid), str(options.seconds),
                                         str(options.concurrency), "--writer-floor-us", str(floor)])
    finally:
        stop(server)

    medians = {name: [statistics.median(run[column] for run in values) for column in range(3)] for name, values in runs.items()}
    ratio = medians["userinfo"][0] / medians["me"][0]
    print(f"\nUserInfo beside /me: {options.connections} connections, {options.rounds} rounds of {options.seconds} s, SQLite, "
          f"wrk on the same {os.cpu_count()} cores, thread scheduling {options.thread_scheduling}")
    print(f"{'':36}{'requests/s':>12}{'p99 latency':>14}{'server CPU':>16}")
    for name, label in {"me": "GET /me?fields=id,name,email", "userinfo": "GET /userinfo (profile, email)"}.items():
        rate, p99, cpu = medians[name]
        print(f"{label:36}{rate:>12,.0f}{p99:>11.2f} ms{cpu:>10.1f} µs/req")
    print(f"ratio /userinfo ÷ /me: {ratio:.0%}   target ≥ 90% {'✓' if ratio >= 0.9 else '✗ MISSED'}")
    return 0 if ratio >= 0.9 and token_endpoint.returncode == 0 else 1


def writer_floor_us(writer_floor, database, app_id, folder):
    """The CPU of an exchange's write through SQLite alone, on a copy of the server's database (its
    schema, and the app's login the exchanges use), in µs."""
    copy = os.path.join(folder, "writer-floor.sqlite")
    with sqlite3.connect(database) as source:
        source.execute("VACUUM INTO ?", (copy,))
    print("==> the SQLite floor of an exchange's write (WriterFloor, a copy of the database)", flush=True)
    answer = subprocess.run([writer_floor, copy, app_id], capture_output=True, text=True)
    if answer.returncode != 0:
        raise SystemExit("WriterFloor failed: " + answer.stderr.strip())
    return json.loads(answer.stdout)["write_cpu_us"]


if __name__ == "__main__":
    sys.exit(main())
