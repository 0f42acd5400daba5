#!/usr/bin/env python3
"""GET /me (token check, permission lookup, profile) against a plain route that does no work
(/healthz), on the same release-built `kinship serve` over SQLite, and against the framework's
floor — a bare Hummingbird application (Benchmarks/Sources/BareHummingbird) with one route that
does no work and no middleware — side by side with wrk at 64 connections (closed loop). Prints
requests/s, p99 latency and the server's CPU time per request of each, and the ratios.

Target (#17): GET /me at ≥ 80% of the floor's requests/s. Exits non-zero when it is missed. (At a
closed-loop load p99 measures the queue, not the server: latency targets are open-loop ones.)

Run from the repository root:  python3 Benchmarks/graph_throughput.py
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts", "e2e"))
from kinship_e2e import demo_credentials, free_port, log_in, start_server, stop  # noqa: E402
from bench_support import alternate, release_binary  # noqa: E402


def ensure_wrk():
    if shutil.which("wrk"):
        return
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print("==> apt-get install wrk", flush=True)
    if subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], env=environment).returncode != 0:
        print("==> apt-get update (a fresh machine has no package lists yet), then install wrk again", flush=True)
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=environment)
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True, env=environment)


def cpu_seconds(pid):
    """User and system time of a process so far: every thread's, those that have ended too."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wrk(url, seconds, connections, threads, server_pid, token=None):
    """(requests/s, p99 in ms, server CPU µs per request, requests answered) of one wrk run."""
    command = ["wrk", "--threads", str(threads), "--connections", str(connections), "--duration", f"{seconds}s", "--latency", url]
    if token:
        command[1:1] = ["--header", f"Authorization: Bearer {token}"]
    cpu_before = cpu_seconds(server_pid)
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(server_pid) - cpu_before
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if errors:
        raise SystemExit(f"{url} answered {errors.group(1)} errors:\n{output}")
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", output).groups()
    p99 = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    return rate, p99, cpu / requests * 1e6, requests


def start_bare_hummingbird(binary):
    port = free_port()
    process = subprocess.Popen([binary, str(port)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if process.stdout.readline().strip() != "listening":
        process.kill()
        raise SystemExit("BareHummingbird did not start")
    return process, f"http://127.0.0.1:{port}"


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--seconds", type=int, default=8, help="length of each wrk run")
    arguments.add_argument("--rounds", type=int, default=3, help="alternating runs of each route; medians are reported")
    arguments.add_argument("--connections", type=int, default=64)
    arguments.add_argument("--wrk-threads", type=int, default=1,
                           help="load generator threads; they share the cores with the server")
    arguments.add_argument("--kinship", help="a built kinship executable (default: build it in release mode)")
    options = arguments.parse_args()

    ensure_wrk()
    kinship = os.path.abspath(options.kinship) if options.kinship else release_binary("kinship")
    bare = release_binary("BareHummingbird", package_path="Benchmarks")
    folder = tempfile.mkdtemp(prefix="kinship-bench-")
    unlimited = ("--graph-calls-per-user", "100000000", "--graph-calls-per-app", "100000000")
    server, base, banner = start_server(kinship, os.path.join(folder, "kinship.sqlite"), folder, log_level="warning",
                                        extra=unlimited)
    floor_server, floor_base = start_bare_hummingbird(bare)
    runs = {"floor": [], "plain": [], "me": []}
    try:
        client_id, _ = demo_credentials(banner)
        token = log_in(base, client_id, "ada@example.com", "kinship-demo", "email")["access_token"]
        load = (options.connections, options.wrk_threads)
        routes = {
            "floor": lambda seconds: wrk(floor_base + "/healthz", seconds, *load, floor_server.pid),
            "plain": lambda seconds: wrk(base + "/healthz", seconds, *load, server.pid),
            "me": lambda seconds: wrk(base + "/me?fields=id,name,email", seconds, *load, server.pid, token),
        }
        alternate(routes, runs, options.rounds, options.seconds)
    finally:
        stop(server)
        stop(floor_server)

    medians = {name: [statistics.median(run[column] for run in values) for column in range(3)] for name, values in runs.items()}
    ratio = medians["me"][0] / medians["plain"][0]
    to_floor = medians["me"][0] / medians["floor"][0]
    print(f"\nGraph throughput: {options.connections} connections, {options.rounds} rounds of {options.seconds} s, SQLite, "
          f"wrk ({options.wrk_threads} thread{'s' if options.wrk_threads > 1 else ''}) on the same {os.cpu_count()} cores")
    print(f"{'':36}{'requests/s':>12}{'p99 latency':>14}{'server CPU':>16}")
    labels = {"floor": "bare Hummingbird, no-op (floor)", "plain": "Kinship plain route (/healthz)", "me": "Kinship GET /me with token check"}
    for name, label in labels.items():
        rate, p99, cpu = medians[name]
        print(f"{label:36}{rate:>12,.0f}{p99:>11.2f} ms{cpu:>10.1f} µs/req")
    print(f"ratio /me ÷ plain route: {ratio:.0%}")
    print(f"ratio /me ÷ floor: {to_floor:.0%}   target ≥ 80% {'✓' if to_floor >= 0.8 else '✗ MISSED'}")
    sys.exit(0 if to_floor >= 0.8 else 1)


if __name__ == "__main__":
    main()
