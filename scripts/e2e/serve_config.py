#!/usr/bin/env python3
"""`kinship serve`'s settings from the command line, the environment and a config file.

- One name in all three (--graph-calls-per-user, KINSHIP_GRAPH_CALLS_PER_USER, "graph_calls_per_user"),
  and one precedence: command line, then environment, then file, then the default; --print-config
  names where each value came from.
- Secrets are masked by --print-config (a database URL's password, the SMTP password).
- A typo is refused with its name (an unknown key in the file, a value out of range in the
  environment); an unknown KINSHIP_ variable is logged.
- A real start on PostgreSQL with no option at all: the database URL, the secret file, the demo
  data and the port from the environment and the file; the URL never on the command line; a limit
  from the file holds.
- Event loops: one per processor the server may run on (its CPU affinity), unless
  NIO_SINGLETON_GROUP_LOOP_COUNT says otherwise.
- Thread scheduling: by default the event loops and the SQLite threads, and only them, run under
  SCHED_BATCH; --thread-scheduling inherited leaves every thread as it started.

    serve_config.py --kinship PATH --postgres URL
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from kinship_e2e import Checks, demo_credentials, fresh_postgres, free_port, log_in, server_log_path, start_server, stop

check = Checks()


def print_config(kinship, folder, arguments=(), environment=None):
    env = {key: value for key, value in os.environ.items() if not key.startswith("KINSHIP_") or key.startswith("KINSHIP_TEST_")}
    env.update(environment or {})
    done = subprocess.run([kinship, "serve", "--print-config", *arguments], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=60)
    return done.returncode, done.stdout, done.stderr


def setting(output, key):
    """(value, source) of `key` in --print-config's output."""
    for line in output.splitlines():
        name, _, rest = line.partition(" = ")
        if name.strip() == key:
            value, _, source = rest.rpartition("  # ")
            return value, source
    return None


def nio_threads(pid):
    """How many of SwiftNIO's shared event loop threads a process runs."""
    names = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/comm") as file:
            names.append(file.read().strip())
    return len([name for name in names if name.startswith("NIO-SGLTN-")])


def event_loops(kinship, folder):
    """Pinned to one processor (as `taskset -c 0` or systemd's CPUAffinity= pin it), a server runs one
    event loop and says why; unpinned, one per processor; NIO_SINGLETON_GROUP_LOOP_COUNT still wins."""
    own = os.sched_getaffinity(0)
    # (case, affinity, environment, event loops expected, whether the server logs why)
    cases = [("pinned to one processor", {min(own)}, {}, 1, len(own) > 1),
             ("free to run anywhere", own, {}, len(own), False),
             ("pinned, with NIO_SINGLETON_GROUP_LOOP_COUNT=3", {min(own)}, {"NIO_SINGLETON_GROUP_LOOP_COUNT": "3"}, 3, False)]
    for name, affinity, environment, expected, logs in cases:
        os.environ.update(environment)
        os.sched_setaffinity(0, affinity)
        try:
            server, _, _ = start_server(kinship, os.path.join(folder, "loops.sqlite"), folder, log_level="info")
        finally:
            os.sched_setaffinity(0, own)
            for key in environment:
                del os.environ[key]
        try:
            threads = nio_threads(server.pid)
        finally:
            stop(server)
        check(f"{name}: {expected} event loop thread(s)", threads == expected, threads)
        said = "Running one event loop per processor this process may run on" in open(server.log_path).read()
        check(f"{name}: the log says so only when the affinity chose the count", said == logs, said)


def thread_policies(pid):
    """{thread name: set of scheduling policies} of a running process."""
    policies = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/comm") as file:
            name = file.read().strip()
        policies.setdefault(name, set()).add(os.sched_getscheduler(int(task)))
    return policies


