#!/usr/bin/env python3
"""Kinship Chat when its parts fail: Prosody restarted, Kinship stopped and started again.

Checked: after Prosody restarts, slixmpp clients that reconnect find their rosters intact (read
again from Kinship) and a `kinship chat listen` reconnects by itself (with its token) and still
gets messages; while Kinship is down, live sessions go on (messages flow) and a new login fails
at once with words saying Kinship cannot be reached (temporary-auth-failure), not a wrong
password; once Kinship is back, logins work again and friend-list changes reach rosters again.

    chat_faults.py --kinship PATH
"""
import asyncio
import os
import subprocess
import sys
import time

from kinship_chat import DOMAIN, ChatPerson, DemoPlatform, WebPerson, connect
from kinship_e2e import Checks, log_in, start_server, stop

check = Checks()
HERE = os.path.dirname(os.path.abspath(__file__))


class Returning(ChatPerson):
    """A chat client that connects again whenever its connection drops."""

    def __init__(self, *arguments):
        super().__init__(*arguments)
        self.sessions = 0
        self.add_event_handler("session_start", self.count)
        self.add_event_handler("disconnected", self.again)
        self.staying = True

    def count(self, _):
        self.sessions += 1

    def again(self, _):
        if self.staying:
            asyncio.get_running_loop().call_later(0.5, lambda: self.connect("127.0.0.1", self.port))

    def leave(self):
        self.staying = False
        self.disconnect()


def main():
    platform = DemoPlatform("chatfaults")
    with platform.running():
        chat = platform.chat()
        people, base = platform.people, platform.base
        ada, grace = people["ada@example.com"], people["grace@example.com"]
        tokens = {email: log_in(base, platform.client_id, email, "kinship-demo", "user_friends,xmpp_login")["access_token"]
                  for email in ("ada@example.com", "grace@example.com")}
        config = os.path.join(platform.folder, "config")
        environment = dict(os.environ, XDG_CONFIG_HOME=config, BROWSER=f"{sys.executable} {os.path.join(HERE, 'dialog_browser.py')}")
        where = ["--domain", DOMAIN, "--host", "127.0.0.1", "--port", str(chat.port), "--trust-cert", chat.certificate]
        for account, email in (("default", "ada@example.com"), ("grace", "grace@example.com")):
            subprocess.run([platform.kinship, "login", "--server", base, "--app-id", platform.client_id, "--permissions",
                            "user_friends,xmpp_login", "--account", account], env=dict(environment, KINSHIP_E2E_LOGIN=email),
                           capture_output=True, timeout=60, check=True)

        async def scenario():
            ada_chat = Returning(ada, tokens["ada@example.com"], chat.certificate)
            grace_chat = Returning(grace, tokens["grace@example.com"], chat.certificate)
            for client in (ada_chat, grace_chat):
                client.port = chat.port
            await connect(chat.port, ada_chat, grace_chat)
            listening = subprocess.Popen([platform.kinship, "chat", "listen", "--account", "grace", "--count", "1", *where],
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
            await asyncio.sleep(1.5)

            print(f"==> {platform.engine}: Prosody restarted", flush=True)
            chat.stop()
            chat.start()
            back = await ada_chat.until(lambda: ada_chat.sessions >= 2 and grace_chat.sessions >= 2, timeout=15)
            check("clients connect again after Prosody restarts", back is not None, (ada_chat.sessions, grace_chat.sessions))
            await ada_chat.get_roster()
            check("… and the roster is intact (read again from Kinship)", all((ada_chat.item(people[email]) or ("",))[0] == "both"
                  for email in ("grace@example.com", "alan@example.com", "zhangwei@example.com", "emile@example.com")))
            await asyncio.sleep(3)
            ada_chat.send_message(mto=f"{grace}@{DOMAIN}", mbody="Still there?", mtype="chat")
            try:
                heard, said = await asyncio.get_running_loop().run_in_executor(None, lambda: listening.communicate(timeout=20))
            except subprocess.TimeoutExpired:
                listening.kill()
                heard, said = listening.communicate()
            check("kinship chat listen reconnected by itself and got the message", "Ada Lovelace: Still there?" in heard, heard + said)

            print(f"==> {platform.engine}: Kinship stopped", flush=True)
            stop(platform.process)
            ada_chat.send_message(mto=f"{grace}@{DOMAIN}", mbody="Kinship is down", mtype="chat")
            flowed = await grace_chat.until(lambda: (f"{ada}@{DOMAIN}", "Kinship is down") in grace_chat.messages)
            check("live sessions go on while Kinship is down", flowed is not None, grace_chat.messages[-3:])
            started = time.time()
            failed = await asyncio.get_running_loop().run_in_executor(None, lambda: subprocess.run(
                [platform.kinship, "chat", "friends", *where], capture_output=True, text=True, timeout=60, env=environment))
            check("a new login fails at once, saying Kinship cannot be reached", failed.returncode != 0
                  and "cannot be reached" in failed.stderr and "Wrong address" not in failed.stderr and time.time() - started < 15,
                  failed.stderr)

            print(f"==> {platform.engine}: Kinship back", flush=True)
            platform.process, _, _ = start_server(platform.kinship, platform.database, platform.folder, extra=["--bcrypt-cost", "4"],
                                                  port=int(base.rsplit(":", 1)[1]))
            again = await asyncio.get_running_loop().run_in_executor(None, lambda: subprocess.run(
                [platform.kinship, "chat", "friends", *where], capture_output=True, text=True, timeout=60, env=environment))
            check("logins work again once Kinship is back", again.returncode == 0 and "Grace Hopper" in again.stdout, again.stderr)
            zhang = people["zhangwei@example.com"]
            sent = time.time()
            await asyncio.get_running_loop().run_in_executor(
                None, lambda: WebPerson(base, "zhangwei@example.com", "kinship-demo").friends("request", grace))
            asked = await grace_chat.until(lambda: grace_chat.saw("subscribe", f"{zhang}@{DOMAIN}", sent), timeout=10)
            check("friend-list changes reach rosters again", asked is not None, asked)
            for client in (ada_chat, grace_chat):
                client.leave()
            await asyncio.sleep(0.3)

        asyncio.run(scenario())
    print(f"chat faults ({platform.engine}): {len(check.results) - len(check.failed)} passed, {len(check.failed)} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
