#!/usr/bin/env python3
"""GET /me served by two `kinship serve` processes on one PostgreSQL database, beside one process
on SQLite, in one run: the token checks of both engines are cached in memory (PostgreSQL's kept
right across processes by LISTEN/NOTIFY), so two processes on PostgreSQL should serve /me about as
fast as SQLite does. Target: the two PostgreSQL processes together at ≥ 80% of SQLite's
requests/s.

wrk runs at 64 connections in all (split evenly over the two PostgreSQL processes), each
configuration in turn for a few rounds; medians are reported. Exits non-zero when the target is
missed. Needs a PostgreSQL server (a scratch database is made on it), for example the test one:
    source scripts/lib/packages.sh scripts/lib/postgres.sh; start_test_postgres
    python3 Benchmarks/postgres_processes.py --postgres "$KINSHIP_TEST_POSTGRES_URL"
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts", "e2e"))
from kinship_e2e import demo_credentials, fresh_postgres, log_in, start_server, stop  # noqa: E402
from bench_support import release_binary  # noqa: E402
from graph_throughput import ensure_wrk, wrk  # noqa: E402

UNLIMITED = ("--graph-calls-per-user", "100000000", "--graph-calls-per-app", "100000000")


def together(loads):
    """Runs each (url, connections, pid) wrk load at once; (summed requests/s, worst p99 ms)."""
    results = [None] * len(loads)

    def run(index, load):
        results[index] = load()

    threads = [threading.Thread(target=run, args=(index, load)) for index, load in enumerate(loads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(result[0] for result in results), max(result[1] for result in results)


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--postgres", required=True, help="a PostgreSQL server URL (a scratch database is made on it)")
    arguments.add_argument("--seconds", type=int, default=8, help="length of each wrk run")
    arguments.add_argument("--rounds", type=int, default=3)
    arguments.add_argument("--connections", type=int, default=64)
    arguments.add_argument("--kinship", help="a built kinship executable (default: build it in release mode)")
    options = arguments.parse_args()

    ensure_wrk()
    kinship = os.path.abspath(options.kinship) if options.kinship else release_binary("kinship")
    folder = tempfile.mkdtemp(prefix="kinship-pg-bench-")
    database = fresh_postgres(options.postgres, "kinship_bench_processes")
    servers = []
    try:
        sqlite, sqlite_base, sqlite_banner = start_server(kinship, os.path.join(folder, "kinship.sqlite"), folder,
                                                          log_level="warning", extra=UNLIMITED)
        servers.append(sqlite)
        first, first_base, banner = start_server(kinship, database, folder, log_level="warning", extra=UNLIMITED)
        servers.append(first)
        second, second_base, _ = start_server(kinship, database, folder, log_level="warning", extra=UNLIMITED)
        servers.append(second)

        sqlite_token = log_in(sqlite_base, demo_credentials(sqlite_banner)[0], "ada@example.com", "kinship-demo", "email")["access_token"]
        token = log_in(first_base, demo_credentials(banner)[0], "ada@example.com", "kinship-demo", "email")["access_token"]
        me = "/me?fields=id,name,email"
        half = options.connections // 2

        def pair(bases, pids):
            return lambda seconds: together([
                lambda: wrk(bases[0] + me, seconds, half, 1, pids[0], token),
                lambda: wrk(bases[1] + me, seconds, options.connections - half, 1, pids[1], token),
            ])

        routes = {
            "sqlite": lambda seconds: wrk(sqlite_base + me, seconds, options.connections, 1, sqlite.pid, sqlite_token)[:2],
            "postgres": pair((first_base, second_base), (first.pid, second.pid)),
        }
        runs = {name: [] for name in routes}
        for measure in routes.values():
            measure(2)
        for round in range(options.rounds):
            for name, measure in routes.items():
                runs[name].append(measure(options.seconds))
            print(f"    round {round + 1}: " + ", ".join(f"{name} {runs[name][-1][0]:,.0f} req/s" for name in routes), flush=True)
    finally:
        for process in servers:
            stop(process)
        shutil.rmtree(folder, ignore_errors=True)

    medians = {name: (statistics.median(run[0] for run in values), statistics.median(run[1] for run in values))
               for name, values in runs.items()}
    ratio = medians["postgres"][0] / medians["sqlite"][0]
    print(f"\nGET /me, {options.connections} connections, {options.rounds} rounds of {options.seconds} s, "
          f"wrk on the same {os.cpu_count()} cores")
    print(f"{'':52}{'requests/s':>12}{'p99 latency':>14}")
    labels = {"sqlite": "one process on SQLite (cached checks)",
              "postgres": "two processes on PostgreSQL (cached, LISTEN/NOTIFY)"}
    for name, label in labels.items():
        print(f"{label:52}{medians[name][0]:>12,.0f}{medians[name][1]:>11.2f} ms")
    print(f"ratio PostgreSQL (two processes) ÷ SQLite: {ratio:.0%}   target ≥ 80% {'✓' if ratio >= 0.8 else '✗ MISSED'}")
    sys.exit(0 if ratio >= 0.8 else 1)


if __name__ == "__main__":
    main()
