#!/usr/bin/env python3
"""Kinship as an OpenID Connect provider, seen by a relying party nobody here wrote.

Starts a real `kinship serve --demo` on a free loopback port and registers a confidential app.
requests-oauth2client (PyPI) then does discovery, builds the authorization request (PKCE, state,
nonce), a scripted browser walks the real dialog as a person would (email unticked), and the
library exchanges the code and validates the id_token by its own rules (signature against the
JWKS, alg, kid, iss, aud, nonce, exp, at_hash) before calling userinfo, then refreshes twice. A device login
(RFC 8628) is started and polled by the library while a second HTTP session approves the code on
/device. `prompt=none` is tried both
ways: after consent it answers at once, in a browser nobody logged in to it answers login_required.
Last, `kinship keys list` and `kinship keys rotate` as an operator runs them.
"""
import argparse
import json
import os
import re
import sys
import tempfile
import urllib.request

from requests_oauth2client import DeviceAuthorizationPollingJob, OAuth2Client
from requests_oauth2client.exceptions import AuthorizationPending, InvalidGrant, LoginRequired

from kinship_e2e import (Browser, Checks, admin, approve_device, complete_dialog, free_port, fresh_postgres, secret_file_arguments,
                         start_server, stop)

check = Checks()


def main():
    arguments = argparse.ArgumentParser(description=__doc__)
    arguments.add_argument("--kinship", required=True, help="path of the built kinship executable")
    arguments.add_argument("--database", help="a postgres:// URL of a server to make a new database on; default: SQLite")
    options = arguments.parse_args()
    kinship = os.path.abspath(options.kinship)
    folder = tempfile.mkdtemp(prefix="kinship-oidc-")
    database = fresh_postgres(options.database, "kinship_oidc") if options.database else os.path.join(folder, "kinship.sqlite")
    process, base, _ = start_server(kinship, database, folder)
    try:
        redirect_uri = f"http://127.0.0.1:{free_port()}/callback"
        code, out, err = admin(kinship, database, "apps", "create", "--name", "Relying Party", "--confidential",
                               "--redirect-uri", "http://127.0.0.1/callback")
        check("apps create registers a confidential app", code == 0, err)
        app = json.loads(out)
        # The library's discovery reads every endpoint but the device one, which it takes as an argument.
        with urllib.request.urlopen(base + "/.well-known/openid-configuration", timeout=10) as answer:
            device_endpoint = json.load(answer).get("device_authorization_endpoint")
        check("discovery names the device authorization endpoint", device_endpoint == base + "/oauth/device_authorization")
        client = OAuth2Client.from_discovery_endpoint(
            url=base + "/.well-known/openid-configuration", issuer=base, client_id=app["client_id"],
            client_secret=app["client_secret"], redirect_uri=redirect_uri, device_authorization_endpoint=device_endpoint, testing=True)
        check("discovery: the library found the token, userinfo and JWKS endpoints",
              client.token_endpoint and client.userinfo_endpoint and client.authorization_server_jwks)

        browser = Browser(base)
        request = client.authorization_request(scope="openid profile email")
        path = request.uri[len(base):]
        location = complete_dialog(browser, path, "ada@example.com", "kinship-demo", untick=("email",))
        response = request.validate_callback(location)
        check("the callback passes the library's checks (state, iss)", response.code)
        token = client.authorization_code(response)
        claims = token.id_token.claims
        check("the id_token passes the library's validation (signature, alg, kid, iss, aud, nonce, exp, at_hash)",
              token.id_token is not None)
        check("the id_token names the person and the app", claims.get("aud") == app["client_id"] and claims.get("sub"), claims)
        check("the id_token carries the name and, unticked, no email", claims.get("name") == "Ada Lovelace" and "email" not in claims,
              claims)
        check("the nonce is the one the library sent", claims.get("nonce") == request.nonce, claims)
        userinfo = client.userinfo(token)
        check("userinfo answers for the same person", userinfo.get("sub") == claims.get("sub"), userinfo)
        check("userinfo holds back the unticked email", "email" not in userinfo and userinfo.get("given_name") == "Ada", userinfo)

        offline = client.authorization_request(scope="openid profile offline_access", prompt="none")
        status, headers, _ = browser.request(offline.uri[len(base):])
        tokens = client.authorization_code(offline.validate_callback(headers.get("Location", "")))
        check("offline_access: the code exchange carries a refresh token", tokens.refresh_token, tokens)
        first = client.refresh_token(tokens)
        second = client.refresh_token(first)
        check("refreshed twice by the library: each time a new access and refresh token",
              len({tokens.access_token, first.access_token, second.access_token}) == 3
              and len({tokens.refresh_token, first.refresh_token, second.refresh_token}) == 3)
        check("the refreshed access token works at userinfo", client.userinfo(second).get("sub") == claims.get("sub"))
        client.revoke_refresh_token(second.refresh_token)
        try:
            client.refresh_token(second.refresh_token)
            revoked = False
        except InvalidGrant:
            revoked = True
        check("revoked through the library (RFC 7009), the refresh token is refused with invalid_grant", revoked)

        device = client.authorize_device(scope="openid profile email")
        check("device login through the library: a user code like BCDF-GHJK and the /device page",
              re.fullmatch(r"[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}", device.user_code)
              and device.verification_uri == base + "/device", device.user_code)
        try:
            client.device_code(device.device_code)
            pending = False
        except AuthorizationPending:
            pending = True
        check("before the person answers, the library reads authorization_pending", pending)
        done = approve_device(base, device.verification_uri_complete, "ada@example.com", "kinship-demo", untick=("email",))
        check("a second HTTP session approves the code on /device (email unticked)", "logged in as Ada Lovelace" in done, done)
        polling = DeviceAuthorizationPollingJob(client, device)
        device_token = None
        while device_token is None:
            device_token = polling()
        check("the library's polling job gets the tokens, with an id_token it validated",
              device_token.id_token is not None and device_token.id_token.claims.get("sub") == claims.get("sub"))
        check("the device token holds back the unticked email", "email" not in client.userinfo(device_token))
        try:
            client.device_code(device.device_code)
            spent = False
        except InvalidGrant:
            spent = True
        check("the device code gives its tokens once", spent)

        silent = client.authorization_request(scope="openid profile", prompt="none")
        status, headers, _ = browser.request(silent.uri[len(base):])
        again = silent.validate_callback(headers.get("Location", ""))
        renewed = client.authorization_code(again)
        check("prompt=none after consent: a code at once and a valid id_token",
              status == 303 and renewed.id_token.claims.get("sub") == claims.get("sub"))

        stranger = client.authorization_request(scope="openid", prompt="none")
        status, headers, _ = Browser(base).request(stranger.uri[len(base):])
        try:
            stranger.validate_callback(headers.get("Location", ""))
            refused = False
        except LoginRequired:
            refused = True
        check("prompt=none in a browser nobody logged in to: the library reads login_required", refused, headers.get("Location"))

        secret = secret_file_arguments(kinship, database, folder)
        code, out, err = admin(kinship, database, "keys", "list", *secret)
        keys = json.loads(out)["data"] if code == 0 else []
        check("keys list: the key the id_tokens name is the one signing", code == 0 and [k["kid"] for k in keys if k["status"] == "signing"]
              == [token.id_token.kid], out + err)
        code, out, err = admin(kinship, database, "keys", "rotate", *secret)
        rotated = json.loads(out) if code == 0 else {}
        check("keys rotate: a new key, published now, signing later", rotated.get("status") == "pending", out + err)
        code, out, err = admin(kinship, database, "keys", "rotate", "--secret-file", os.path.join(folder, "missing.secret"))
        check("keys rotate with a secret file that does not exist says so", code != 0 and "missing.secret" in err, err)
    finally:
        stop(process)
    print(f"OpenID relying party: {len(check.results) - len(check.failed)} passed, {len(check.failed)} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
