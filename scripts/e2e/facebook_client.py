#!/usr/bin/env python3
"""Kinship seen by a Graph client library written for Facebook, changed only in its base URL.

Starts a real `kinship serve --demo` on a free loopback port and registers a confidential app.
facebook-sdk (PyPI, `facebook.GraphAPI`) then builds the dialog URL (no PKCE, no response_type, as
Facebook allows confidential apps), a scripted browser walks the real dialog, and the library
exchanges the code by GET, reads /me, the friends and the permissions, posts to the feed, extends
the token, gets the app access token (client_credentials), debugs the token with it, reads the app,
the person as the app, and several objects at once (?ids=), and removes the person's login as the
app. Each Graph error it meets must be one the library understands (its code and message).

Then the app's callbacks, as an app's server sees them: `kinship apps callbacks` registers a small
HTTP server this script runs; the person logs in again and removes the app, and the deauthorize
callback's signed_request passes the library's own `parse_signed_request` with the signing secret;
`kinship callbacks request-data-deletion` sends the data deletion callback, whose answer
(`{url, confirmation_code}`) `kinship callbacks list` then shows.
"""
import argparse
import http.server
import json
import os
import secrets
import sys
import tempfile
import threading
import time
import urllib.parse
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore", SyntaxWarning)  # facebook-sdk 3.1 has a regex without a raw string
    import facebook

from kinship_e2e import Browser, Checks, admin, complete_dialog, free_port, fresh_postgres, secret_file_arguments, start_server, stop

check = Checks()
VERSION = "3.1"


def graph_error(call):
    """Runs `call`, which must fail; returns the library's GraphAPIError."""
    try:
        answer = call()
    except facebook.GraphAPIError as error:
        return error
    raise AssertionError(f"expected a Graph error, got {answer}")


class AppServer(http.server.ThreadingHTTPServer):
    """The app's own server: records each callback's path and signed_request, answers as Facebook
    asks apps to (data deletion: a status URL and a confirmation code)."""

    def __init__(self):
        self.received = []
        super().__init__(("127.0.0.1", 0), AppServerHandler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def base(self):
        return f"http://127.0.0.1:{self.server_address[1]}"

    def wait_for(self, path, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for received_path, signed_request in self.received:
                if received_path == path:
                    return signed_request
            time.sleep(0.1)
        return None


class AppServerHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        self.server.received.append((self.path, urllib.parse.parse_qs(body).get("signed_request", [""])[0]))
        answer = {"url": "https://app.example.com/deletion?id=e2e", "confirmation_code": "e2e-42"} if self.path == "/deletion" else {}
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *arguments):
        pass


def log_in(base, app_id, app_secret, redirect_uri, perms):
    """The library's login: its dialog URL walked by a scripted browser, its code exchange."""
    anonymous = facebook.GraphAPI(version=VERSION)
    state = secrets.token_urlsafe(16)
    dialog = anonymous.get_auth_url(app_id, redirect_uri, perms=perms, state=state)
    location = complete_dialog(Browser(base), dialog[len(base):], "ada@example.com", "kinship-demo")
    query = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)
    check("the dialog the library built sends back a code and the state", query.get("state") == [state] and "code" in query,
          location)
    return anonymous.get_access_token_from_code(query["code"][0], redirect_uri, app_id, app_secret)


