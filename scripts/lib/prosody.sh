# Throw-away Prosody servers on 127.0.0.1 for the XMPP tests: each in a folder of its own with
# its config, data and a self-signed certificate for the domain kinship.test, with rate limits
# off. start_test_prosody starts the shared one and exports KINSHIP_TEST_XMPP_PORT,
# KINSHIP_TEST_XMPP_DOMAIN, KINSHIP_TEST_XMPP_CERT and KINSHIP_TEST_PROSODY_CONFIG (for
# `prosodyctl --config … register`); stop_test_prosody stops it and removes its folder.
# scripts/xmpp/prosody-instance uses the same functions for tests that stop and restart a server.

PROSODY_DOMAIN=kinship.test

# prosody_prepare DIR PORT: writes DIR's config and certificate; the Lua lines in
# $PROSODY_EXTRA_CONFIG, when set, go in the global section (e.g. disable_sasl_mechanisms).
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
modules_enabled = { "roster", "saslauth", "tls", "disco", "vcard_legacy", "ping", "posix", "mam" }
modules_disabled = { "s2s" }
limits = { c2s = { rate = "100mb/s", burst = "10s" } }
c2s_stanza_size_limit = 64*1024*1024
certificates = "$dir/certs"
${PROSODY_EXTRA_CONFIG:-}
VirtualHost "$domain"
    ssl = { key = "$dir/certs/$domain.key", certificate = "$dir/certs/$domain.crt" }
CONFIG
    echo "$port" >"$dir/port"
}

# prosody_launch DIR: starts DIR's Prosody in the background and waits until it accepts connections.
prosody_launch() {
    local dir=$1
    launch_detached "$dir/stdout.log" "$dir/launcher.pid" prosody --config "$dir/prosody.cfg.lua" -F
    wait_for_port "$(cat "$dir/port")" "$dir/launcher.pid" Prosody || { cat "$dir"/*.log >&2; return 1; }
}

# prosody_halt DIR: stops DIR's Prosody and waits until it has exited.
prosody_halt() {
    halt_detached "$1/launcher.pid"
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
