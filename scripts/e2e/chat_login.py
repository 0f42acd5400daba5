#!/usr/bin/env python3
"""Logging in to Kinship Chat with a Kinship access token, on a real Prosody 0.12.

`kinship chat config` writes the Prosody configuration and mod_auth_kinship; Debian's Prosody runs
it; slixmpp (a client nobody here wrote) logs in as USERID@kinship.test with a token as the
password, over TLS. Checked: a token granted xmpp_login logs in; another person's token, a token
without xmpp_login, a revoked token and a made-up one are refused with not-authorized; /chat/auth
refuses a caller without the shared secret; eight logins at once are each answered (the check does
not block Prosody while Kinship answers); a live session ends within 2 s of its person taking
xmpp_login back on the platform, or of removing the app on /account/apps, and another person's
session goes on.

    chat_login.py --kinship PATH [--database URL]
"""
import asyncio
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import slixmpp

from kinship_chat import DOMAIN, DemoPlatform, WebPerson
from kinship_e2e import Checks, log_in

check = Checks()


class Login(slixmpp.ClientXMPP):
    """One login attempt: `outcome` is "session" or "not-authorized" (or what went wrong)."""

    def __init__(self, jid, password, cafile):
        super().__init__(jid, password)
        self.outcome = None
        self.ca_certs = cafile
        self.add_event_handler("session_start", self.started)
        self.add_event_handler("failed_auth", self.failed)

    async def started(self, _):
        self.outcome = "session"
        self.disconnect()

    def failed(self, failure):
        self.outcome = failure["condition"] if hasattr(failure, "__getitem__") else "failed"
        self.disconnect()


async def attempt(port, jid, password, cafile):
    login = Login(jid, password, cafile)
    login.connect("127.0.0.1", port)
    try:
        await asyncio.wait_for(login.disconnected, timeout=20)
    except asyncio.TimeoutError:
        login.abort()
        return "timed out"
    return login.outcome


class Stay(slixmpp.ClientXMPP):
    """A session that stays until the server ends it; `ended_at` is when it did."""

    def __init__(self, jid, password, cafile):
        super().__init__(jid, password)
        self.ca_certs = cafile
        self.ready = asyncio.Event()
        self.ended_at = None
        self.add_event_handler("session_start", lambda _: self.ready.set())
        self.add_event_handler("disconnected", self.ended)

    def ended(self, _):
        if self.ended_at is None:
            self.ended_at = time.time()


def live_sessions(port, cafile, ending, going_on, revoke):
    """Logs `ending` and `going_on` (jid, token) in, calls `revoke`, and returns how long
    `ending`'s session lasted after it (None if it did not end in 5 s) and whether `going_on`'s
    session was still there 3 s later."""
    async def run():
        first, second = Stay(*ending, cafile), Stay(*going_on, cafile)
        for session in (first, second):
            session.connect("127.0.0.1", port)
        await asyncio.wait_for(asyncio.gather(first.ready.wait(), second.ready.wait()), timeout=20)
        revoked_at = time.time()
        await asyncio.get_running_loop().run_in_executor(None, revoke)
        deadline = time.time() + 5
        while first.ended_at is None and time.time() < deadline:
            await asyncio.sleep(0.05)
        await asyncio.sleep(max(0.0, revoked_at + 3 - time.time()))
        lasted = first.ended_at - revoked_at if first.ended_at else None
        going = second.ended_at is None
        for session in (first, second):
            session.disconnect()
        await asyncio.sleep(0.2)
        return lasted, going
    return asyncio.run(run())


def graph_delete(base, path, token):
    urllib.request.urlopen(urllib.request.Request(base + path, method="DELETE", headers={"Authorization": "Bearer " + token}),
                           timeout=10).read()


def logins(port, cafile, *attempts):
    async def run():
        return await asyncio.gather(*(attempt(port, jid, password, cafile) for jid, password in attempts))
    return asyncio.run(run())


