#!/usr/bin/env python3
"""The files in deploy/, used for real.

- deploy/kinship.service passes `systemd-analyze verify` with nothing to say (an unknown key or a
  bad value is only a warning to systemd, so any output fails this check).
- deploy/nginx/kinship.conf runs in Debian's nginx in front of a `kinship serve` started with the
  unit's own options (--public-url https://…, --trusted-proxy 127.0.0.1, …), on free loopback ports with a
  certificate made here. Through it, over verified TLS: a person logs in through the dialog and
  the app's token reads /me; the session cookie is Secure; an X-Forwarded-For a client writes
  itself is not believed (the login limit still counts nginx's view of the client); /metrics is
  not reachable.
"""
import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

from kinship_e2e import Browser, Checks, demo_credentials, forms_of, free_port, log_in, start_server, stop

check = Checks()
ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def verify_unit(kinship, folder):
    unit = open(os.path.join(ROOT, "deploy", "kinship.service")).read().replace("/opt/kinship/kinship", kinship)
    path = os.path.join(folder, "kinship.service")
    with open(path, "w") as file:
        file.write(unit)
    verified = subprocess.run(["systemd-analyze", "verify", path], capture_output=True, text=True)
    check("deploy/kinship.service: systemd-analyze verify has nothing to say", verified.returncode == 0 and not verified.stderr.strip()
          and not verified.stdout.strip(), verified.stderr + verified.stdout)
    start = re.search(r"^ExecStart=((?:.*\\\n)*.*)$", unit, re.M)
    return shlex.split(start.group(1).replace("\\\n", " ")) if start else []


def certificate(folder):
    key, cert = os.path.join(folder, "privkey.pem"), os.path.join(folder, "fullchain.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert], check=True, capture_output=True)
    return key, cert


def nginx_configuration(folder, http_port, https_port, kinship_port, key, cert):
    site = open(os.path.join(ROOT, "deploy", "nginx", "kinship.conf")).read()
    site = re.sub(r"^\s*listen \[::\].*\n", "", site, flags=re.M)
    site = site.replace("listen 80;", f"listen 127.0.0.1:{http_port};").replace("listen 443 ", f"listen 127.0.0.1:{https_port} ")
    site = site.replace("/etc/ssl/kinship/fullchain.pem", cert).replace("/etc/ssl/kinship/privkey.pem", key)
    site = site.replace("http://127.0.0.1:8080", f"http://127.0.0.1:{kinship_port}").replace("login.example.com", "127.0.0.1")
    path = os.path.join(folder, "nginx.conf")
    with open(path, "w") as file:
        file.write(f"""
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log;
events {{ worker_connections 256; }}
http {{
    access_log {folder}/nginx-access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
{site}
}}
""")
    return path


def main():
    arguments = argparse.ArgumentParser(description=__doc__)
    arguments.add_argument("--kinship", required=True, help="path of the built kinship executable")
    options = arguments.parse_args()
    kinship = os.path.abspath(options.kinship)
    folder = tempfile.mkdtemp(prefix="kinship-deploy-")
    unit_arguments = verify_unit(kinship, folder)
    check("the unit starts kinship serve behind a trusted proxy with a public https URL",
          unit_arguments[1:2] == ["serve"] and "--trusted-proxy" in unit_arguments and any(a.startswith("https://") for a in unit_arguments),
          unit_arguments)
    if not shutil.which("nginx"):
        check("nginx is installed (scripts/test installs it)", False)
        sys.exit(1)
    key, cert = certificate(folder)
    http_port, https_port = free_port(), free_port()
    base = f"https://127.0.0.1:{https_port}"
    os.environ["SSL_CERT_FILE"] = cert  # urllib verifies nginx's certificate against this one
    # The unit's own options, given to the real parser: only the database, the ports and the public
    # URL are this run's (start_server picks the database and port).
    this_run = {"--public-url": base, "--metrics-port": str(free_port())}
    pairs = list(zip(unit_arguments[2::2], unit_arguments[3::2]))
    extra = [part for name, value in pairs if name not in ("--database", "--port") for part in (name, this_run.get(name, value))]
    process, direct, banner = start_server(kinship, os.path.join(folder, "kinship.sqlite"), folder,
                                           extra=extra + ["--failed-logins-per-address", "2", "--bcrypt-cost", "4"])
    kinship_port = int(direct.rsplit(":", 1)[1])
    configuration = nginx_configuration(folder, http_port, https_port, kinship_port, key, cert)
    tested = subprocess.run(["nginx", "-t", "-c", configuration, "-p", folder], capture_output=True, text=True)
    check("deploy/nginx/kinship.conf: nginx -t accepts it", tested.returncode == 0, tested.stderr)
    nginx = subprocess.Popen(["nginx", "-c", configuration, "-p", folder, "-g", "daemon off;"], stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        client_id, _ = demo_credentials(banner)
        token = log_in(base, client_id, "ada@example.com", "kinship-demo", "email")["access_token"]
        request = urllib.request.Request(base + "/me?fields=name,email", headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            check("through nginx over TLS: the dialog, the code exchange and /me", answer.status == 200 and b"Ada" in answer.read())

        browser = Browser(base)
        _, _, page = browser.request("/login")
        fields = dict(forms_of(page)["/login"]["fields"])
        fields.update({"login": "ada@example.com", "password": "kinship-demo"})
        status, headers, _ = browser.request("/login", fields)
        cookie = headers.get("Set-Cookie", "")
        check("the session cookie is Secure behind an https public URL", status == 303 and "Secure" in cookie, cookie)

        statuses = []
        for spoofed in ["198.51.100.1", "198.51.100.2", "198.51.100.3"]:
            wrong = Browser(base)
            _, _, page = wrong.request("/login")
            fields = dict(forms_of(page)["/login"]["fields"])
            fields.update({"login": "grace@example.com", "password": "not her password"})
            request = urllib.request.Request(base + "/login", data=urllib.parse.urlencode(fields).encode(),
                                             headers={"X-Forwarded-For": spoofed, "Content-Type": "application/x-www-form-urlencoded"})
            try:
                statuses.append(wrong.opener.open(request, timeout=10).status)
            except urllib.error.HTTPError as error:
                statuses.append(error.code)
        check("an X-Forwarded-For the client wrote is not believed: the third wrong password is throttled", statuses == [401, 401, 429],
              statuses)
        try:
            status = urllib.request.urlopen(base + "/metrics", timeout=10).status
        except urllib.error.HTTPError as error:
            status = error.code
        check("/metrics is not reachable through nginx", status == 404, status)
    finally:
        nginx.send_signal(signal.SIGQUIT)
        try:
            nginx.wait(timeout=20)
        except subprocess.TimeoutExpired:
            nginx.kill()
        stop(process)
    print(f"deploy files: {len(check.results) - len(check.failed)} passed, {len(check.failed)} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
