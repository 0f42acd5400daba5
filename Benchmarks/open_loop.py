#!/usr/bin/env python3
"""Issue 17, item 1: latency at loads the server is not saturated by, measured open-loop.

The server (a release-built `kinship serve` on SQLite, and beside it the bare Hummingbird floor)
runs on one core, the load generator on the other (CPU affinity). First wrk finds the plain route's
(/healthz) highest rate on that pinning; then OpenLoop (Benchmarks/Sources/OpenLoop: requests due
on a clock, latency counted from when each was due, HdrHistogram) sends each route at 25%, 50% and
75% of that rate: the floor's no-op route, /healthz, GET /me, GET /userinfo and
GET /me/friends?limit=25. Prints p50, p99 and p99.9 of each.

Targets: at every rate, /me's p99 ≤ 1.5 × the plain route's p99; at 50% load, /me's p99 ≤ 2 ms.
Exits non-zero when one is missed, or when a request fails. A route that cannot keep up with a
rate (its queue grows for the whole run) is marked saturated with the rate it did answer.

Run from the repository root:  python3 Benchmarks/open_loop.py
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts", "e2e"))
from kinship_e2e import demo_credentials, log_in, start_server, stop  # noqa: E402
from bench_support import release_binary  # noqa: E402
from graph_throughput import ensure_wrk, start_bare_hummingbird, wrk  # noqa: E402

SERVER_CORE, LOAD_CORE = "1", "0"
LOADS = (0.25, 0.50, 0.75)


def open_loop(driver, url, rate, seconds, token=None):
    """One OpenLoop run; a route that cannot keep up is marked saturated (its queue, and so its
    latency, grows for as long as the run lasts), a failed request stops the benchmark."""
    command = [driver, url, str(rate), str(seconds), "2", "64"]
    if token:
        command.append(f"Authorization: Bearer {token}")
    report = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    if report["errors"]:
        raise SystemExit(f"{url} at {rate:.0f}/s: {report['errors']} requests failed")
    report["saturated"] = report["unanswered"] > 0 or report["achievedRate"] < 0.97 * rate
    return report


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--seconds", type=int, default=10, help="measured seconds of each open-loop run (after 2 s of warm-up)")
    arguments.add_argument("--kinship", help="a built kinship executable (default: build it in release mode)")
    options = arguments.parse_args()
    if (os.cpu_count() or 1) < 2:
        raise SystemExit("open_loop.py pins the server and the load generator to a core each: it needs two cores")

    ensure_wrk()
    kinship = os.path.abspath(options.kinship) if options.kinship else release_binary("kinship")
    bare = release_binary("BareHummingbird", package_path="Benchmarks")
    driver = release_binary("OpenLoop", package_path="Benchmarks")
    folder = tempfile.mkdtemp(prefix="kinship-bench-open-loop-")
    unlimited = ("--graph-calls-per-user", "100000000", "--graph-calls-per-app", "100000000")
    # The servers start on their core, so they size their thread pools for one core: Swift's reads
    # the affinity, and so does `kinship serve` for SwiftNIO's event loops; SwiftNIO alone does not,
    # so the floor is told. Everything this script starts afterwards runs on the load generator's core.
    os.sched_setaffinity(0, {int(SERVER_CORE)})
    server, base, banner = start_server(kinship, os.path.join(folder, "kinship.sqlite"), folder, log_level="warning",
                                        extra=unlimited)
    os.environ["NIO_SINGLETON_GROUP_LOOP_COUNT"] = "1"
    floor_server, floor_base = start_bare_hummingbird(bare)
    del os.environ["NIO_SINGLETON_GROUP_LOOP_COUNT"]
    os.sched_setaffinity(0, {int(LOAD_CORE)})
    results = {}
    try:
        client_id, _ = demo_credentials(banner)
        token = log_in(base, client_id, "ada@example.com", "kinship-demo", "openid,email,user_friends")["access_token"]
        print(f"==> the plain route's highest rate: wrk on core {LOAD_CORE}, the server on core {SERVER_CORE}, 64 connections, 10 s",
              flush=True)
        wrk(base + "/healthz", 5, 64, 1, server.pid)
        maximum = wrk(base + "/healthz", 10, 64, 1, server.pid)[0]
        print(f"    {maximum:,.0f} requests/s", flush=True)
        routes = {
            "floor (bare Hummingbird no-op)": (floor_base + "/healthz", None),
            "plain route (/healthz)": (base + "/healthz", None),
            "GET /me": (base + "/me?fields=id,name,email", token),
            "GET /userinfo": (base + "/userinfo", token),
            "GET /me/friends?limit=25": (base + "/me/friends?limit=25", token),
        }
        for load in LOADS:
            rate = maximum * load
            print(f"==> {load:.0%} load: {rate:,.0f} requests/s, {options.seconds} s each", flush=True)
            for name, (url, bearer) in routes.items():
                report = open_loop(driver, url, rate, options.seconds, bearer)
                results[(load, name)] = report
                print(f"    {name:32} p50 {report['p50']:8.3f} ms  p99 {report['p99']:8.3f} ms  p99.9 {report['p999']:8.3f} ms"
                      + (f"   saturated: {report['achievedRate']:,.0f} answered/s" if report["saturated"] else ""), flush=True)
    finally:
        stop(server)
        stop(floor_server)

    print(f"\nOpen-loop latency: the server on core {SERVER_CORE}, OpenLoop on core {LOAD_CORE}, 64 connections, "
          f"rates as shares of /healthz's {maximum:,.0f} requests/s")
    print(f"{'':34}{'load':>6}{'rate/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'p99.9 ms':>10}")
    missed = []
    for load in LOADS:
        for name in routes:
            report = results[(load, name)]
            print(f"{name:34}{load:>6.0%}{report['achievedRate']:>10,.0f}{report['p50']:>10.3f}{report['p99']:>10.3f}"
                  f"{report['p999']:>10.3f}" + ("   saturated" if report["saturated"] else ""))
        me, plain = results[(load, "GET /me")]["p99"], results[(load, "plain route (/healthz)")]["p99"]
        for name in ("GET /me", "plain route (/healthz)"):
            if results[(load, name)]["saturated"]:
                missed.append(f"{name} could not keep up at {load:.0%}")
        verdict = me <= 1.5 * plain
        print(f"    /me p99 ÷ plain route p99 at {load:.0%}: {me / plain:.2f}   target ≤ 1.5 {'✓' if verdict else '✗ MISSED'}")
        if not verdict:
            missed.append(f"/me p99 {me:.3f} ms > 1.5 × {plain:.3f} ms at {load:.0%}")
        if load == 0.5:
            print(f"    /me p99 at 50%: {me:.3f} ms   target ≤ 2 ms {'✓' if me <= 2 else '✗ MISSED'}")
            if me > 2:
                missed.append(f"/me p99 {me:.3f} ms > 2 ms at 50%")
    if missed:
        print("missed: " + "; ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
