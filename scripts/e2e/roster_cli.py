#!/usr/bin/env python3
"""`kinship roster` end to end against the test Prosody (`scripts/test` starts it and sets
KINSHIP_TEST_PROSODY_CONFIG, KINSHIP_TEST_XMPP_PORT and KINSHIP_TEST_XMPP_CERT): two new
accounts become friends through the CLI's add and accept, see it in the list, then part.
"""
import argparse
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile

from kinship_e2e import Checks

check = Checks()


def main():
    arguments = argparse.ArgumentParser(description=__doc__)
    arguments.add_argument("--kinship", required=True, help="path of the built kinship executable")
    options = arguments.parse_args()
    kinship = os.path.abspath(options.kinship)
    config, port, cert = (os.environ[name] for name in
                          ("KINSHIP_TEST_PROSODY_CONFIG", "KINSHIP_TEST_XMPP_PORT", "KINSHIP_TEST_XMPP_CERT"))
    folder = tempfile.mkdtemp(prefix="kinship-roster-e2e-")
    suffix = secrets.token_hex(3)
    ada, bob = f"ada-{suffix}@kinship.test", f"bob-{suffix}@kinship.test"
    for jid in (ada, bob):
        name, domain = jid.split("@")
        subprocess.run(["prosodyctl", "--config", config, "register", name, domain, "chat-pass"], check=True)
    password_file = os.path.join(folder, "password")
    with open(password_file, "w") as file:
        file.write("chat-pass\n")

    def roster(jid, *arguments, password=password_file, options_first=False):
        options = ["--jid", jid, "--password-file", password, "--host", "127.0.0.1", "--port", port, "--trust-cert", cert]
        command = [kinship, "roster", *options, *arguments] if options_first else [kinship, "roster", *arguments, *options]
        completed = subprocess.run(command, capture_output=True, text=True, timeout=120)
        return completed.returncode, completed.stdout, completed.stderr

    def listing(jid):
        code, out, err = roster(jid, "show", "--json")
        return json.loads(out) if code == 0 else {"error": err}

    try:
        code, out, err = roster(ada)
        check("an empty roster says how to start", code == 0 and "kinship roster add" in out, out + err)
        code, out, err = roster(ada, "add", bob, "--name", "Bob", options_first=True)
        check("account options may come before the subcommand", code == 0, out + err)
        check("kinship roster add sends a request", code == 0 and "sent" in out, out + err)
        sections = listing(bob).get("sections", [])
        check("bob sees ada's request in the pinned Requests section",
              sections and sections[0]["title"] == "Requests" and sections[0]["contacts"][0]["request"] == "incoming"
              and sections[0]["contacts"][0]["jid"] == ada, sections)
        code, out, err = roster(bob, "accept", ada)
        check("kinship roster accept", code == 0, out + err)
        code, out, err = roster(ada, "accept", bob, "--no-subscribe-back")
        check("ada accepts bob's request back", code == 0, out + err)
        entries = [entry for section in listing(ada).get("sections", []) for entry in section["contacts"]]
        check("both are friends both ways", [(e["jid"], e["subscription"], e["request"]) for e in entries] == [(bob, "both", None)],
              entries)
        code, out, err = roster(ada)
        check("the text list shows the section, name and subscription", code == 0 and "B\n" in out and "Bob <" in out
              and "both" in out, out + err)
        wrong = os.path.join(folder, "wrong")
        with open(wrong, "w") as file:
            file.write("not the password\n")
        code, out, err = roster(ada, password=wrong)
        check("a wrong password is a clear error", code != 0 and "Wrong address, password or token" in err, out + err)
        code, out, err = roster(bob, "remove", ada)
        check("kinship roster remove", code == 0, out + err)
        entries = [entry for section in listing(bob).get("sections", []) for entry in section["contacts"]]
        check("the friend is gone", entries == [], entries)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    failed = check.failed
    print(f"{len(check.results) - len(failed)} of {len(check.results)} roster CLI checks passed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
