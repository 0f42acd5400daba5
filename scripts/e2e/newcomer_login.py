#!/usr/bin/env python3
"""A newcomer's check, end to end, with nothing but the standard library.

Starts a real `kinship serve --demo` on a free loopback port, uses the admin commands, then acts
like a browser: opens the login dialog, logs in as a demo person, unticks `email` on the consent
page, exchanges the code with its PKCE verifier, and asks `debug_token` what the token holds.
"""
import argparse
import base64
import hashlib
import json
import os
import re
import secrets
import signal
import struct
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
import zlib

from kinship_e2e import Browser, Checks, admin, forms_of, free_port, start_server

check = Checks()


def png_is_valid(data):
    """Whether every chunk's CRC is right and the image data inflates to the size IHDR promises."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return False
    position, idat, width, height = 8, b"", 0, 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if struct.unpack(">I", data[position + 8 + length:position + 12 + length])[0] != zlib.crc32(kind + body):
            return False
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    return len(zlib.decompress(idat)) == height * (width * 3 + 1)




def main():
    arguments = argparse.ArgumentParser(description=__doc__)
    arguments.add_argument("--kinship", required=True, help="path of the built kinship executable")
    arguments.add_argument("--database", help="a postgres:// URL; default: an SQLite file in a temporary folder")
    options = arguments.parse_args()
    options.kinship = os.path.abspath(options.kinship)

    folder = tempfile.mkdtemp(prefix="kinship-e2e-")
    database = options.database or os.path.join(folder, "kinship.sqlite")
    process, base, banner = start_server(options.kinship, database, folder)
    try:
        client_id = re.search(r"client_id=(\d+)", banner)
        client_secret = re.search(r"client_secret=(\S+)", banner)
        check("serve --demo prints the demo app and people", client_id and client_secret and "ada@example.com" in banner, banner)
        client_id, client_secret = client_id.group(1), client_secret.group(1)

        code, out, err = admin(options.kinship, database, "users", "create", "--name", "Barbara Liskov",
                               "--email", "barbara@example.com", "--password", "substitution")
        barbara = json.loads(out)["id"] if code == 0 else None
        check("users create prints the new id", barbara, err)
        code, out, err = admin(options.kinship, database, "users", "create", "--name", "Again",
                               "--email", "barbara@example.com", "--password", "substitution")
        check("a duplicate email is refused with a clear message", code != 0 and "exists already" in err, err)
        code, out, _ = admin(options.kinship, database, "users", "list")
        people = json.loads(out)["data"]
        check("users list shows 6 people", len(people) == 6, out)
        ada = next(p["id"] for p in people if p["email"] == "ada@example.com")
        code, out, err = admin(options.kinship, database, "friends", "add", ada, barbara)
        check("friends add", code == 0 and json.loads(out) == {"success": True}, err)
        code, out, err = admin(options.kinship, database, "apps", "create", "--name", "Notes", "--confidential",
                               "--redirect-uri", "https://notes.example.com/cb")
        created = json.loads(out) if code == 0 else {}
        check("apps create prints client_id and client_secret", created.get("client_id") and created.get("client_secret"), err)
        code, out, _ = admin(options.kinship, database, "apps", "list")
        check("apps list never shows a secret", code == 0 and "client_secret" not in out and created.get("client_secret", "?") not in out, out)
        code, out, err = admin(options.kinship, database, "apps", "create", "--name", "Bad", "--redirect-uri", "http://evil.example.com/cb")
        check("a plain-http non-loopback redirect URI is refused", code != 0 and "https" in err, err)

        metadata = json.loads(urllib.request.urlopen(base + "/.well-known/oauth-authorization-server").read())
        check("discovery names the dialog", metadata["authorization_endpoint"] == base + "/dialog/oauth", metadata)

        verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        state = secrets.token_urlsafe(16)
        redirect_uri = f"http://127.0.0.1:{free_port()}/callback"
        dialog = "/dialog/oauth?" + urllib.parse.urlencode({
            "client_id": client_id, "redirect_uri": redirect_uri, "response_type": "code",
            "scope": "email,user_friends", "state": state, "code_challenge": challenge, "code_challenge_method": "S256"})

        browser = Browser(base)
        status, _, page = browser.request(dialog)
        login_form = forms_of(page).get("/dialog/login")
        check("the dialog shows a login form", status == 200 and login_form, status)
        fields = dict(login_form["fields"])
        fields.update({"login": "ada@example.com", "password": "kinship-demo"})
        status, headers, _ = browser.request("/dialog/login", fields)
        check("logging in as Ada redirects back to the dialog", status == 303, status)
        status, _, page = browser.request(headers["Location"])
        consent = forms_of(page).get("/dialog/oauth/confirm")
        check("the consent page lists email and user_friends", consent and
              [value for _, value, _ in consent["checkboxes"]] == ["email", "user_friends"], page[:500])
        submitted = list(consent["fields"])
        submitted += [(name, value) for name, value, checked in consent["checkboxes"] if checked and value != "email"]
        submitted.append(("action", "continue"))
        status, headers, _ = browser.request("/dialog/oauth/confirm", submitted)
        location = headers.get("Location", "")
        query = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)
        check("Continue redirects to the app with a code and the state",
              status == 303 and location.startswith(redirect_uri) and query.get("state") == [state] and query.get("code"), location)

        token_request = urllib.parse.urlencode({
            "grant_type": "authorization_code", "code": query["code"][0], "redirect_uri": redirect_uri,
            "client_id": client_id, "code_verifier": verifier}).encode()
        token = json.loads(urllib.request.urlopen(base + "/oauth/access_token", data=token_request).read())
        check("the code exchange grants user_friends and reports email declined",
              token["granted_scopes"] == ["public_profile", "user_friends"] and token["declined_scopes"] == ["email"], token)

        debug = json.loads(urllib.request.urlopen(base + "/debug_token?" + urllib.parse.urlencode({
            "input_token": token["access_token"], "access_token": f"{client_id}|{client_secret}"})).read())["data"]
        check("debug_token: valid, public_profile granted, email absent",
              debug["is_valid"] and "public_profile" in debug["scopes"] and "email" not in debug["scopes"], debug)

        me = json.loads(urllib.request.urlopen(urllib.request.Request(
            base + "/v1.0/me?fields=name,email,picture", headers={"Authorization": "Bearer " + token["access_token"]})).read())
        check("/me shows Ada's name and no email", me.get("name") == "Ada Lovelace" and "email" not in me, me)
        picture = urllib.request.urlopen(me["picture"]["data"]["url"]).read()
        check("the generated picture is a valid PNG", png_is_valid(picture), picture[:16])
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
            check("kinship serve stops cleanly on SIGTERM", process.returncode == 0, process.returncode)
        except subprocess.TimeoutExpired:
            process.kill()
            check("kinship serve stops cleanly on SIGTERM", False, "still running after 15 s")

    failed = len(check.failed)
    print(f"newcomer: {len(check.results) - failed} passed, {failed} failed")
    if failed:
        print(open(process.log_path).read()[-4000:], file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
