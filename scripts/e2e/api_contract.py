#!/usr/bin/env python3
"""The API contract check: schemathesis sends generated requests to every operation in the
served /openapi.json of a real `kinship serve --demo`, with a real token, and fails on any server
error or any answer that does not match the document."""
import argparse
import os
import signal
import subprocess
import sys
import tempfile

from kinship_e2e import demo_credentials, log_in, start_server

CHECKS = "not_a_server_error,response_schema_conformance,content_type_conformance"


def schemathesis(base, token, folder, *selection):
    command = [sys.executable, "-m", "schemathesis.cli", "run", base + "/openapi.json", "--header", f"Authorization: Bearer {token}",
               "--checks", CHECKS, "--max-examples", "30", "--workers", "2", "--seed", "2026", "--no-color",
               "--suppress-health-check", "all", *selection]
    print("==> schemathesis run " + base + "/openapi.json " + " ".join(selection), flush=True)
    # Run from the scratch folder: schemathesis and hypothesis keep their caches in the working folder.
    return subprocess.run(command, cwd=folder).returncode


def main():
    arguments = argparse.ArgumentParser(description=__doc__)
    arguments.add_argument("--kinship", required=True, help="path of the built kinship executable")
    options = arguments.parse_args()
    folder = tempfile.mkdtemp(prefix="kinship-contract-")
    process, base, banner = start_server(os.path.abspath(options.kinship), os.path.join(folder, "kinship.sqlite"), folder)
    try:
        client_id, _ = demo_credentials(banner)
        scope = "email,user_friends,user_birthday,user_posts,publish_actions"
        token = log_in(base, client_id, "ada@example.com", "kinship-demo", scope)["access_token"]
        codes = [schemathesis(base, token, folder, "--exclude-method", "DELETE")]
        # Deleting permissions ends the token, so those operations run last, with a token of their own.
        token = log_in(base, client_id, "grace@example.com", "kinship-demo", scope)["access_token"]
        codes.append(schemathesis(base, token, folder, "--include-method", "DELETE"))
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=15)
    failed = sum(1 for code in codes if code != 0)
    print(f"api contract: {len(codes) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