def thread_scheduling(kinship, folder):
    """By default the event loops and the SQLite threads under SCHED_BATCH, the request handlers' threads
    not; --thread-scheduling inherited leaves every thread as it started; a typo is refused by name."""
    for arguments, batched in (((), True), (("--thread-scheduling", "inherited"), False)):
        server, _, _ = start_server(kinship, os.path.join(folder, "scheduling.sqlite"), folder, log_level="info", extra=arguments)
        try:
            policies = thread_policies(server.pid)
        finally:
            stop(server)
        io = {name: policy for name, policy in policies.items() if name.startswith(("NIO-SGLTN-", "sqlite-"))}
        others = {name: policy for name, policy in policies.items() if name not in io}
        label = "by default" if batched else "inherited"
        expected = {os.SCHED_BATCH if batched else os.SCHED_OTHER}
        check(f"{label}: the event loops and the SQLite threads run under {'SCHED_BATCH' if batched else 'SCHED_OTHER'}",
              len(io) >= 3 and all(policy == expected for policy in io.values()), policies)
        check(f"{label}: every other thread keeps SCHED_OTHER", all(policy == {os.SCHED_OTHER} for policy in others.values()), others)
        said = "Event loops and database threads scheduled" in open(server.log_path).read()
        check(f"{label}: the log names the policy only when one was chosen", said == batched, said)
    code, _, err = print_config(kinship, folder, ["--thread-scheduling", "fast"])
    check("--thread-scheduling fast is refused with the values it takes", code != 0 and "inherited" in err and "batch" in err, err[-300:])
    code, _, err = print_config(kinship, folder, environment={"KINSHIP_THREAD_SCHEDULING": "fast"})
    check("KINSHIP_THREAD_SCHEDULING=fast is refused by name", code != 0 and "KINSHIP_THREAD_SCHEDULING" in err, err[-300:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kinship", required=True)
    parser.add_argument("--postgres", required=True)
    options = parser.parse_args()
    kinship = os.path.abspath(options.kinship)
    folder = tempfile.mkdtemp(prefix="kinship-config-")
    config = os.path.join(folder, "kinship.json")
    with open(config, "w") as file:
        json.dump({"port": 9200, "graph_calls_per_user": 7, "session_lifetime": 3600}, file)

    print("==> precedence: command line, then environment, then file, then default", flush=True)
    _, out, _ = print_config(kinship, folder)
    check("no settings: the default port", setting(out, "port") == ("8080", "default"), setting(out, "port"))
    _, out, _ = print_config(kinship, folder, ["--config", config])
    check("the file's port", setting(out, "port") == ("9200", "file " + config), setting(out, "port"))
    check("the file's Graph limit", setting(out, "graph_calls_per_user") == ("7", "file " + config))
    _, out, _ = print_config(kinship, folder, ["--config", config], {"KINSHIP_PORT": "9100"})
    check("the environment beats the file", setting(out, "port") == ("9100", "environment KINSHIP_PORT"), setting(out, "port"))
    _, out, _ = print_config(kinship, folder, ["--config", config, "--port", "9000"], {"KINSHIP_PORT": "9100"})
    check("the command line beats both", setting(out, "port") == ("9000", "command line"), setting(out, "port"))
    _, out, _ = print_config(kinship, folder, [], {"KINSHIP_CONFIG": config})
    check("KINSHIP_CONFIG names the file too", setting(out, "session_lifetime") == ("3600", "file " + config))

    print("==> secrets are masked", flush=True)
    _, out, _ = print_config(kinship, folder, [], {
        "KINSHIP_DATABASE": "postgres://kinship:hunter2-database@db.example.com/kinship",
        "KINSHIP_SMTP_HOST": "mail.example.com", "KINSHIP_MAIL_FROM": "no-reply@example.com", "KINSHIP_SMTP_USERNAME": "relay",
        "KINSHIP_SMTP_PASSWORD": "hunter2-smtp"})
    check("the database URL is shown without its password",
          setting(out, "database") == ("postgres://kinship:••••@db.example.com/kinship", "environment KINSHIP_DATABASE"),
          setting(out, "database"))
    check("no password is printed", "hunter2" not in out, out)
    check("the SMTP password is said to be set", setting(out, "smtp_password") == ("•••• (set)", "environment KINSHIP_SMTP_PASSWORD"))

    print("==> mistakes are refused with their names", flush=True)
    with open(os.path.join(folder, "typo.json"), "w") as file:
        json.dump({"prot": 9000}, file)
    code, _, err = print_config(kinship, folder, ["--config", "typo.json"])
    check("an unknown key in the file is refused by name", code != 0 and '"prot"' in err, err)
    with open(os.path.join(folder, "broken.json"), "w") as file:
        file.write("port = 9000")
    code, _, err = print_config(kinship, folder, ["--config", "broken.json"])
    check("a file that is not JSON is refused", code != 0 and "not a JSON object" in err, err)
    code, _, err = print_config(kinship, folder, [], {"KINSHIP_PORT": "99999"})
    check("an out-of-range value names the variable it came from", code != 0 and "KINSHIP_PORT is 99999" in err, err)
    code, _, err = print_config(kinship, folder, ["--config", config], {"KINSHIP_IDLE_TIMEOUT": "0"})
    check("…for every setting", code != 0 and "KINSHIP_IDLE_TIMEOUT is 0" in err, err)

    print("==> a real start on PostgreSQL with no option: environment and file only", flush=True)
    database = fresh_postgres(options.postgres, "kinship_config")
    secret = os.path.join(folder, "kinship.secret")
    subprocess.run([kinship, "secret", "generate", "--output", secret], check=True, capture_output=True, timeout=60)
    port = free_port()
    with open(config, "w") as file:
        json.dump({"port": port, "graph_calls_per_user": 3, "demo": True, "bcrypt_cost": 4}, file)
    env = {key: value for key, value in os.environ.items() if not key.startswith("KINSHIP_") or key.startswith("KINSHIP_TEST_")}
    env.update({"KINSHIP_CONFIG": config, "KINSHIP_DATABASE": database, "KINSHIP_SECRET_FILE": secret, "KINSHIP_PROT": "1"})
    log_path = server_log_path(folder)
    process = subprocess.Popen([kinship, "serve"], cwd=folder, env=env, stdout=subprocess.PIPE, stderr=open(log_path, "w"), text=True)
    try:
        banner = []
        deadline = time.time() + 120
        while time.time() < deadline and len([line for line in banner if line.strip().startswith("user")]) < 5:
            line = process.stdout.readline()
            if not line:
                break
            banner.append(line)
        base = f"http://127.0.0.1:{port}"
        ready = None
        while time.time() < deadline and ready is None:
            try:
                ready = urllib.request.urlopen(base + "/readyz", timeout=2).status
            except OSError:
                time.sleep(0.2)
        check("the server listens on the file's port and its database (from the environment) is ready", ready == 200, ready)
        with open(f"/proc/{process.pid}/cmdline", "rb") as file:
            command_line = file.read().decode(errors="replace")
        check("the database URL is not on the command line", "postgres" not in command_line, command_line)
        client_id, _ = demo_credentials("".join(banner))
        token = log_in(base, client_id, "ada@example.com", "kinship-demo", "public_profile")["access_token"]
        statuses = []
        for _ in range(4):
            request = urllib.request.Request(base + "/me", headers={"Authorization": "Bearer " + token})
            try:
                statuses.append(urllib.request.urlopen(request, timeout=10).status)
            except urllib.error.HTTPError as error:
                statuses.append(error.code)
        check("the file's Graph limit of 3 calls a minute holds", statuses == [200, 200, 200, 429], statuses)
    finally:
        stop(process)
    log = open(log_path).read()
    check("an unknown KINSHIP_ variable is logged by name", "KINSHIP_PROT names no setting" in log, log[-500:])

    print("==> event loops follow the processors the server may run on", flush=True)
    event_loops(kinship, folder)

    print("==> thread scheduling", flush=True)
    thread_scheduling(kinship, folder)

    print(f"serve configuration: {len(check.results) - len(check.failed)} passed, {len(check.failed)} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
