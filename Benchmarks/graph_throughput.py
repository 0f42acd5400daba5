#!/usr/bin/env python3
"""GET /me (token check, permission lookup, profile) against a plain route that does no work
(/healthz), on the same release-built `kinship serve` over SQLite, side by side with wrk at 64
connections. Prints requests/s and p99 latency of each, and the ratio.

Run from the repository root:  python3 Benchmarks/graph_throughput.py
"""
import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts", "e2e"))
from kinship_e2e import demo_credentials, log_in, start_server  # noqa: E402
from bench_support import release_binary  # noqa: E402


def ensure_wrk():
    if shutil.which("wrk"):
        return
    print("==> apt-get install wrk", flush=True)
    subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def wrk(url, seconds, connections, threads, token=None):
    command = ["wrk", "--threads", str(threads), "--connections", str(connections), "--duration", f"{seconds}s", "--latency", url]
    if token:
        command[1:1] = ["--header", f"Authorization: Bearer {token}"]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", output).groups()
    p99 = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if errors:
        raise SystemExit(f"{url} answered {errors.group(1)} errors:\n{output}")
    return rate, p99


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--seconds", type=int, default=8, help="length of each wrk run")
    arguments.add_argument("--rounds", type=int, default=3, help="alternating runs of each route; medians are reported")
    arguments.add_argument("--connections", type=int, default=64)
    arguments.add_argument("--wrk-threads", type=int, default=2,
                           help="load generator threads; they share the cores with the server")
    options = arguments.parse_args()

    ensure_wrk()
    binary = release_binary("kinship")
    folder = tempfile.mkdtemp(prefix="kinship-bench-")
    unlimited = ("--graph-calls-per-user", "100000000", "--graph-calls-per-app", "100000000")
    process, base, banner = start_server(binary, os.path.join(folder, "kinship.sqlite"), folder, log_level="warning",
                                         extra=unlimited)
    try:
        client_id, _ = demo_credentials(banner)
        token = log_in(base, client_id, "ada@example.com", "kinship-demo", "email")["access_token"]
        wrk(base + "/healthz", 2, options.connections, options.wrk_threads)
        wrk(base + "/me", 2, options.connections, options.wrk_threads, token)
        plain, me = [], []
        for round in range(options.rounds):
            plain.append(wrk(base + "/healthz", options.seconds, options.connections, options.wrk_threads))
            me.append(wrk(base + "/me?fields=id,name,email", options.seconds, options.connections, options.wrk_threads, token))
            print(f"    round {round + 1}: plain {plain[-1][0]:,.0f} req/s, /me {me[-1][0]:,.0f} req/s", flush=True)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=15)

    plain_rate, me_rate = statistics.median(r for r, _ in plain), statistics.median(r for r, _ in me)
    plain_p99, me_p99 = statistics.median(p for _, p in plain), statistics.median(p for _, p in me)
    ratio = me_rate / plain_rate
    print(f"\nGraph throughput: {options.connections} connections, {options.rounds} rounds of {options.seconds} s, SQLite, "
          f"wrk ({options.wrk_threads} threads) on the same {os.cpu_count()} cores")
    print(f"{'':28}{'requests/s':>14}{'p99 latency':>14}")
    print(f"{'plain route (/healthz)':28}{plain_rate:>14,.0f}{plain_p99:>11.2f} ms")
    print(f"{'GET /me with token check':28}{me_rate:>14,.0f}{me_p99:>11.2f} ms")
    print(f"ratio /me ÷ plain: {ratio:.0%}   target ≥ 50% {'✓' if ratio >= 0.5 else '✗ MISSED'};"
          f"   /me p99 target < 5 ms {'✓' if me_p99 < 5 else '✗ MISSED'}")


if __name__ == "__main__":
    main()
