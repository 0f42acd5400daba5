#!/usr/bin/env python3
"""`kinship chat` against a real Prosody with the Kinship modules, logged in with `kinship login`.

The CLI logs in to chat with its Kinship token through KinshipXMPP (OAUTHBEARER). Checked: the
friend list with who is online; a message to a friend named by a search reaches their `listen`;
a message to a friend who is offline waits for them; `history` reads the archive back; a friend
request made on the web is accepted
from the CLI (and shows on the web), another declined; accepting someone who never asked says so
and sends nothing; a login without xmpp_login, an untrusted certificate and a revoked token each
fail at once with words that say what to do.

    chat_cli.py --kinship PATH [--database URL]
"""
import json
import os
import subprocess
import sys
import time
import urllib.request

from kinship_chat import DOMAIN, DemoPlatform, WebPerson
from kinship_e2e import Checks

check = Checks()
HERE = os.path.dirname(os.path.abspath(__file__))


def printed(listening):
    """What a `kinship chat listen` printed before it stopped (by --count), or within 20 s."""
    try:
        return listening.communicate(timeout=20)[0]
    except subprocess.TimeoutExpired:
        listening.kill()
        return listening.communicate()[0]


def main():
    platform = DemoPlatform("chatcli")
    with platform.running():
        chat = platform.chat()
        base, people = platform.base, platform.people
        config = os.path.join(platform.folder, "config")
        environment = dict(os.environ, XDG_CONFIG_HOME=config, BROWSER=f"{sys.executable} {os.path.join(HERE, 'dialog_browser.py')}")
        where = ["--domain", DOMAIN, "--host", "127.0.0.1", "--port", str(chat.port), "--trust-cert", chat.certificate]

        def run(*arguments, login=None, timeout=60):
            extra = {"KINSHIP_E2E_LOGIN": login} if login else {}
            completed = subprocess.run([platform.kinship, *arguments], capture_output=True, text=True, timeout=timeout,
                                       env=dict(environment, **extra))
            return completed.returncode, completed.stdout, completed.stderr

        def listen(account, count):
            return subprocess.Popen([platform.kinship, "chat", "listen", "--account", account, "--count", str(count), *where],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)

        for account, email, scope in (("default", "ada@example.com", "user_friends,xmpp_login"),
                                      ("grace", "grace@example.com", "user_friends,xmpp_login"),
                                      ("emile", "emile@example.com", "user_friends,xmpp_login"),
                                      ("alan", "alan@example.com", "user_friends")):
            code, out, err = run("login", "--server", base, "--app-id", platform.client_id, "--permissions", scope,
                                 "--account", account, login=email)
            if code != 0:
                raise SystemExit(f"kinship login as {email} failed: {out}{err}")

        print(f"==> {platform.engine}: kinship chat logs in with its Kinship token", flush=True)
        grace_listens = listen("grace", 1)
        time.sleep(2)
        code, out, err = run("chat", "friends", "--json", *where)
        listed = {contact["name"]: contact for section in json.loads(out or "{}").get("sections", []) for contact in section["contacts"]} \
            if code == 0 else {}
        check("kinship chat friends lists Ada's four friends", code == 0 and len(listed) == 4, out + err)
        check("… with who is online (Grace is listening)", listed.get("Grace Hopper", {}).get("availability") == "available"
              and listed.get("Alan Turing", {}).get("availability") == "offline", listed)
        check("Prosody saw an OAUTHBEARER login", "OAUTHBEARER login for" in chat.log(), chat.log()[-500:])

        code, out, err = run("chat", "send", "grace", "Hello from the terminal", *where)
        check("kinship chat send finds Grace by a search", code == 0 and "Sent to Grace Hopper" in out, out + err)
        heard = printed(grace_listens)
        check("Grace's kinship chat listen prints it", "Ada Lovelace: Hello from the terminal" in heard, heard)

        code, out, err = run("chat", "send", people["emile@example.com"], "Émile, read this later", *where)
        check("a message to a friend who is offline is sent", code == 0, out + err)
        emile_listens = listen("emile", 1)
        heard = printed(emile_listens)
        check("… and reaches Émile when he comes online", "Ada Lovelace: Émile, read this later" in heard, heard)

        code, out, err = run("chat", "history", "Émile", *where)
        check("kinship chat history reads the conversation back from the archive (XEP-0313)",
              code == 0 and "You: Émile, read this later" in out, out + err)
        code, out, err = run("chat", "history", "Alan", "--account", "grace", *where)
        check("… and says when there is none", code == 0 and "No messages with Alan Turing yet" in out, out + err)

        print(f"==> {platform.engine}: friend requests answered from the terminal", flush=True)
        zhang_web = WebPerson(base, "zhangwei@example.com", "kinship-demo")
        zhang_web.friends("request", people["grace@example.com"])
        code, out, err = run("chat", "accept", "zw", "--account", "grace", *where)
        check("kinship chat accept takes a pinyin search (zw: 张伟)", code == 0 and "You and 张伟 are friends now" in out, out + err)
        check("… and the friendship shows on the web", "Unfriend Grace Hopper" in zhang_web.friends_page())
        emile_web = WebPerson(base, "emile@example.com", "kinship-demo")
        emile_web.friends("request", people["grace@example.com"])
        code, out, err = run("chat", "decline", "Émile", "--account", "grace", *where)
        check("kinship chat decline turns a request down", code == 0 and "Declined" in out, out + err)
        check("… and it is gone on the web", "Withdraw" not in emile_web.friends_page())
        started = time.time()
        code, out, err = run("chat", "accept", people["alan@example.com"], "--account", "emile", *where)
        check("accepting someone who never asked says so", code != 0 and "has not asked" in err, out + err)
        alan_web = WebPerson(base, "alan@example.com", "kinship-demo")
        check("… and sends them no request", "Émile Zola" not in alan_web.friends_page().split("Friend requests")[-1].split("Friends")[0])

        print(f"==> {platform.engine}: failures say what to do", flush=True)
        code, out, err = run("chat", "friends", "--account", "alan", *where)
        check("a login without xmpp_login is told to log in with it", code != 0 and "kinship login --permissions xmpp_login" in err,
              out + err)
        code, out, err = run("chat", "friends", *where[:-2])
        check("an untrusted certificate is explained, with --trust-cert", code != 0 and "not trusted" in err and "--trust-cert" in err
              and "BoringSSL" not in err, out + err)
        token = json.load(open(os.path.join(config, "kinship", "tokens", "grace.json")))["tokenString"]
        request = urllib.request.Request(base + "/me/permissions/xmpp_login", method="DELETE", headers={"Authorization": "Bearer " + token})
        urllib.request.urlopen(request, timeout=10).read()
        started = time.time()
        code, out, err = run("chat", "friends", "--account", "grace", *where)
        took = time.time() - started
        check("a token whose xmpp_login was taken back is refused", code != 0 and "not-authorized" in err, out + err)
        check(f"… at once ({took:.2f} s for the whole command)", took < 3, took)
    print(f"chat CLI ({platform.engine}): {len(check.results) - len(check.failed)} passed, {len(check.failed)} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
