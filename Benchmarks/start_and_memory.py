#!/usr/bin/env python3
"""How fast `kinship serve` starts on an existing database, how much memory it holds idle, and
whether its memory grows under load — each beside the bare Hummingbird application
(Benchmarks/Sources/BareHummingbird) measured in the same run.

1. Start to first answer: `kinship serve` on an existing SQLite database (made by a first run with
   the demo data), from the process's start to the first 200 from /healthz, median of --starts
   runs. Target ≤ 300 ms. The bare application's figure is printed beside it.
2. Idle memory: resident set size one second after the first answer. Target ≤ 1.5× the bare
   application's. The part that is the process's own memory (`RssAnon`, not the pages of its
   executable and shared libraries) is printed too.
3. No growth: resident set size after 100,000 and after 1,000,000 GET /me requests (wrk, 64
   connections, a token check and a profile each). Target: within 10%.

Exits non-zero when a target is missed. Run from the repository root:
    python3 Benchmarks/start_and_memory.py [--starts 11] [--kinship PATH]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts", "e2e"))
from kinship_e2e import demo_credentials, free_port, log_in, start_server, stop  # noqa: E402
from bench_support import release_binary  # noqa: E402
from graph_throughput import ensure_wrk, wrk  # noqa: E402

UNLIMITED = ("--graph-calls-per-user", "1000000000", "--graph-calls-per-app", "1000000000")


def resident_mib(pid, kind="VmRSS"):
    """The process's resident set size (`VmRSS`), or one part of it (`RssAnon`: its own memory,
    not the pages of its executable and libraries), in MiB."""
    with open(f"/proc/{pid}/status") as status:
        kilobytes = int(re.search(kind + r":\s+(\d+) kB", status.read()).group(1))
    return kilobytes / 1024


def first_answer(command, port, cwd, path="/healthz"):
    """Starts `command`, returns (process, seconds from its start to the first 200 from `path`)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}{path}"
    while time.perf_counter() - started < 30:
        try:
            with urllib.request.urlopen(url, timeout=1) as answer:
                if answer.status == 200:
                    return process, time.perf_counter() - started
        except OSError:
            time.sleep(0.001)
    process.kill()
    raise SystemExit(f"{command[0]} did not answer within 30 s")


def requests_until(base, token, server_pid, total, done):
    """Runs wrk against GET /me until `total` requests have been answered in all; returns the count."""
    while done < total:
        done += wrk(base + "/me?fields=id,name,email", 5, 64, 1, server_pid, token)[3]
    return done


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--starts", type=int, default=11, help="starts measured (the median is reported)")
    arguments.add_argument("--kinship", help="a built kinship executable (default: build it in release mode)")
    options = arguments.parse_args()

    ensure_wrk()
    kinship = os.path.abspath(options.kinship) if options.kinship else release_binary("kinship")
    bare = release_binary("BareHummingbird", package_path=HERE)
    folder = tempfile.mkdtemp(prefix="kinship-start-bench-")
    database = os.path.join(folder, "kinship.sqlite")
    try:
        print("==> a first run makes the database and the demo data", flush=True)
        server, _, demo_banner = start_server(kinship, database, folder, log_level="warning")
        stop(server)

        print(f"==> {options.starts} starts of each, to the first answer", flush=True)
        ours, theirs = [], []
        for _ in range(options.starts):
            port = free_port()
            process, seconds = first_answer([kinship, "serve", "--database", database, "--port", str(port), "--log-level", "warning"],
                                            port, folder)
            ours.append(seconds)
            stop(process)
            port = free_port()
            process, seconds = first_answer([bare, str(port)], port, folder)
            theirs.append(seconds)
            stop(process)

        print("==> idle memory, then 1,000,000 GET /me", flush=True)
        server, base, _ = start_server(kinship, database, folder, log_level="warning", extra=UNLIMITED)
        port = free_port()
        floor, _ = first_answer([bare, str(port)], port, folder)
        time.sleep(1)
        idle, floor_idle = resident_mib(server.pid), resident_mib(floor.pid)
        anonymous, floor_anonymous = resident_mib(server.pid, "RssAnon"), resident_mib(floor.pid, "RssAnon")
        stop(floor)
        token = log_in(base, demo_credentials(demo_banner)[0], "ada@example.com", "kinship-demo", "email")["access_token"]
        done = requests_until(base, token, server.pid, 100_000, 0)
        after_100k, count_100k = resident_mib(server.pid), done
        done = requests_until(base, token, server.pid, 1_000_000, done)
        after_1m = resident_mib(server.pid)
        stop(server)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    start, floor_start = statistics.median(ours) * 1000, statistics.median(theirs) * 1000
    growth = after_1m / after_100k - 1
    start_ok, idle_ok, growth_ok = start <= 300, idle <= 1.5 * floor_idle, growth <= 0.10
    print(f"\nStart and memory, {os.cpu_count()} cores")
    print(f"{'':44}{'kinship serve':>16}{'bare Hummingbird':>18}")
    print(f"{'start to first answer (median)':44}{start:>13.0f} ms{floor_start:>15.0f} ms   "
          f"target ≤ 300 ms {'✓' if start_ok else '✗ MISSED'}")
    print(f"{'idle resident memory':44}{idle:>12.1f} MiB{floor_idle:>14.1f} MiB   "
          f"ratio {idle / floor_idle:.2f}×, target ≤ 1.5× {'✓' if idle_ok else '✗ MISSED'}")
    print(f"{'  of which its own (not code or libraries)':44}{anonymous:>12.1f} MiB{floor_anonymous:>14.1f} MiB")
    print(f"{f'after {count_100k:,} GET /me':44}{after_100k:>12.1f} MiB")
    print(f"{f'after {done:,} GET /me':44}{after_1m:>12.1f} MiB   growth {growth:+.1%}, target ≤ 10% "
          f"{'✓' if growth_ok else '✗ MISSED'}")
    sys.exit(0 if start_ok and idle_ok and growth_ok else 1)


if __name__ == "__main__":
    main()
