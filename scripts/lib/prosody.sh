# Throw-away Prosody servers on 127.0.0.1 for the XMPP tests: each in a folder of its own with
# its config, data and a self-signed certificate for the domain kinship.test, with rate limits
# off. start_test_prosody starts the shared one and exports KINSHIP_TEST_XMPP_PORT,
# KINSHIP_TEST_XMPP_DOMAIN, KINSHIP_TEST_XMPP_CERT and KINSHIP_TEST_PROSODY_CONFIG (for
# `prosodyctl --config … register`); stop_test_prosody stops it and removes its folder.
# scripts/xmpp/prosody-instance uses the same functions for tests that stop and restart a server.

PROSODY_DOMAIN=kinship.test

# prosody_prepare DIR PORT: writes DIR's config and certificate.
prosody_prepare() {
    local dir=$1 port=$2 domain=$PROSODY_DOMAIN
    mkdir -p "$dir/data" "$dir/certs"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$domain" -addext "subjectAltName=DNS:$domain" \
        -keyout "$dir/certs/$domain.key" -out "$dir/certs/$domain.crt" >/dev/null 2>&1
    cat >"$dir/prosody.cfg.lua" <<CONFIG
run_as_root = true
pidfile = "$dir/prosody.pid"
data_path = "$dir/data"
interfaces = { "127.0.0.1" }
c2s_ports = { $port }
c2s_direct_tls_ports = {}
s2s_ports = {}
http_ports = {}
https_ports = {}
log = { info = "$dir/prosody.log" }
authentication = "internal_hashed"
c2s_require_encryption = true
allow_unencrypted_plain_auth = false
modules_enabled = { "roster", "saslauth", "tls", "disco", "vcard_legacy", "ping", "posix" }
modules_disabled = { "s2s" }
limits = { c2s = { rate = "100mb/s", burst = "10s" } }
c2s_stanza_size_limit = 64*1024*1024
certificates = "$dir/certs"
VirtualHost "$domain"
    ssl = { key = "$dir/certs/$domain.key", certificate = "$dir/certs/$domain.crt" }
CONFIG
    echo "$port" >"$dir/port"
}

# prosody_launch DIR: starts DIR's Prosody in the background and waits until it accepts connections.
prosody_launch() {
    local dir=$1 port waited=0
    port=$(cat "$dir/port")
    # Started through Python so that Prosody inherits no file descriptor but its log (a test
    # process that runs this script must see the script end while Prosody runs on) and no
    # blocked signals (a test process may block SIGTERM, which Prosody needs to stop).
    python3 -c 'import signal, subprocess, sys
log = open(sys.argv[1], "a")
unblock = lambda: signal.pthread_sigmask(signal.SIG_SETMASK, [])
print(subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=log, stderr=log, close_fds=True, start_new_session=True,
    preexec_fn=unblock).pid)' \
        "$dir/stdout.log" prosody --config "$dir/prosody.cfg.lua" -F >"$dir/launcher.pid"
    until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1).close()" 2>/dev/null; do
        sleep 0.2
        waited=$((waited + 1))
        if [ "$waited" -gt 150 ] || ! kill -0 "$(cat "$dir/launcher.pid")" 2>/dev/null; then
            echo "error: Prosody did not start; its log:" >&2
            cat "$dir"/*.log >&2
            return 1
        fi
    done
}

# prosody_halt DIR: stops DIR's Prosody (SIGTERM, then SIGKILL after 10 s) and waits until it has exited.
prosody_halt() {
    local dir=$1 pid
    [ -f "$dir/launcher.pid" ] || return 0
    pid=$(cat "$dir/launcher.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$dir/launcher.pid"
}

start_test_prosody() {
    PROSODY_DIR=$(mktemp -d /tmp/kinship-prosody.XXXXXX)
    prosody_prepare "$PROSODY_DIR" "$(free_port)"
    echo "==> Prosody: $PROSODY_DIR, port $(cat "$PROSODY_DIR/port")"
    prosody_launch "$PROSODY_DIR"
    export KINSHIP_TEST_XMPP_PORT=$(cat "$PROSODY_DIR/port") KINSHIP_TEST_XMPP_DOMAIN=$PROSODY_DOMAIN
    export KINSHIP_TEST_XMPP_CERT="$PROSODY_DIR/certs/$PROSODY_DOMAIN.crt" KINSHIP_TEST_PROSODY_CONFIG="$PROSODY_DIR/prosody.cfg.lua"
}

stop_test_prosody() {
    [ -n "${PROSODY_DIR:-}" ] || return 0
    prosody_halt "$PROSODY_DIR"
    rm -rf "$PROSODY_DIR"
    PROSODY_DIR=""
}
