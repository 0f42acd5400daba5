# A throw-away PostgreSQL cluster on 127.0.0.1 for the tests.
# start_test_postgres sets KINSHIP_TEST_POSTGRES_URL, and KINSHIP_TEST_POSTGRES_DATA and
# KINSHIP_TEST_PG_CTL for the check that stops the server under load and starts it again (its
# settings are in the cluster's postgresql.conf, so a plain `pg_ctl start` brings it back the
# same); stop_test_postgres removes the cluster.

start_test_postgres() {
    local initdb pg_ctl
    initdb=$(find_postgres_binary initdb) || { echo "error: initdb not found" >&2; return 1; }
    pg_ctl=$(find_postgres_binary pg_ctl) || { echo "error: pg_ctl not found" >&2; return 1; }
    PG_DIR=$(mktemp -d /tmp/kinship-pg.XXXXXX)
    PG_PORT=$(free_port)
    # PostgreSQL refuses to run as root: run it as the postgres user when we are root.
    PG_AS=()
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres "$PG_DIR"
        PG_AS=(runuser -u postgres --)
    fi
    echo "==> PostgreSQL: initdb in $PG_DIR, port $PG_PORT"
    "${PG_AS[@]}" "$initdb" -D "$PG_DIR/data" -U kinship -A trust -E UTF8 --locale=C.UTF-8 >"$PG_DIR/initdb.log" 2>&1 \
        || { cat "$PG_DIR/initdb.log" >&2; return 1; }
    cat >>"$PG_DIR/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$PG_DIR'
fsync = off
# Swift Testing runs every PostgreSQL test at once, each with pools of its own.
max_connections = 500
CONF
    "${PG_AS[@]}" "$pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 start >/dev/null \
        || { cat "$PG_DIR/server.log" >&2; return 1; }
    export KINSHIP_TEST_POSTGRES_URL="postgres://kinship@127.0.0.1:$PG_PORT/postgres?sslmode=disable"
    export KINSHIP_TEST_POSTGRES_DATA="$PG_DIR/data" KINSHIP_TEST_PG_CTL="$pg_ctl"
}

stop_test_postgres() {
    [ -n "${PG_DIR:-}" ] || return 0
    local pg_ctl
    pg_ctl=$(find_postgres_binary pg_ctl) || true
    [ -n "$pg_ctl" ] && "${PG_AS[@]}" "$pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
    PG_DIR=""
}
