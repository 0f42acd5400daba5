#!/usr/bin/env python3
"""Kinship Chat with a thousand friends: token login to a sectioned friend list, and how fast a
friendship accepted on the web reaches an online client — each beside its baseline in one run.

1. A person with 1,000 Kinship friends logs in to Kinship Chat with an access token (OAUTHBEARER:
   Prosody asks Kinship about the token and reads the roster from Kinship) and holds the
   sectioned contact list (KinshipXMPP, `RosterBenchmark --token --with-login`). Baseline: the
   same 1,000-contact roster from Prosody's own storage with a password login (SCRAM), on a
   Prosody of its own. Targets: ≤ 1.5× the baseline and ≤ 150 ms (median).
2. A friend request accepted on /account/friends to the roster push ("both") on the requester's
   online client (slixmpp), over 100 cycles (accept, then unfriend and ask again). Target: median
   ≤ 100 ms; p99 printed.

Exits non-zero when a target is missed. Run from the repository root:
    python3 Benchmarks/chat_roster.py [--friends 1000] [--rounds 9] [--cycles 100] [--kinship PATH]
"""
import argparse
import asyncio
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

import requests

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, os.path.join(ROOT, "scripts", "e2e"))

from bench_support import release_binary  # noqa: E402
from kinship_chat import DOMAIN, ChatPerson, ChatServer, WebPerson, connect  # noqa: E402
from kinship_e2e import admin, demo_credentials, log_in, start_server, stop  # noqa: E402
from roster_fetch import figure, seed  # noqa: E402


def sign_up(base, count):
    """`count` new people through /signup (friend0000@example.com, …)."""
    for index in range(count):
        http = requests.Session()
        page = http.get(base + "/signup", timeout=30).text
        token = page.split('name="csrf_token" value="')[1].split('"')[0]
        answer = http.post(base + "/signup", data={"csrf_token": token, "name": f"Friend {index:04d}", "email": f"friend{index}@example.com",
                                                   "password": "bench password 1", "password_again": "bench password 1"},
                           allow_redirects=False, timeout=30)
        if answer.status_code != 303:
            raise SystemExit(f"sign-up {index}: HTTP {answer.status_code}")


def befriend_all(database, person, email_pattern):
    """Makes `person` friends with everyone whose email matches (bulk, in one transaction)."""
    with sqlite3.connect(database) as db:
        now = int(time.time())
        others = [row[0] for row in db.execute("SELECT id FROM users WHERE email LIKE ?", (email_pattern,))]
        db.executemany("INSERT OR IGNORE INTO friendships (user_id, friend_id, created_at) VALUES (?, ?, ?)",
                       [(person, other, now) for other in others] + [(other, person, now) for other in others])
    return len(others)


