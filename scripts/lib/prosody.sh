# A throw-away Prosody on 127.0.0.1 for the XMPP tests, with its own config, data folder and
# self-signed certificate for the domain kinship.test, and no rate limits.
# start_test_prosody sets KINSHIP_TEST_XMPP_PORT, KINSHIP_TEST_XMPP_DOMAIN, KINSHIP_TEST_XMPP_CERT
# and KINSHIP_TEST_PROSODY_CONFIG (for `prosodyctl --config … register`); stop_test_prosody
# stops it and removes everything.

start_test_prosody() {
    PROSODY_DIR=$(mktemp -d /tmp/kinship-prosody.XXXXXX)
    local port domain=kinship.test
    port=$(free_port)
    mkdir -p "$PROSODY_DIR/data" "$PROSODY_DIR/certs"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$domain" -addext "subjectAltName=DNS:$domain" \
        -keyout "$PROSODY_DIR/certs/$domain.key" -out "$PROSODY_DIR/certs/$domain.crt" >/dev/null 2>&1
    cat >"$PROSODY_DIR/prosody.cfg.lua" <<CONFIG
run_as_root = true
pidfile = "$PROSODY_DIR/prosody.pid"
data_path = "$PROSODY_DIR/data"
plugin_paths = {}
interfaces = { "127.0.0.1" }
c2s_ports = { $port }
c2s_direct_tls_ports = {}
s2s_ports = {}
http_ports = {}
https_ports = {}
log = { info = "$PROSODY_DIR/prosody.log" }
authentication = "internal_hashed"
c2s_require_encryption = true
allow_unencrypted_plain_auth = false
modules_enabled = { "roster", "saslauth", "tls", "disco", "vcard_legacy", "ping", "posix" }
modules_disabled = { "s2s" }
limits = { c2s = { rate = "100mb/s", burst = "10s" } }
c2s_stanza_size_limit = 64*1024*1024
certificates = "$PROSODY_DIR/certs"
VirtualHost "$domain"
    ssl = { key = "$PROSODY_DIR/certs/$domain.key", certificate = "$PROSODY_DIR/certs/$domain.crt" }
CONFIG
    echo "==> Prosody: $PROSODY_DIR, port $port"
    prosody --config "$PROSODY_DIR/prosody.cfg.lua" -F >"$PROSODY_DIR/stdout.log" 2>&1 &
    PROSODY_PID=$!
    local waited=0
    until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1).close()" 2>/dev/null; do
        sleep 0.2
        waited=$((waited + 1))
        if [ "$waited" -gt 150 ] || ! kill -0 "$PROSODY_PID" 2>/dev/null; then
            echo "error: Prosody did not start; its log:" >&2
            cat "$PROSODY_DIR"/*.log >&2
            return 1
        fi
    done
    export KINSHIP_TEST_XMPP_PORT=$port KINSHIP_TEST_XMPP_DOMAIN=$domain
    export KINSHIP_TEST_XMPP_CERT="$PROSODY_DIR/certs/$domain.crt" KINSHIP_TEST_PROSODY_CONFIG="$PROSODY_DIR/prosody.cfg.lua"
}

stop_test_prosody() {
    [ -n "${PROSODY_DIR:-}" ] || return 0
    if [ -n "${PROSODY_PID:-}" ] && kill -0 "$PROSODY_PID" 2>/dev/null; then
        kill "$PROSODY_PID" 2>/dev/null || true
        wait "$PROSODY_PID" 2>/dev/null || true
    fi
    rm -rf "$PROSODY_DIR"
    PROSODY_DIR=""
}