def main():
    arguments = argparse.ArgumentParser(description=__doc__)
    arguments.add_argument("--kinship", required=True, help="path of the built kinship executable")
    arguments.add_argument("--database", help="a postgres:// URL of a server to make a new database on; default: SQLite")
    options = arguments.parse_args()
    kinship = os.path.abspath(options.kinship)
    folder = tempfile.mkdtemp(prefix="kinship-facebook-")
    database = fresh_postgres(options.database, "kinship_facebook") if options.database else os.path.join(folder, "kinship.sqlite")
    process, base, _ = start_server(kinship, database, folder)
    try:
        facebook.FACEBOOK_GRAPH_URL = base + "/"
        facebook.FACEBOOK_WWW_URL = base + "/"
        redirect_uri = f"http://127.0.0.1:{free_port()}/callback"
        code, out, err = admin(kinship, database, "apps", "create", "--name", "Graph Classic", "--confidential",
                               "--redirect-uri", redirect_uri)
        check("apps create registers a confidential app", code == 0, err)
        app = json.loads(out)
        app_id, app_secret = app["client_id"], app["client_secret"]

        anonymous = facebook.GraphAPI(version=VERSION)
        answer = log_in(base, app_id, app_secret, redirect_uri, ["email", "user_friends", "user_posts", "publish_actions"])
        check("get_access_token_from_code (GET /oauth/access_token without grant_type) gives a token",
              answer.get("access_token", "").startswith("kat_"), answer)
        person = facebook.GraphAPI(access_token=answer["access_token"], version=VERSION)

        me = person.get_object("me", fields="id,name,email")
        check("get_object('me') reads the profile with the granted email", me.get("name") == "Ada Lovelace" and me.get("email"), me)
        check("get_permissions lists what was granted", {"public_profile", "email", "user_friends"} <= person.get_permissions(me["id"]))
        friends = person.get_connections("me", "friends")
        check("get_connections('me', 'friends') has Graph's shape", isinstance(friends.get("data"), list)
              and "total_count" in friends.get("summary", {}), friends)
        posted = person.put_object("me", "feed", message="Hello from facebook-sdk")
        feed = person.get_connections("me", "feed")
        check("put_object posts to the feed and get_connections reads it back",
              posted.get("id") and any(post.get("id") == posted["id"] for post in feed.get("data", [])), feed)

        extended = person.extend_access_token(app_id, app_secret)
        check("extend_access_token (GET, fb_exchange_token) gives a long-lived token", extended.get("expires_in", 0) > 86_400, extended)

        app_token = anonymous.get_app_access_token(app_id, app_secret)
        check("get_app_access_token (client_credentials) gives APP_ID|…", app_token.startswith(app_id + "|")
              and app_secret not in app_token, app_token)
        debug = anonymous.debug_access_token(answer["access_token"], app_id, app_secret)["data"]
        check("debug_access_token describes the person's token", debug.get("user_id") == me["id"] and debug.get("is_valid"), debug)
        as_app = facebook.GraphAPI(access_token=app_token, version=VERSION)
        check("the app access token reads the app's node", as_app.get_object(app_id).get("name") == "Graph Classic")
        check("the app access token reads a person who uses the app, with what they granted",
              as_app.get_object(me["id"], fields="name,email").get("email") == me["email"])
        error = graph_error(lambda: as_app.get_object("me"))
        check("/me with the app access token is Graph error 2500", error.code == 2500, error.message)

        objects = person.get_objects([me["id"], app_id], fields="id,name")
        check("get_objects reads several objects keyed by id", set(objects) == {me["id"], app_id}
              and objects[app_id].get("name") == "Graph Classic", objects)
        error = graph_error(lambda: person.get_objects([me["id"], "404404404"]))
        check("get_objects names the ids it cannot read (803)", error.code == 803 and "404404404" in error.message, error.message)
        error = graph_error(lambda: person.get_object("me", fields="no_such_field"))
        check("an unknown field is Graph error 100 with a message", error.code == 100 and "no_such_field" in error.message)

        removed = as_app.request(f"v{VERSION}/{me['id']}/permissions", method="DELETE")
        check("the app removes the person's login with its app token", removed.get("success") is True, removed)
        error = graph_error(lambda: person.get_object("me"))
        check("the person's token then fails with 190", error.code == 190, error.message)

        app_server = AppServer()
        code, out, err = admin(kinship, database, "apps", "callbacks", app_id, "--deauthorize-url", app_server.base + "/deauthorize",
                               "--data-deletion-url", app_server.base + "/deletion", *secret_file_arguments(kinship, database, folder))
        settings = json.loads(out) if code == 0 else {}
        signing_secret = settings.get("signing_secret", "")
        check("apps callbacks sets both URLs and shows the signing secret once", signing_secret.startswith("kss_")
              and settings.get("deauthorize_callback_url") == app_server.base + "/deauthorize", out + err)
        code, out, err = admin(kinship, database, "apps", "callbacks", app_id, "--deauthorize-url", "http://app.example.com/deauthorize",
                               *secret_file_arguments(kinship, database, folder))
        check("apps callbacks refuses a plain-http URL and says what to use", code != 0 and "must use https" in err, out + err)
        again = facebook.GraphAPI(access_token=log_in(base, app_id, app_secret, redirect_uri, ["email"])["access_token"], version=VERSION)
        again.request(f"v{VERSION}/me/permissions", method="DELETE")
        signed_request = app_server.wait_for("/deauthorize")
        parsed = facebook.parse_signed_request(signed_request or "", signing_secret)
        check("removing the app posts a signed_request that facebook-sdk's parse_signed_request accepts",
              parsed and parsed.get("user_id") == me["id"] and parsed.get("algorithm") == "HMAC-SHA256", signed_request)
        check("a signed_request does not verify with the client secret", facebook.parse_signed_request(signed_request or "", app_secret)
              is False)
        code, out, err = admin(kinship, database, "callbacks", "request-data-deletion", "--user", me["id"])
        check("callbacks request-data-deletion queues the app's data deletion callback", code == 0 and json.loads(out) == {"queued": 1},
              out + err)
        deletion = app_server.wait_for("/deletion")
        check("the data deletion callback is signed too", (facebook.parse_signed_request(deletion or "", signing_secret) or {})
              .get("user_id") == me["id"])
        kept = {}
        for _ in range(50):
            code, out, err = admin(kinship, database, "callbacks", "list", "--app", app_id)
            kept = next((entry for entry in json.loads(out)["data"] if entry["kind"] == "data_deletion"), {}) if code == 0 else {}
            if kept.get("status") == "delivered":
                break
            time.sleep(0.2)
        check("callbacks list shows the app's answer: status URL and confirmation code", kept.get("confirmation_code") == "e2e-42"
              and kept.get("status_url") == "https://app.example.com/deletion?id=e2e", kept)
        app_server.shutdown()
    finally:
        stop(process)
    print(f"Facebook client: {len(check.results) - len(check.failed)} passed, {len(check.failed)} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
