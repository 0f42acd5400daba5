#!/usr/bin/env python3
"""A second, independent XMPP client for the KinshipXMPP tests, driven line by line.

Logs in with slixmpp (auto-authorize and auto-subscribe off, so every answer is the test's), then
reads commands on standard input and reports what the server sends on standard output:

  commands: add JID | subscribe JID | subscribed JID | unsubscribed JID | remove JID | quit
  reports:  ready | subscribe JID | subscribed JID | unsubscribed JID | roster JID SUBSCRIPTION ASK | error TEXT
"""
import argparse
import asyncio
import sys

import slixmpp


def report(*words):
    print(" ".join(str(word) for word in words), flush=True)


class Peer(slixmpp.ClientXMPP):
    def __init__(self, jid, password, cafile):
        super().__init__(jid, password)
        self.auto_authorize = None
        self.auto_subscribe = False
        self.ca_certs = cafile
        self.add_event_handler("session_start", self.started)
        self.add_event_handler("failed_auth", lambda _: report("error", "authentication failed"))
        for kind in ("subscribe", "subscribed", "unsubscribed"):
            self.add_event_handler(f"presence_{kind}", lambda presence, kind=kind: report(kind, presence["from"].bare))
        self.add_event_handler("roster_update", self.roster_pushed)

    async def started(self, _):
        await self.get_roster()
        self.send_presence()
        asyncio.get_running_loop().add_reader(sys.stdin.fileno(), self.command)
        report("ready")

    def roster_pushed(self, iq):
        for jid, item in iq["roster"]["items"].items():
            report("roster", jid.bare, item["subscription"], item["ask"] or "-")

    def command(self):
        line = sys.stdin.readline()
        words = line.split()
        if not words or words[0] == "quit":
            asyncio.get_running_loop().remove_reader(sys.stdin.fileno())
            self.disconnect()
            return
        verb, jid = words[0], words[1] if len(words) > 1 else ""
        if verb == "add":
            asyncio.ensure_future(self.update_roster(jid, subscription="none"))
            self.send_presence(pto=jid, ptype="subscribe")
        elif verb in ("subscribe", "subscribed", "unsubscribed"):
            self.send_presence(pto=jid, ptype=verb)
        elif verb == "remove":
            asyncio.ensure_future(self.del_roster_item(jid))
        else:
            report("error", f"unknown command {verb}")


async def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("--jid", required=True)
    arguments.add_argument("--password", required=True)
    arguments.add_argument("--port", type=int, required=True)
    arguments.add_argument("--cafile", required=True)
    options = arguments.parse_args()
    peer = Peer(options.jid, options.password, options.cafile)
    peer.connect("127.0.0.1", options.port)
    await peer.disconnected


if __name__ == "__main__":
    asyncio.run(main())
