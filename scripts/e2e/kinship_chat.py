"""Kinship Chat for the end-to-end checks: a Debian Prosody configured by `kinship chat config`,
slixmpp clients that log in with Kinship tokens, and a person at the web pages.

The Prosody runs as this (root) user, keeps its data in its own folder and listens on a free
loopback port; `stop()` ends it.
"""
import argparse
import asyncio
import contextlib
import json
import os
import re
import socket
import subprocess
import tempfile
import time

import requests
import slixmpp

from kinship_e2e import admin, demo_credentials, free_port, fresh_postgres, secret_file_arguments, start_server, stop

DOMAIN = "kinship.test"


class ChatServer:
    """Prosody, configured by `kinship chat config` for the Kinship at `base`."""

    def __init__(self, kinship, database, folder, base):
        self.folder = folder
        self.certificate, self.key = os.path.join(folder, "chat.crt"), os.path.join(folder, "chat.key")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={DOMAIN}",
                        "-addext", f"subjectAltName=DNS:{DOMAIN}", "-keyout", self.key, "-out", self.certificate],
                       check=True, capture_output=True)
        self.port = free_port()
        self.out = os.path.join(folder, "prosody")
        self.code, written, self.error = admin(
            kinship, database, "chat", "config", "--out", self.out, "--domain", DOMAIN, "--kinship-url", base,
            "--port", str(self.port), "--certificate", self.certificate, "--key", self.key,
            *secret_file_arguments(kinship, database, folder))
        if self.code != 0:
            raise SystemExit("kinship chat config failed: " + self.error)
        self.config = json.loads(written)["config"]
        with open(self.config) as file:
            self.text = file.read()
        with open(self.config, "w") as file:
            file.write(f'run_as_root = true\ndata_path = "{self.out}"\npidfile = "{self.out}/prosody.pid"\n'
                       f'log = {{ {os.environ.get("KINSHIP_PROSODY_LOG_LEVEL", "info")} = "{self.out}/prosody.log" }}\n' + self.text)
        self.process = None
        self.start()

    def start(self):
        self.process = subprocess.Popen(["prosody", "--config", self.config, "-F"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise SystemExit("Prosody did not start; its log:\n" + self.log())

    def stop(self):
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.process = None

    def log(self):
        path = os.path.join(self.out, "prosody.log")
        return open(path).read() if os.path.exists(path) else ""


class DemoPlatform:
    """`kinship serve --demo` on SQLite, or on a fresh PostgreSQL database with --database URL,
    with its demo people by email; `chat()` starts a Prosody for it."""

    def __init__(self, name):
        parser = argparse.ArgumentParser()
        parser.add_argument("--kinship", required=True)
        parser.add_argument("--database")
        options = parser.parse_args()
        self.kinship = os.path.abspath(options.kinship)
        self.folder = tempfile.mkdtemp(prefix=f"kinship-{name}-")
        self.engine = "PostgreSQL" if options.database else "SQLite"
        self.database = (fresh_postgres(options.database, "kinship_" + name) if options.database
                         else os.path.join(self.folder, "kinship.sqlite"))
        self.chat_server = None

    def chat(self):
        self.chat_server = ChatServer(self.kinship, self.database, self.folder, self.base)
        return self.chat_server

    @contextlib.contextmanager
    def running(self):
        self.process, self.base, banner = start_server(self.kinship, self.database, self.folder, extra=["--bcrypt-cost", "4"])
        try:
            self.client_id, _ = demo_credentials(banner)
            listed = json.loads(admin(self.kinship, self.database, "users", "list")[1])["data"]
            self.people = {person["email"]: person["id"] for person in listed}
            yield self
        finally:
            if self.chat_server:
                self.chat_server.stop()
            stop(self.process)


class WebPerson:
    """Someone logged in to Kinship's web pages with their password."""

    def __init__(self, base, login, password):
        self.base = base
        self.http = requests.Session()
        page = self.http.get(base + "/login", timeout=30)
        answer = self.http.post(base + "/login", data={"csrf_token": self.csrf(page.text), "next": "/account", "login": login,
                                                       "password": password}, allow_redirects=False, timeout=30)
        if answer.status_code != 303:
            raise SystemExit(f"logging {login} in to the web pages failed: HTTP {answer.status_code}")

    @staticmethod
    def csrf(page):
        return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)

    def rename(self, name):
        """Changes the name on the profile page (/account)."""
        page = self.http.get(self.base + "/account", timeout=30).text
        answer = self.http.post(self.base + "/account/profile", data={"csrf_token": self.csrf(page), "name": name},
                                allow_redirects=False, timeout=30)
        if answer.status_code != 303:
            raise SystemExit(f"renaming on /account/profile failed: HTTP {answer.status_code}")

    def remove_app(self, app_id):
        """Presses "Remove APP" on /account/apps."""
        page = self.http.get(self.base + "/account/apps", timeout=30).text
        answer = self.http.post(self.base + "/account/apps", data={"csrf_token": self.csrf(page), "app_id": app_id},
                                allow_redirects=False, timeout=30)
        if answer.status_code != 303:
            raise SystemExit(f"removing the app on /account/apps failed: HTTP {answer.status_code}")

    def friends_page(self):
        return self.http.get(self.base + "/account/friends", timeout=30).text

    def friends(self, action, user_id):
        """Presses a button on /account/friends: request, accept, decline, cancel or unfriend."""
        page = self.friends_page()
        answer = self.http.post(self.base + "/account/friends", data={"csrf_token": self.csrf(page), "user_id": user_id,
                                                                       "action": action}, allow_redirects=False, timeout=30)
        if answer.status_code != 303:
            raise SystemExit(f"{action} on /account/friends failed: HTTP {answer.status_code}")


class ChatPerson(slixmpp.ClientXMPP):
    """A chat client logged in with a Kinship token that answers nothing on its own and notes the
    time of every roster push and presence it receives."""

    def __init__(self, user_id, token, cafile, resource="e2e"):
        super().__init__(f"{user_id}@{DOMAIN}/{resource}", token)
        self.ca_certs = cafile
        self.roster.auto_authorize = None
        self.roster.auto_subscribe = False
        self.ready = asyncio.Event()
        self.received = []
        self.messages = []
        self.presences = {}
        for plugin in ("xep_0054", "xep_0313", "xep_0030"):
            self.register_plugin(plugin)
        self.add_event_handler("session_start", self.started)
        self.add_event_handler("message", lambda message: self.messages.append((message["from"].bare, message["body"]))
                               if message["body"] else None)
        self.add_event_handler("presence_available", lambda stanza: self.presences.__setitem__(stanza["from"].bare, stanza))
        for kind in ("subscribe", "subscribed", "unsubscribe", "unsubscribed", "available", "unavailable"):
            self.add_event_handler("presence_" + kind, lambda stanza, kind=kind: self.note(kind, stanza["from"].bare))
        self.add_event_handler("roster_update", self.pushed)

    async def started(self, _):
        await self.get_roster()
        self.send_presence()
        self.ready.set()

    def note(self, kind, who):
        self.received.append((time.time(), kind, who))

    def pushed(self, iq):
        if iq["type"] == "set":
            for jid in iq["roster"]["items"]:
                self.note("push", jid.bare)

    def item(self, user_id):
        """(subscription, pending_out, name) of a contact on the roster, or None."""
        jid = f"{user_id}@{DOMAIN}"
        if jid not in self.client_roster:
            return None
        item = self.client_roster[jid]
        if item["subscription"] in ("none", "remove") and not item["pending_out"] and not item["pending_in"]:
            return None
        return item["subscription"], item["pending_out"], item["name"]

    async def until(self, condition, timeout=3.0):
        """Waits until `condition()` holds; how long it took, or None."""
        started = time.time()
        while time.time() - started < timeout:
            if condition():
                return time.time() - started
            await asyncio.sleep(0.01)
        return None

    def saw(self, kind, who, since):
        return next((at for at, seen, sender in self.received if seen == kind and sender == who and at >= since), None)


async def connect(port, *people):
    for person in people:
        person.connect("127.0.0.1", port)
    await asyncio.wait_for(asyncio.gather(*(person.ready.wait() for person in people)), timeout=20)


async def off_thread(call, *arguments):
    return await asyncio.get_running_loop().run_in_executor(None, call, *arguments)
