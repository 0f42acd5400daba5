#!/usr/bin/env python3
"""Reads everything the servers of an end-to-end run logged (the files in $KINSHIP_E2E_LOGS, or the
folder given) and fails on anything that must never be written to a log: access tokens, codes,
the passwords the checks typed, cookie and CSRF values, client and signing secrets, app tokens, bearer
headers, signed requests.

A log line may name a user id, an app id, a path or an error; never a secret, whatever the level."""
import os
import re
import sys

PATTERNS = {
    "an access token": re.compile(r"kat_[A-Za-z0-9_-]{16,}"),
    "an authorization code": re.compile(r"kac_[A-Za-z0-9_-]{16,}"),
    "a session cookie": re.compile(r"kinship_session=[A-Za-z0-9_-]{8,}"),
    "a sample app cookie": re.compile(r"kinship_sample=[A-Za-z0-9_-]{8,}"),
    "a CSRF cookie": re.compile(r"kinship_csrf=[A-Za-z0-9_-]{8,}"),
    "a CSRF token": re.compile(r"csrf_token=[A-Za-z0-9_%-]{8,}"),
    "a bearer header": re.compile(r"Bearer [A-Za-z0-9_.-]{16,}", re.IGNORECASE),
    "a client secret": re.compile(r"client_secret[\"'=:\s]+[A-Za-z0-9_-]{16,}"),
    "a PKCE verifier": re.compile(r"code_verifier=[A-Za-z0-9_-]{16,}"),
    "a password field": re.compile(r"password=[^&\s]+"),
    "an app signing secret": re.compile(r"kss_[A-Za-z0-9_-]{16,}"),
    "an app access token": re.compile(r"\|kapp_[A-Za-z0-9_-]{16,}"),
    "a signed_request": re.compile(r"signed_request=[A-Za-z0-9_.-]{16,}"),
    "a password reset link": re.compile(r"kpr_[A-Za-z0-9_-]{16,}"),
}

# The passwords the end-to-end checks type.
PASSWORDS = ["kinship-demo", "correct horse battery", "storm password 1", "substitution"]


def audit(folder):
    files = sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".log"))
    findings = []
    lines = 0
    for path in files:
        with open(path, errors="replace") as log:
            for number, line in enumerate(log, 1):
                lines += 1
                for what, pattern in PATTERNS.items():
                    if pattern.search(line):
                        findings.append(f"{os.path.basename(path)}:{number}: {what}: {line.strip()[:160]}")
                for password in PASSWORDS:
                    if password in line:
                        findings.append(f"{os.path.basename(path)}:{number}: a password: {line.strip()[:160]}")
    return files, lines, findings


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("KINSHIP_E2E_LOGS")
    if not folder or not os.path.isdir(folder):
        print("log audit: give the folder of server logs (or set KINSHIP_E2E_LOGS)", file=sys.stderr)
        return 1
    files, lines, findings = audit(folder)
    for finding in findings[:50]:
        print("  FAIL  " + finding)
    print(f"log audit: {len(files)} server logs, {lines} lines, {len(findings)} secrets found")
    return 1 if findings or not files else 0


if __name__ == "__main__":
    sys.exit(main())
