#!/usr/bin/env python3
"""A newcomer's check of the `kinship` CLI app: with `kinship serve --demo` running and BROWSER set
to a program that completes the dialog, `kinship login` then `kinship me` prints the demo person's
name, and `kinship friends --json` lists their friends; past the access token's life the CLI stays
logged in by refreshing. Then permissions, `--ask`, a second account that keeps its email to itself,
a device login (`--device`, approved from another HTTP session, with its QR code), a cancelled
login, `logout` (which ends the refresh token) and `logout --revoke`.
"""
import argparse
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile

import requests

from kinship_e2e import Checks, approve_device, demo_credentials, start_server

check = Checks()
HERE = os.path.dirname(os.path.abspath(__file__))


def read_json(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(value, handle)



def main():
    arguments = argparse.ArgumentParser(description=__doc__)
    arguments.add_argument("--kinship", required=True, help="path of the built kinship executable")
    options = arguments.parse_args()
    kinship = os.path.abspath(options.kinship)

    folder = tempfile.mkdtemp(prefix="kinship-cli-e2e-")
    config = os.path.join(folder, "config")
    opened = os.path.join(folder, "opened.txt")
    process, base, banner = start_server(kinship, os.path.join(folder, "kinship.sqlite"), folder)
    app_id, _ = demo_credentials(banner)
    environment = dict(os.environ, XDG_CONFIG_HOME=config, KINSHIP_E2E_OPENED=opened,
                       BROWSER=f"{sys.executable} {os.path.join(HERE, 'dialog_browser.py')}")

    def run(*arguments, **extra):
        completed = subprocess.run([kinship, *arguments], capture_output=True, text=True, timeout=120,
                                   env=dict(environment, **extra))
        return completed.returncode, completed.stdout, completed.stderr

    try:
        code, out, err = run("login", "--server", base, "--app-id", app_id, "--permissions", "email,user_friends")
        check("kinship login through $BROWSER succeeds", code == 0 and "Logged in as Ada Lovelace" in out, out + err)
        check("the dialog URL is printed for a machine without a browser", "/dialog/oauth?" in err, err)
        token_file = os.path.join(config, "kinship", "tokens", "default.json")
        check("the token is saved under $XDG_CONFIG_HOME/kinship with mode 0600",
              os.path.exists(token_file) and stat.S_IMODE(os.stat(token_file).st_mode) == 0o600)

        code, out, err = run("me")
        check("kinship me prints the demo person's name and email", code == 0 and "Ada Lovelace" in out
              and "ada@example.com" in out, out + err)

        saved = read_json(token_file)
        check("the saved login keeps a refresh token", bool(saved.get("refreshToken")), sorted(saved))
        # Two hours later: the cached token has expired, and the platform no longer takes it either.
        saved["expirationDate"] = "2000-01-01T00:00:00Z"
        write_json(token_file, saved)
        revoked = requests.post(f"{base}/oauth/revoke", data={"client_id": app_id, "token": saved["tokenString"]}, timeout=10)
        check("the access token is revoked on the platform", revoked.status_code == 200, revoked.text)
        code, out, err = run("me")
        renewed = read_json(token_file)
        check("past the access token's life, kinship me still works (the CLI refreshed)", code == 0 and "Ada Lovelace" in out,
              out + err)
        check("…and saved the new pair, still mode 0600", renewed.get("tokenString") not in (None, saved["tokenString"])
              and renewed.get("refreshToken") not in (None, saved["refreshToken"])
              and stat.S_IMODE(os.stat(token_file).st_mode) == 0o600)

        code, out, err = run("friends", "--json")
        listing = json.loads(out) if code == 0 else {}
        names = [friend["name"] for friend in listing.get("friends", [])]
        check("kinship friends --json lists Ada's friends who use the app",
              sorted(names) == sorted(["Alan Turing", "Grace Hopper", "张伟", "Émile Zola"]), out + err)
        check("…with sections and total_count", listing.get("total_count") == 4
              and {friend["section"] for friend in listing.get("friends", [])} == {"A", "E", "G", "W"}, out)

        code, out, err = run("friends", "--search", "zw")
        check("kinship friends --search finds 张伟 by pinyin initials", code == 0 and "张伟" in out
              and "Grace" not in out, out + err)
        code, out, err = run("friends", "--sort", "last", "--json")
        last_order = [friend["last_name"] for friend in json.loads(out)["friends"]] if code == 0 else []
        check("kinship friends --sort last orders by last name", last_order == ["Hopper", "Turing", "张", "Zola"], out + err)

        code, out, err = run("permissions", "revoke", "user_friends")
        check("kinship permissions revoke user_friends", code == 0, out + err)
        code, out, err = run("permissions", "--json")
        statuses = {entry["permission"]: entry["status"] for entry in json.loads(out)["data"]} if code == 0 else {}
        check("kinship permissions shows it declined", statuses.get("user_friends") == "declined"
              and statuses.get("email") == "granted", out + err)
        code, out, err = run("friends")
        check("without user_friends the CLI says so and offers --ask", code != 0 and "user_friends" in err
              and "--ask" in err, out + err)
        code, out, err = run("friends", "--ask")
        check("kinship friends --ask asks again in the browser and lists the friends", code == 0 and "Grace Hopper" in out,
              out + err)
        check("…with auth_type=rerequest", "auth_type=rerequest" in open(opened).read().splitlines()[-1])

        code, out, err = run("login", "--server", base, "--app-id", app_id, "--permissions", "email", "--account", "grace",
                             KINSHIP_E2E_LOGIN="grace@example.com", KINSHIP_E2E_UNTICK="email")
        check("a second account logs in beside the first, declining email", code == 0 and "Declined: email" in out, out + err)
        code, out, err = run("me", "--account", "grace")
        check("kinship me says the email is not shared", code == 0 and "Grace Hopper" in out and "not shared" in out
              and "ada@example.com" not in out, out + err)
        code, out, err = run("me", "--account", "grace", "--json")
        shape = json.loads(out) if code == 0 else {}
        check("kinship me --json keeps every key, null when not shared",
              sorted(shape) == ["email", "first_name", "id", "last_name", "link", "name", "picture"] and shape["email"] is None,
              out + err)
        code, out, err = run("me")
        check("the first account is still logged in", code == 0 and "Ada Lovelace" in out, out + err)

        tv = subprocess.Popen([kinship, "login", "--device", "--qr", "always", "--server", base, "--app-id", app_id,
                               "--permissions", "email", "--account", "tv"], env=environment, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
        shown = []
        while not any(re.fullmatch(r"\s*[A-Z]{4}-[A-Z]{4}", line) for line in shown):
            line = tv.stderr.readline()
            if not line:
                break
            shown.append(line.rstrip("\n"))
        user_code = next((line.strip() for line in shown if re.fullmatch(r"\s*[A-Z]{4}-[A-Z]{4}", line)), "")
        check("kinship login --device prints the /device address and a code", user_code and any(
            f"open {base}/device " in line for line in shown), "\n".join(shown))
        complete = f"{base}/device?user_code={user_code}"
        rest = ""
        if user_code:
            approve_device(base, complete, "grace@example.com", "kinship-demo", untick=("email",))
        out, rest = tv.communicate(timeout=120)
        drawn = subprocess.run(["qrencode", "-t", "ANSIUTF8", "-m", "2", "-o", "-", complete], capture_output=True, text=True).stdout
        check("…draws the page with the code filled in as a QR code (--qr always)", drawn and drawn in rest, rest)
        check("…and logs in once the code is approved on another device", tv.returncode == 0 and "Logged in as Grace Hopper" in out
              and "Declined: email" in out, out + rest)
        code, out, err = run("me", "--account", "tv")
        check("the device login is saved like any other", code == 0 and "Grace Hopper" in out, out + err)

        code, out, err = run("login", "--server", base, "--app-id", app_id, "--account", "cancelled",
                             KINSHIP_E2E_BUTTON="cancel")
        check("pressing Cancel in the dialog ends the login with a clear message", code != 0 and "cancelled" in err, out + err)

        grace_file = os.path.join(config, "kinship", "tokens", "grace.json")
        grace_refresh = read_json(grace_file).get("refreshToken", "")
        code, out, err = run("logout", "--account", "grace")
        check("kinship logout forgets the login here", code == 0 and not os.path.exists(grace_file), out + err)
        after = requests.post(f"{base}/oauth/access_token", data={
            "grant_type": "refresh_token", "client_id": app_id, "refresh_token": grace_refresh}, timeout=10)
        check("…and ends its refresh token on the platform", after.status_code == 400 and after.json().get("error") == "invalid_grant",
              after.text)

        code, out, err = run("logout", "--revoke")
        check("kinship logout --revoke", code == 0 and "removed" in out, out + err)
        code, out, err = run("me")
        check("after logout, kinship me says to log in", code != 0 and "kinship login" in err, out + err)
        check("…and the token file is gone", not os.path.exists(token_file))
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(folder, ignore_errors=True)

    failed = check.failed
    print(f"{len(check.results) - len(failed)} of {len(check.results)} CLI checks passed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
