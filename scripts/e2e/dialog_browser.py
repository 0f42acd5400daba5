#!/usr/bin/env python3
"""A stand-in for the system browser, for `BROWSER=...`: completes a Kinship login dialog as a
person would, then loads the redirect (the CLI's loopback listener), as a browser does.

Usage: dialog_browser.py DIALOG_URL. Who logs in and what they untick come from the environment:
KINSHIP_E2E_LOGIN (default ada@example.com), KINSHIP_E2E_PASSWORD (default kinship-demo),
KINSHIP_E2E_UNTICK (comma-separated permissions), KINSHIP_E2E_BUTTON (continue or cancel).
Every URL it is given is appended to KINSHIP_E2E_OPENED, when set.
"""
import os
import sys
import urllib.parse
import urllib.request

from kinship_e2e import Browser, complete_dialog


def main():
    url = sys.argv[1]
    if os.environ.get("KINSHIP_E2E_OPENED"):
        with open(os.environ["KINSHIP_E2E_OPENED"], "a") as opened:
            opened.write(url + "\n")
    parts = urllib.parse.urlsplit(url)
    browser = Browser(f"{parts.scheme}://{parts.netloc}")
    untick = [name for name in os.environ.get("KINSHIP_E2E_UNTICK", "").split(",") if name]
    redirect = complete_dialog(
        browser, parts.path + "?" + parts.query, os.environ.get("KINSHIP_E2E_LOGIN", "ada@example.com"),
        os.environ.get("KINSHIP_E2E_PASSWORD", "kinship-demo"), untick, os.environ.get("KINSHIP_E2E_BUTTON", "continue"))
    with urllib.request.urlopen(redirect, timeout=30) as page:
        page.read()


if __name__ == "__main__":
    main()
