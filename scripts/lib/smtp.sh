# Throw-away SMTP servers on 127.0.0.1 for the mail tests (aiosmtpd through scripts/e2e/smtp_sink.py),
# each keeping what it receives in a Maildir. start_test_smtp starts two and exports:
#   KINSHIP_TEST_SMTP_PORT, KINSHIP_TEST_SMTP_MAILDIR           plain SMTP, no login
#   KINSHIP_TEST_SMTPS_PORT, KINSHIP_TEST_SMTPS_MAILDIR,        STARTTLS and AUTH required, with a
#   KINSHIP_TEST_SMTPS_CERT, KINSHIP_TEST_SMTPS_USERNAME,       self-signed certificate for 127.0.0.1
#   KINSHIP_TEST_SMTPS_PASSWORD_FILE
# stop_test_smtp stops both and removes their folder.

start_test_smtp() {
    SMTP_DIR=$(mktemp -d /tmp/kinship-smtp.XXXXXX)
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" \
        -keyout "$SMTP_DIR/smtp.key" -out "$SMTP_DIR/smtp.crt" >/dev/null 2>&1
    echo "mail relay password" >"$SMTP_DIR/password"
    local plain secure
    plain=$(free_port)
    launch_detached "$SMTP_DIR/plain.log" "$SMTP_DIR/plain.pid" \
        python3 scripts/e2e/smtp_sink.py --port "$plain" --maildir "$SMTP_DIR/plain"
    wait_for_port "$plain" "$SMTP_DIR/plain.pid" "the SMTP sink" || { cat "$SMTP_DIR/plain.log" >&2; return 1; }
    secure=$(free_port)
    launch_detached "$SMTP_DIR/secure.log" "$SMTP_DIR/secure.pid" \
        python3 scripts/e2e/smtp_sink.py --port "$secure" --maildir "$SMTP_DIR/secure" --tls-cert "$SMTP_DIR/smtp.crt" \
        --tls-key "$SMTP_DIR/smtp.key" --username relay --password-file "$SMTP_DIR/password"
    wait_for_port "$secure" "$SMTP_DIR/secure.pid" "the STARTTLS SMTP sink" || { cat "$SMTP_DIR/secure.log" >&2; return 1; }
    echo "==> SMTP sinks: $SMTP_DIR, ports $plain (plain) and $secure (STARTTLS + AUTH)"
    export KINSHIP_TEST_SMTP_PORT=$plain KINSHIP_TEST_SMTP_MAILDIR="$SMTP_DIR/plain"
    export KINSHIP_TEST_SMTPS_PORT=$secure KINSHIP_TEST_SMTPS_MAILDIR="$SMTP_DIR/secure" KINSHIP_TEST_SMTPS_CERT="$SMTP_DIR/smtp.crt"
    export KINSHIP_TEST_SMTPS_USERNAME=relay KINSHIP_TEST_SMTPS_PASSWORD_FILE="$SMTP_DIR/password"
}

stop_test_smtp() {
    [ -n "${SMTP_DIR:-}" ] || return 0
    halt_detached "$SMTP_DIR/plain.pid"
    halt_detached "$SMTP_DIR/secure.pid"
    rm -rf "$SMTP_DIR"
    SMTP_DIR=""
}
