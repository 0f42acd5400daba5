#!/usr/bin/env python3
"""Kinship seen by a Graph client library written for Facebook, changed only in its base URL.

Starts a real `kinship serve --demo` on a free loopback port and registers a confidential app.
facebook-sdk (PyPI, `facebook.GraphAPI`) then builds the dialog URL (no PKCE, no response_type, as
Facebook allows confidential apps), a scripted browser walks the real dialog, and the library
exchanges the code by GET, reads /me, the friends and the permissions, posts to the feed, extends
the token, gets the app access token (client_credentials), debugs the token with it, reads the app,
the person as the app, and several objects at once (?ids=), and finally removes the person's login
as the app. Each Graph error it meets must be one the library understands (its code and message).
"""
import argparse
import json
import os
import secrets
import sys
import tempfile
import urllib.parse
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore", SyntaxWarning)  # facebook-sdk 3.1 has a regex without a raw string
    import facebook

from kinship_e2e import Browser, Checks, admin, complete_dialog, free_port, fresh_postgres, start_server, stop

check = Checks()
VERSION = "3.1"


def graph_error(call):
    """Runs `call`, which must fail; returns the library's GraphAPIError."""
    try:
        answer = call()
    except facebook.GraphAPIError as error:
        return error
    raise AssertionError(f"expected a Graph error, got {answer}")


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
        state = secrets.token_urlsafe(16)
        dialog = anonymous.get_auth_url(app_id, redirect_uri, perms=["email", "user_friends", "user_posts", "publish_actions"], state=state)
        location = complete_dialog(Browser(base), dialog[len(base):], "ada@example.com", "kinship-demo")
        query = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)
        check("the dialog the library built sends back a code and the state", query.get("state") == [state] and "code" in query,
              location)
        answer = anonymous.get_access_token_from_code(query["code"][0], redirect_uri, app_id, app_secret)
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
    finally:
        stop(process)
    print(f"Facebook client: {len(check.results) - len(check.failed)} passed, {len(check.failed)} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