def main():
    platform = DemoPlatform("chat")
    engine = platform.engine
    with platform.running():
        base, client_id, people = platform.base, platform.client_id, platform.people
        ada, grace, alan = people["ada@example.com"], people["grace@example.com"], people["alan@example.com"]
        chat = log_in(base, client_id, "ada@example.com", "kinship-demo", "public_profile,xmpp_login")["access_token"]
        # Permissions belong to a person's login to an app, not to one token: someone who never
        # granted xmpp_login to the app.
        plain = log_in(base, client_id, "alan@example.com", "kinship-demo", "public_profile")["access_token"]
        grace_chat = log_in(base, client_id, "grace@example.com", "kinship-demo", "public_profile,xmpp_login")["access_token"]

        print(f"==> {engine}: Prosody configured by kinship chat config", flush=True)
        server = platform.chat()
        check("the configuration is private to its owner (it holds the shared secret)", oct(os.stat(server.config).st_mode & 0o777) == "0o600")
        check("the configuration has no Prosody-managed roster storage (rosters are Kinship's)",
              'storage = { roster = "memory" }' in server.text and '"roster_kinship"' in server.text)
        port, certificate = server.port, server.certificate

        print(f"==> {engine}: logging in to chat with Kinship tokens (slixmpp)", flush=True)
        outcomes = logins(port, certificate,
                          (f"{ada}@{DOMAIN}/test", chat), (f"{grace}@{DOMAIN}/test", chat), (f"{alan}@{DOMAIN}/test", plain),
                          (f"{ada}@{DOMAIN}/test", "kat_made-up-token-that-was-never-issued"))
        check("a token granted xmpp_login logs in as its person", outcomes[0] == "session", outcomes)
        check("someone else's token is refused", outcomes[1] == "not-authorized", outcomes)
        check("a token without xmpp_login is refused", outcomes[2] == "not-authorized", outcomes)
        check("a token Kinship never issued is refused", outcomes[3] == "not-authorized", outcomes)
        started = time.time()
        many = logins(port, certificate, *([(f"{ada}@{DOMAIN}/many", chat)] * 4 + [(f"{grace}@{DOMAIN}/many", grace_chat)] * 4))
        check("eight logins at once are all let in", many == ["session"] * 8, many)
        print(f"    eight parallel token logins in {time.time() - started:.2f} s", flush=True)

        print(f"==> {engine}: live sessions end when their person takes xmpp_login back", flush=True)
        lasted, going = live_sessions(port, certificate, (f"{ada}@{DOMAIN}/live", chat), (f"{grace}@{DOMAIN}/live", grace_chat),
                                      lambda: graph_delete(base, "/me/permissions/xmpp_login", chat))
        print(f"    the session ended {lasted:.2f} s after xmpp_login was taken back" if lasted is not None else
              "    the session did not end", flush=True)
        check("Ada's live session ends within 2 s of her taking xmpp_login back", lasted is not None and lasted <= 2, lasted)
        check("Grace's live session goes on", going)
        check("the token without xmpp_login now is refused", logins(port, certificate, (f"{ada}@{DOMAIN}/test", chat)) == ["not-authorized"])
        zhang = people["zhangwei@example.com"]
        zhang_chat = log_in(base, client_id, "zhangwei@example.com", "kinship-demo", "public_profile,xmpp_login")["access_token"]
        lasted, going = live_sessions(port, certificate, (f"{grace}@{DOMAIN}/live", grace_chat), (f"{zhang}@{DOMAIN}/live", zhang_chat),
                                      lambda: WebPerson(base, "grace@example.com", "kinship-demo").remove_app(client_id))
        print(f"    the session ended {lasted:.2f} s after the app was removed" if lasted is not None else
              "    the session did not end", flush=True)
        check("Grace's live session ends within 2 s of her removing the app on /account/apps", lasted is not None and lasted <= 2, lasted)
        check("Zhang's live session goes on", going)
        check("a token of a removed app is refused", logins(port, certificate, (f"{grace}@{DOMAIN}/test", grace_chat)) == ["not-authorized"])

        try:
            urllib.request.urlopen(base + "/chat/auth", data=urllib.parse.urlencode({"user": grace, "token": grace_chat}).encode(),
                                   timeout=10)
            status = 200
        except urllib.error.HTTPError as error:
            status = error.code
        check("/chat/auth refuses a caller without the shared secret", status == 401, status)
        log = server.log()
        check("Prosody logged Kinship's reasons for the refusals", "not granted xmpp_login" in log and "another person" in log, log[-800:])
    print(f"chat login ({engine}): {len(check.results) - len(check.failed)} passed, {len(check.failed)} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
