# A throw-away dnsmasq on 127.0.0.1 that serves the test Prosody's SRV record
# (_xmpp-client._tcp.kinship.test → localhost:PORT), for the SRV lookup test.
# start_test_dns exports KINSHIP_TEST_DNS_PORT; stop_test_dns stops it.

start_test_dns() {
    DNS_DIR=$(mktemp -d /tmp/kinship-dns.XXXXXX)
    local port
    port=$(free_port)
    launch_detached "$DNS_DIR/dnsmasq.log" "$DNS_DIR/dnsmasq.pid" dnsmasq --keep-in-foreground --no-resolv --no-hosts \
        --conf-file=/dev/null --port="$port" --listen-address=127.0.0.1 --bind-interfaces --pid-file= \
        "--srv-host=_xmpp-client._tcp.$PROSODY_DOMAIN,localhost,$KINSHIP_TEST_XMPP_PORT,0,5"
    wait_for_port "$port" "$DNS_DIR/dnsmasq.pid" dnsmasq || { cat "$DNS_DIR/dnsmasq.log" >&2; return 1; }
    echo "==> dnsmasq: SRV for $PROSODY_DOMAIN on port $port"
    export KINSHIP_TEST_DNS_PORT=$port
}

stop_test_dns() {
    [ -n "${DNS_DIR:-}" ] || return 0
    halt_detached "$DNS_DIR/dnsmasq.pid"
    rm -rf "$DNS_DIR"
    DNS_DIR=""
}
