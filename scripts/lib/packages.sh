# Installs Debian packages the tests need, once, when they are missing.
# Usage: ensure_debian_packages COMMAND:PACKAGE ...   (installs PACKAGE when COMMAND is not found;
# a COMMAND starting with / is a file that PACKAGE provides, such as a font)

apt_updated=0

ensure_debian_packages() {
    local missing=() pair command package
    for pair in "$@"; do
        command=${pair%%:*}
        package=${pair#*:}
        if [[ $command == /* ]]; then
            [ -e "$command" ] || missing+=("$package")
        elif ! command -v "$command" >/dev/null 2>&1 && ! find_postgres_binary "$command" >/dev/null 2>&1; then
            missing+=("$package")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "error: need root (or sudo) to install: ${missing[*]}" >&2; return 1; }
        sudo="sudo"
    fi
    if [ "$apt_updated" -eq 0 ]; then
        echo "==> apt-get update"
        $sudo apt-get update -qq
        apt_updated=1
    fi
    echo "==> apt-get install ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Installs PyPI packages the tests need when their module cannot be imported.
# Usage: ensure_python_packages MODULE:PACKAGE ...
ensure_python_packages() {
    local pair module package missing=()
    for pair in "$@"; do
        module=${pair%%:*}
        package=${pair#*:}
        python3 -c "import $module" >/dev/null 2>&1 || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "==> pip install ${missing[*]}"
    python3 -m pip install --quiet --disable-pip-version-check "${missing[@]}"
}

# Prints the path of a PostgreSQL server program (initdb, pg_ctl), which Debian keeps off PATH.
find_postgres_binary() {
    local name=$1 candidate
    if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
    for candidate in /usr/lib/postgresql/*/bin/"$name"; do
        [ -x "$candidate" ] && { echo "$candidate"; return 0; }
    done
    return 1
}

# Prints a free TCP port on 127.0.0.1.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
