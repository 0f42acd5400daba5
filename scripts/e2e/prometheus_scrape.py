#!/usr/bin/env python3
"""Kinship's metrics, read by a real Prometheus (Debian's `prometheus`), not by a text check.

Starts `kinship serve --demo --metrics-port PORT` on SQLite and a Prometheus scraping it every
second, then plays people at the same moment: three log in through the dialog and exchange their
codes, two type a wrong password, and Graph calls are made with good and bad tokens. Prometheus's
HTTP API is then asked for the login, token and Graph counters until it has scraped them. Also
checks that /metrics is not served on the public port, and /healthz and /readyz.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

from kinship_e2e import Browser, Checks, demo_credentials, forms_of, free_port, log_in, start_server, stop

check = Checks()

CONFIGURATION = """
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: kinship
    static_configs:
      - targets: ["127.0.0.1:{port}"]
"""


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def query(prometheus, expression):
    """The value of an instant query's one result, or None while Prometheus has none."""
    status, body = get(prometheus + "/api/v1/query?" + urllib.parse.urlencode({"query": expression}))
    results = json.loads(body)["data"]["result"] if status == 200 else []
    return float(results[0]["value"][1]) if results else None


def wait_for(prometheus, expression, expected, seconds=30):
    deadline = time.time() + seconds
    value = None
    while time.time() < deadline:
        value = query(prometheus, expression)
        if value == expected:
            return value
        time.sleep(0.5)
    return value


def ready(prometheus):
    try:
        return get(prometheus + "/-/ready")[0] == 200
    except OSError:
        return False


def wrong_password(base):
    browser = Browser(base)
    _, _, page = browser.request("/login")
    fields = dict(forms_of(page)["/login"]["fields"])
    fields.update({"login": "ada@example.com", "password": "not-her-password"})
    return browser.request("/login", fields)[0]


def main():
    arguments = argparse.ArgumentParser(description=__doc__)
    arguments.add_argument("--kinship", required=True, help="path of the built kinship executable")
    options = arguments.parse_args()
    binary = shutil.which("prometheus")
    if not binary:
        check("Debian's prometheus is installed (scripts/test installs it)", False)
        sys.exit(1)
    folder = tempfile.mkdtemp(prefix="kinship-prometheus-")
    metrics_port, prometheus_port = free_port(), free_port()
    process, base, banner = start_server(os.path.abspath(options.kinship), os.path.join(folder, "kinship.sqlite"), folder,
                                         extra=["--metrics-port", str(metrics_port), "--bcrypt-cost", "4"])
    with open(os.path.join(folder, "prometheus.yml"), "w") as configuration:
        configuration.write(CONFIGURATION.format(port=metrics_port))
    prometheus = f"http://127.0.0.1:{prometheus_port}"
    scraper = subprocess.Popen(
        [binary, "--config.file", os.path.join(folder, "prometheus.yml"), "--storage.tsdb.path", os.path.join(folder, "tsdb"),
         "--web.listen-address", f"127.0.0.1:{prometheus_port}"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, "prometheus.log"), "w"))
    try:
        deadline = time.time() + 60
        while time.time() < deadline and not ready(prometheus):
            time.sleep(0.5)
        check("Prometheus is up", ready(prometheus), open(os.path.join(folder, "prometheus.log")).read()[-2000:])
        check("/healthz and /readyz answer on the public port", get(base + "/healthz")[0] == 200 and get(base + "/readyz") == (200, "ready"))
        status, body = get(base + "/metrics")
        check("/metrics is not served on the public port", "kinship_http_requests_total" not in body, status)
        status, body = get(f"http://127.0.0.1:{metrics_port}/metrics")
        check("/metrics is served on the metrics port", status == 200 and "# TYPE" in body, status)

        client_id, _ = demo_credentials(banner)
        tokens, outcomes = [], []
        lock = threading.Lock()

        def good(index):
            token = log_in(base, client_id, ("ada@example.com", "grace@example.com", "alan@example.com")[index], "kinship-demo",
                           "email")["access_token"]
            with lock:
                tokens.append(token)

        def bad(_):
            status = wrong_password(base)
            with lock:
                outcomes.append(status)

        threads = [threading.Thread(target=good, args=(i,)) for i in range(3)] + [threading.Thread(target=bad, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        check("three people logged in at the same moment as two wrong passwords", len(tokens) == 3 and outcomes == [401, 401],
              (len(tokens), outcomes))
        graph = [get(base + "/me?" + urllib.parse.urlencode({"access_token": token}))[0] for token in tokens]
        graph += [get(base + "/me?access_token=not-a-token")[0] for _ in range(2)]
        check("Graph calls: three with a token, two refused", graph == [200, 200, 200, 401, 401],
              graph)

        expectations = [
            ('kinship_logins_total{outcome="ok"}', 3, "logins that succeeded"),
            ('kinship_logins_total{outcome="wrong_password"}', 2, "logins with a wrong password"),
            ('kinship_tokens_issued_total{grant_type="authorization_code"}', 3, "tokens issued for codes"),
            ('kinship_graph_calls_total{path="/me",error_code="none"}', 3, "Graph calls to /me answered"),
            ('kinship_graph_calls_total{path="/me",error_code="190"}', 2, "Graph calls to /me refused with error 190"),
            ('sum(kinship_dialog_consents_total)', 3, "dialog consents"),
        ]
        for expression, expected, label in expectations:
            value = wait_for(prometheus, expression, expected)
            check(f"Prometheus reads {label}: {expected}", value == expected, f"{expression} = {value}")
        value = wait_for(prometheus, 'sum(kinship_http_requests_total{route="/oauth/access_token",status="200"})', 3)
        check("Prometheus reads requests by route and status", value == 3, value)
        value = query(prometheus, 'sum(kinship_http_request_duration_seconds_count{route="/oauth/access_token"})')
        check("Prometheus reads the latency histogram", value == 3, value)
        value = query(prometheus, "kinship_callback_outbox_depth")
        check("Prometheus reads the outbox depth", value == 0, value)
    finally:
        scraper.terminate()
        scraper.wait(timeout=30)
        stop(process)
    print(f"Prometheus scrape: {len(check.results) - len(check.failed)} passed, {len(check.failed)} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
