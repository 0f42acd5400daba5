#!/usr/bin/env python3
"""Issue 17, item 4: full logins per second through the dialog (login form → consent → code →
token exchange) at bcrypt cost 12, beside the bare bcrypt-verify rate on the same cores; device
logins and refresh grants per second.

Builds a platform with `kinship populate` (every login is a different person's, so each has its
consent page), registers a public app, starts a release-built `kinship serve` on SQLite at bcrypt
cost 12 with the device poll interval at 1 s, and runs Benchmarks/Sources/LoginThroughput against
it. Target: logins at ≥ 90% of bare bcrypt. Exits non-zero when missed.

Run from the repository root:  python3 Benchmarks/login_throughput.py [--seconds 20] [--workers 8]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts", "e2e"))
from kinship_e2e import admin, start_server, stop  # noqa: E402
from bench_support import release_binary  # noqa: E402


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--seconds", type=int, default=20, help="length of each phase")
    arguments.add_argument("--workers", type=int, default=8, help="people logging in at the same time")
    arguments.add_argument("--kinship", help="a built kinship executable (default: build it in release mode)")
    options = arguments.parse_args()
    kinship = os.path.abspath(options.kinship) if options.kinship else release_binary("kinship")
    driver = release_binary("LoginThroughput", package_path=os.path.dirname(os.path.abspath(__file__)))
    folder = tempfile.mkdtemp(prefix="kinship-bench-logins-")
    database = os.path.join(folder, "kinship.sqlite")
    print("==> kinship populate --people 5000 (every generated person's password is hashed at cost 12)", flush=True)
    subprocess.run([kinship, "populate", "--people", "5000", "--database", database], check=True, capture_output=True)
    code, out, err = admin(kinship, database, "apps", "create", "--name", "Login Bench", "--redirect-uri", "http://127.0.0.1/callback")
    if code != 0:
        raise SystemExit("apps create failed: " + err)
    client_id = json.loads(out)["client_id"]
    server, base, _ = start_server(kinship, database, folder, log_level="warning", extra=(
        "--bcrypt-cost", "12", "--device-poll-interval", "1", "--failed-logins-per-address", "1000000",
        "--device-starts-per-address", "1000000", "--device-entries-per-window", "1000000"))
    try:
        result = subprocess.run([driver, base, client_id, "0", str(options.seconds), str(options.workers), "12"])
    finally:
        stop(server)
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
