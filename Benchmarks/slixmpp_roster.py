#!/usr/bin/env python3
"""The slixmpp side of roster_fetch.py: logs in, then times get_roster() through to a sectioned
list (names sorted, grouped by first letter, # last) on a fresh client each round.
Usage: slixmpp_roster.py PORT CERT JID PASSWORD ROUNDS; prints items=N median_ms=M runs=…"""
import asyncio
import statistics
import sys
import time

import slixmpp


def sections(roster):
    items = [(jid, roster[jid]) for jid in roster.keys()]
    friends = [(item["name"] or jid) for jid, item in items if item["subscription"] in ("both", "to", "from") or item["pending_out"]]
    grouped = {}
    for name in sorted(friends, key=str.casefold):
        letter = name[:1].upper()
        grouped.setdefault(letter if "A" <= letter <= "Z" else "#", []).append(name)
    return sorted(grouped.items(), key=lambda pair: (pair[0] == "#", pair[0])), len(friends)


async def one_round(port, cert, jid, password):
    client = slixmpp.ClientXMPP(jid, password)
    client.ca_certs = cert
    started = asyncio.get_running_loop().create_future()
    client.add_event_handler("session_start", lambda _: started.set_result(True))
    client.connect("127.0.0.1", port)
    await started
    begin = time.perf_counter()
    await client.get_roster()
    listed, count = sections(client.client_roster)
    elapsed = (time.perf_counter() - begin) * 1000
    assert len(listed) > 1
    client.disconnect()
    await client.disconnected
    return elapsed, count


async def main():
    port, cert, jid, password, rounds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    times, count = [], 0
    for _ in range(rounds):
        elapsed, count = await one_round(int(port), cert, jid, password)
        times.append(elapsed)
    print(f"items={count} median_ms={statistics.median(times):.1f} runs={','.join(f'{t:.1f}' for t in times)}")


if __name__ == "__main__":
    asyncio.run(main())
