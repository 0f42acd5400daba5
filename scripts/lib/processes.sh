# Starting helper servers in the background so that they inherit no file descriptor but their
# log (a test process that runs a script which starts one must see the script end while the
# server runs on) and no blocked signals (a test process may block SIGTERM).

# launch_detached LOG PIDFILE COMMAND...: starts COMMAND, appending its output to LOG; writes its pid to PIDFILE.
launch_detached() {
    local log=$1 pidfile=$2
    shift 2
    python3 -c 'import signal, subprocess, sys
log = open(sys.argv[1], "a")
unblock = lambda: signal.pthread_sigmask(signal.SIG_SETMASK, [])
print(subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=log, stderr=log, close_fds=True, start_new_session=True,
    preexec_fn=unblock).pid)' "$log" "$@" >"$pidfile"
}

# halt_detached PIDFILE: stops the process (SIGTERM, then SIGKILL after 10 s) and waits for it.
halt_detached() {
    local pidfile=$1 pid
    [ -f "$pidfile" ] || return 0
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$pidfile"
}

# wait_for_port PORT PIDFILE WHAT: waits until something accepts TCP connections on 127.0.0.1:PORT.
wait_for_port() {
    local port=$1 pidfile=$2 what=$3 waited=0
    until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1).close()" 2>/dev/null; do
        sleep 0.2
        waited=$((waited + 1))
        if [ "$waited" -gt 150 ] || ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
            echo "error: $what did not start" >&2
            return 1
        fi
    done
}
