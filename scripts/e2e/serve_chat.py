#!/usr/bin/env python3
"""`kinship serve --demo --chat`: Kinship runs Kinship Chat's Prosody itself.

Checked: without Prosody on PATH the server refuses to start with the command to install it; with
it, a Prosody child listens on the chat port with a self-signed certificate, GET /chat/server says
where it is, and `kinship chat friends` finds it with no location options; Prosody killed with
SIGKILL is started again and chat works again; SIGTERM to the server stops Prosody too.

    serve_chat.py --kinship PATH
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from kinship_e2e import Checks, free_port, stop

check = Checks()
HERE = os.path.dirname(os.path.abspath(__file__))


def listening(port):
    try:
        socket.create_connection(("127.0.0.1", port), 1).close()
        return True
    except OSError:
        return False


def wait(condition, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kinship", required=True)
    kinship = os.path.abspath(parser.parse_args().kinship)
    folder = tempfile.mkdtemp(prefix="kinship-servechat-")
    port, chat_port = free_port(), free_port()

    missing = subprocess.run([kinship, "serve", "--demo", "--chat", "--port", str(port), "--chat-port", str(chat_port)],
                             cwd=folder, capture_output=True, text=True, timeout=60, env=dict(os.environ, PATH="/nonexistent"))
    check("without Prosody, serve --chat refuses to start and says how to install it",
          missing.returncode != 0 and "apt-get install prosody" in missing.stderr, missing.stderr[-400:])

    log = open(os.path.join(folder, "server.log"), "w")
    server = subprocess.Popen([kinship, "serve", "--demo", "--chat", "--port", str(port), "--chat-port", str(chat_port)],
                              cwd=folder, stdout=subprocess.PIPE, stderr=log, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        banner = ""
        while "client_id=" not in banner:
            line = server.stdout.readline()
            if not line:
                break
            banner += line
        app_id = banner.split("client_id=")[1].split()[0]
        check("the chat server listens on its port", wait(lambda: listening(chat_port), 30))
        where = json.loads(urllib.request.urlopen(base + "/chat/server", timeout=10).read())
        check("GET /chat/server says where it is, with its self-signed certificate",
              where["host"] == "127.0.0.1" and where["port"] == chat_port and where["domain"] == "localhost"
              and "BEGIN CERTIFICATE" in (where.get("certificate") or ""), where)

        environment = dict(os.environ, XDG_CONFIG_HOME=os.path.join(folder, "config"),
                           BROWSER=f"{sys.executable} {os.path.join(HERE, 'dialog_browser.py')}")

        def run(*arguments):
            completed = subprocess.run([kinship, *arguments], capture_output=True, text=True, timeout=60, env=environment)
            return completed.returncode, completed.stdout, completed.stderr

        code, out, err = run("login", "--server", base, "--app-id", app_id, "--permissions", "user_friends,xmpp_login")
        check("kinship login --permissions xmpp_login", code == 0, out + err)
        code, out, err = run("chat", "friends")
        check("kinship chat friends finds the chat server by itself", code == 0 and "Grace Hopper" in out, out + err)

        pidfile = os.path.join(folder, "kinship-chat", "prosody.pid")
        first = int(open(pidfile).read().strip())
        os.kill(first, signal.SIGKILL)
        restarted = wait(lambda: os.path.exists(pidfile) and open(pidfile).read().strip() not in ("", str(first))
                         and listening(chat_port), 20)
        check("Prosody killed with SIGKILL is started again", restarted)
        code, out, err = run("chat", "friends")
        check("… and chat works again", code == 0 and "Grace Hopper" in out, out + err)
        second = int(open(pidfile).read().strip())
    finally:
        stop(server)
    check("SIGTERM to the server stops Prosody too", wait(lambda: not alive(second), 15))
    check("the server logged Prosody's start and restart", "Prosody started" in open(log.name).read()
          and "starting it again" in open(log.name).read())
    print(f"serve --chat: {len(check.results) - len(check.failed)} passed, {len(check.failed)} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
