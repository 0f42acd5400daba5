#!/usr/bin/env python3
"""The write storm: 64 people sign up, log in, consent, exchange codes and send friend requests at
the same moment, for 60 seconds, against a release-built `kinship serve` on SQLite with bcrypt at
its production cost, while one more person keeps reading. Beside it, the same requests from one
person (the baseline) and bare bcrypt on the same cores.

Targets (issue 13): no error; the writes that hash no password and the read at p99 under 250 ms;
logins and sign-ups limited by bcrypt alone (their rate is printed against bare bcrypt's).
Exits 1 when a target is missed.

Run from the repository root:  python3 Benchmarks/write_storm.py [--people 64] [--seconds 60]
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts", "e2e"))
from kinship_e2e import demo_credentials, start_server, stop  # noqa: E402
from bench_support import release_binary  # noqa: E402


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--people", type=int, default=64)
    arguments.add_argument("--seconds", type=int, default=60)
    arguments.add_argument("--bcrypt-cost", type=int, default=12)
    arguments.add_argument("--kinship", help="a built kinship executable (default: build it in release mode)")
    options = arguments.parse_args()
    kinship = os.path.abspath(options.kinship) if options.kinship else release_binary("kinship")
    storm = release_binary("WriteStorm", package_path="Benchmarks")
    folder = tempfile.mkdtemp(prefix="kinship-storm-")
    server, base, banner = start_server(kinship, os.path.join(folder, "storm.sqlite"), folder, log_level="warning", extra=[
        "--bcrypt-cost", str(options.bcrypt_cost), "--signups-per-address", "1000000", "--failed-logins-per-address", "1000000"])
    client_id, _ = demo_credentials(banner)
    try:
        return subprocess.run([storm, base, client_id, str(options.people), str(options.seconds), str(options.bcrypt_cost)]).returncode
    finally:
        stop(server)


if __name__ == "__main__":
    sys.exit(main())