async def accept_cycles(chat, base, people, tokens, cycles):
    grace, zhang = people["grace@example.com"], people["zhangwei@example.com"]
    grace_chat = ChatPerson(grace, tokens["grace@example.com"], chat.certificate)
    await connect(chat.port, grace_chat)
    grace_web, zhang_web = WebPerson(base, "grace@example.com", "kinship-demo"), WebPerson(base, "zhangwei@example.com", "kinship-demo")
    loop = asyncio.get_running_loop()
    latencies = []
    for _ in range(cycles):
        await loop.run_in_executor(None, grace_web.friends, "request", zhang)
        await grace_chat.until(lambda: (grace_chat.item(zhang) or (None, False))[1], timeout=5)
        await loop.run_in_executor(None, zhang_web.friends, "accept", grace)
        accepted = time.time()
        waited = await grace_chat.until(lambda: (grace_chat.item(zhang) or ("",))[0] == "both", timeout=5)
        latencies.append((time.time() - accepted) if waited is not None else 5.0)
        await loop.run_in_executor(None, grace_web.friends, "unfriend", zhang)
        await grace_chat.until(lambda: grace_chat.item(zhang) is None, timeout=5)
    grace_chat.disconnect()
    await asyncio.sleep(0.2)
    return latencies


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--friends", type=int, default=1000)
    arguments.add_argument("--rounds", type=int, default=9)
    arguments.add_argument("--cycles", type=int, default=100)
    arguments.add_argument("--kinship", help="a built kinship executable (default: build it in release mode)")
    options = arguments.parse_args()
    kinship = os.path.abspath(options.kinship) if options.kinship else release_binary("kinship", ROOT)
    roster_benchmark = release_binary("RosterBenchmark", HERE)
    folder = tempfile.mkdtemp(prefix="kinship-chat-bench-")
    database = os.path.join(folder, "kinship.sqlite")
    process, base, banner = start_server(kinship, database, folder, log_level="warning",
                                         extra=["--bcrypt-cost", "4", "--signups-per-address", "1000000"])
    instance = os.path.join(ROOT, "scripts", "xmpp", "prosody-instance")
    own = os.path.join(folder, "own-prosody")
    chat = None
    try:
        client_id, _ = demo_credentials(banner)
        print(f"==> {options.friends:,} people sign up; Ada befriends them all", flush=True)
        sign_up(base, options.friends)
        people = {person["email"]: person["id"] for person in json.loads(admin(kinship, database, "users", "list")[1])["data"]}
        ada = people["ada@example.com"]
        friends = befriend_all(database, ada, "friend%@example.com") + 4
        tokens = {email: log_in(base, client_id, email, "kinship-demo", "user_friends,xmpp_login")["access_token"]
                  for email in ("ada@example.com", "grace@example.com")}
        chat = ChatServer(kinship, database, folder, base)

        print(f"==> token login to a sectioned list of {friends:,} friends, {options.rounds} rounds", flush=True)
        ours = figure(subprocess.run([roster_benchmark, str(chat.port), chat.certificate, f"{ada}@{DOMAIN}", tokens["ada@example.com"],
                                      str(options.rounds), "--token", "--with-login"], capture_output=True, text=True, check=True).stdout)
        subprocess.run([instance, "start", own], check=True)
        config, port = os.path.join(own, "prosody.cfg.lua"), open(os.path.join(own, "port")).read().strip()
        subprocess.run(["prosodyctl", "--config", config, "register", "bench", "kinship.test", "bench-pass"], check=True)
        seed(own, "bench", friends)
        theirs = figure(subprocess.run([roster_benchmark, port, os.path.join(own, "certs", "kinship.test.crt"), "bench@kinship.test",
                                        "bench-pass", str(options.rounds), "--with-login"], capture_output=True, text=True, check=True).stdout)

        print(f"==> web accept to roster push, {options.cycles} cycles", flush=True)
        latencies = asyncio.run(accept_cycles(chat, base, people, tokens, options.cycles))
    finally:
        subprocess.run([instance, "stop", own], capture_output=True)
        if chat:
            chat.stop()
        stop(process)
        shutil.rmtree(folder, ignore_errors=True)

    ratio = ours[1] / theirs[1]
    ordered = sorted(latencies)
    median, p99 = statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    login_ok = ratio <= 1.5 and ours[1] <= 150
    push_ok = median <= 100
    print(f"\nLogin to a sectioned list of {friends:,} friends (median of {options.rounds}, login included)")
    print(f"{'Kinship token (OAUTHBEARER, roster from Kinship)':52}{ours[1]:>8.1f} ms   runs {ours[2]}")
    print(f"{'Prosody password (SCRAM, roster in Prosody)':52}{theirs[1]:>8.1f} ms   runs {theirs[2]}")
    print(f"ratio {ratio:.2f}×   target ≤ 1.5× and ≤ 150 ms: {'✓' if login_ok else '✗ MISSED'}")
    print(f"\nWeb accept to roster push on an online client, {len(latencies)} cycles")
    print(f"median {median:.1f} ms   p99 {p99:.1f} ms   target median ≤ 100 ms: {'✓' if push_ok else '✗ MISSED'}")
    sys.exit(0 if login_ok and push_ok else 1)


if __name__ == "__main__":
    main()
