#!/usr/bin/env python3
"""Fetching a 5,000-contact roster, KinshipXMPP against slixmpp, side by side in one run.

Starts a Prosody of its own (scripts/xmpp/prosody-instance, rate limits off), registers an account
and seeds its roster server-side with 5,000 contacts (friends both ways, one way, and pending
requests; Latin, accented and Chinese names), then times, on each side, the step from sending
the roster request to holding the full contact list in sections. Prints the medians and the ratio.

It also records what Prosody sends for an ~1 MB roster (record_roster.py) and runs the parse
benchmark (XMLStreamBenchmark) on that recording.

Run from the repository root:  python3 Benchmarks/roster_fetch.py
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from bench_support import release_binary

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
NAMES = ["Zhang Wei", "Émile Zola", "张伟", "Grace Hopper", "Łukasz", "李娜", "Ada Lovelace", "Ørsted", "Ivan"]


def seed(folder, account, count):
    """Writes the account's roster into Prosody's storage (Lua), before its first login."""
    roster = os.path.join(folder, "data", "kinship%2etest", "roster")
    os.makedirs(roster, exist_ok=True)
    lines = ['return {', '[false] = { ["version"] = 1; ["pending"] = {}; };']
    for index in range(count):
        subscription = ("both", "to", "from", "none")[index % 4]
        ask = ' ["ask"] = "subscribe";' if subscription == "none" else ""
        group = ' ["Team"] = true;' if index % 3 == 0 else ""
        name = f"{NAMES[index % len(NAMES)]} {index}"
        lines.append(f'["contact{index}@kinship.test"] = {{ ["subscription"] = "{subscription}"; ["name"] = "{name}";{ask}'
                     f' ["groups"] = {{{group}}}; }};')
    lines.append("};")
    encoded = "".join(c if c.isalnum() else f"%{ord(c):02x}" for c in account)
    with open(os.path.join(roster, encoded + ".dat"), "w") as file:
        file.write("\n".join(lines))


def ensure_slixmpp():
    try:
        import slixmpp  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "slixmpp"], check=True)


def figure(output):
    match = re.search(r"items=(\d+) median_ms=([\d.]+) runs=(\S+)", output)
    if not match:
        raise SystemExit("unexpected output:\n" + output)
    return int(match.group(1)), float(match.group(2)), match.group(3)


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--contacts", type=int, default=5000)
    arguments.add_argument("--rounds", type=int, default=7)
    arguments.add_argument("--record-contacts", type=int, default=11000,
                           help="size of the roster recorded for the parse benchmark (about 1 MB)")
    options = arguments.parse_args()
    ensure_slixmpp()
    binary = release_binary("RosterBenchmark", os.path.join(ROOT, "Benchmarks"))
    folder = tempfile.mkdtemp(prefix="kinship-roster-bench-")
    instance = os.path.join(ROOT, "scripts", "xmpp", "prosody-instance")
    try:
        subprocess.run([instance, "start", folder], check=True)
        config = os.path.join(folder, "prosody.cfg.lua")
        cert = os.path.join(folder, "certs", "kinship.test.crt")
        port = open(os.path.join(folder, "port")).read().strip()
        subprocess.run(["prosodyctl", "--config", config, "register", "bench", "kinship.test", "bench-pass"], check=True)
        seed(folder, "bench", options.contacts)
        common = [port, cert, "bench@kinship.test", "bench-pass", str(options.rounds)]
        subprocess.run(["prosodyctl", "--config", config, "register", "recorder", "kinship.test", "bench-pass"], check=True)
        seed(folder, "recorder", options.record_contacts)
        recording = os.path.join(folder, "roster-stream.xml")
        subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks", "record_roster.py"), port, cert, "recorder@kinship.test",
                        "bench-pass", recording], check=True)
        print(f"==> {options.rounds} rounds each, {options.contacts:,} contacts", flush=True)
        ours = figure(subprocess.run([binary, *common], capture_output=True, text=True, check=True).stdout)
        theirs = figure(subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks", "slixmpp_roster.py"), *common],
                                       capture_output=True, text=True, check=True).stdout)
        print("==> parse throughput on the recorded stream", flush=True)
        subprocess.run(["swift", "run", "-c", "release", "--package-path", os.path.join(ROOT, "Benchmarks"), "XMLStreamBenchmark",
                        recording], check=True)
    finally:
        subprocess.run([instance, "stop", folder])
        shutil.rmtree(folder, ignore_errors=True)

    print(f"\nRoster fetch to a sectioned list: {options.contacts:,} contacts, local Prosody, median of {options.rounds}")
    print(f"{'':16}{'listed':>8}{'median':>12}   runs (ms)")
    print(f"{'KinshipXMPP':16}{ours[0]:>8}{ours[1]:>9.1f} ms   {ours[2]}")
    print(f"{'slixmpp':16}{theirs[0]:>8}{theirs[1]:>9.1f} ms   {theirs[2]}")
    ratio = theirs[1] / ours[1]
    print(f"KinshipXMPP is {ratio:.1f}× faster   target ≥ 5×: {'✓' if ratio >= 5 else '✗ MISSED'};"
          f"   under 150 ms: {'✓' if ours[1] < 150 else '✗ MISSED'}")


if __name__ == "__main__":
    main()
