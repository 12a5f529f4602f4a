# Starting and stopping the services the tests use: a private pcscd with the vpcd
# driver, one virtual bench serving vpcd, and a private PostgreSQL. Everything started is recorded in
# SERVICE_PIDS and stopped by PID in stop_services; nothing is ever stopped by name,
# because a lab machine runs its own pcscd for the real readers.
# shellcheck shell=bash

SERVICE_PIDS=()
SERVICE_DIR=""

stop_services() {
    local pid
    # A second Ctrl-C or SIGTERM during the cleanup must not end it half-way: its
    # `exit 130` trap left the last services running and their folder behind (seen: a
    # private nginx outliving an interrupted run). Each stop below is bounded (5 s).
    trap '' INT TERM
    for pid in "${SERVICE_PIDS[@]:-}"; do
        [ -n "$pid" ] || continue
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    SERVICE_PIDS=()
    [ -n "$SERVICE_DIR" ] && rm -rf "$SERVICE_DIR"
    SERVICE_DIR=""
    [ -n "${PG_DIR:-}" ] && rm -rf "$PG_DIR"
    PG_DIR=""
}

wait_for() {  # wait_for <seconds> <test...>
    local deadline=$(( $(date +%s) + $1 )); shift
    until "$@"; do
        [ "$(date +%s)" -ge "$deadline" ] && return 1
        sleep 0.1
    done
}

# A process's identity: its PID and kernel start time, so a restarted daemon that got
# the same PID back is still told apart.
process_identity() {  # process_identity <pid>
    [ -r "/proc/$1/stat" ] || return 1
    echo "$1:$(sed 's/^.*) //' "/proc/$1/stat" | cut -d' ' -f20)"
}

# The operator's pcscd: whatever runs now. Recorded before anything starts, checked by
# check_operator_pcscd afterwards. When none runs (CI), a stand-in is started on the
# system socket, as a lab's would be, so the check proves something on every machine.
OPERATOR_PCSCD=()
record_operator_pcscd() {
    local pid
    for pid in $(pgrep -x pcscd || true); do OPERATOR_PCSCD+=("$(process_identity "$pid")"); done
    # No stand-in where the system socket exists: systemd's pcscd.socket may own it.
    if [ ${#OPERATOR_PCSCD[@]} -eq 0 ] && [ ! -e /run/pcscd/pcscd.comm ]; then
        mkdir -p "$SERVICE_DIR/operator-conf"
        pcscd --foreground --config "$SERVICE_DIR/operator-conf" > "$SERVICE_DIR/operator-pcscd.log" 2>&1 &
        SERVICE_PIDS+=($!)
        OPERATOR_PCSCD+=("$(process_identity $!)")
        wait_for 10 test -S /run/pcscd/pcscd.comm || { echo "stand-in pcscd did not start:" >&2; cat "$SERVICE_DIR/operator-pcscd.log" >&2; return 1; }
    fi
    export NFCBENCH_TEST_OPERATOR_PCSCD="${OPERATOR_PCSCD[*]}"
}

check_operator_pcscd() {
    local identity
    for identity in "${OPERATOR_PCSCD[@]}"; do
        if [ "$(process_identity "${identity%%:*}" 2>/dev/null)" != "$identity" ]; then
            echo "FAIL: the operator's pcscd (${identity%%:*}) did not survive the tests unchanged" >&2
            return 1
        fi
    done
    echo "The operator's pcscd (${OPERATOR_PCSCD[*]%%:*}) is still running, the same process as before the tests."
}

free_port() {  # free_port [count]: the first of <count> consecutive loopback TCP ports nothing listens on now
    python3 - "${1:-1}" <<'PY'
import socket, sys
count = int(sys.argv[1])
while True:
    held = [socket.socket()]
    held[0].bind(("127.0.0.1", 0))  # the kernel's choice
    port = held[0].getsockname()[1]
    try:
        for k in range(1, count):
            held.append(socket.socket())
            held[-1].bind(("127.0.0.1", port + k))
    except (OSError, OverflowError):
        continue  # a neighbour is taken: ask again
    print(port)
    break
PY
}

# A private pcscd: its socket is handed over the systemd way (LISTEN_FDS, through
# systemd-socket-activate) at a path of our own, and clients find it through
# PCSCLITE_CSOCK_NAME. It runs in a mount namespace of its own with empty /run (its pid
# file and default socket) and no USB drivers, so it cannot disturb the operator's
# pcscd or claim a real reader. vpcd keeps its state per driver, so one reader.conf
# entry gives exactly two readers: "nfcbench virtual 00 00" on port P and "... 00 01"
# on P+1. pcscd loads vpcd through a thin driver of the tests' own
# (Tests/Fixtures/vpcd-serial) that answers the reader's serial number as the CCID driver
# does, "VPCD-P"; vpcd has none.
start_pcscd() {  # start_pcscd <vpcd port>
    local port="$1" dir="$SERVICE_DIR/pcscd"
    mkdir -p "$dir/conf"
    cp /usr/lib/pcsc/drivers/serial/libifdvpcd.so "$dir/"
    # shellcheck disable=SC2046  # pkg-config's flags are words
    gcc -Wall -Wextra -Werror -O2 -shared -fPIC $(pkg-config --cflags libpcsclite) \
        -DNFCBENCH_VPCD_PATH="\"$dir/libifdvpcd.so\"" -o "$dir/libifdvpcd-serial.so" \
        Tests/Fixtures/vpcd-serial/vpcd_serial.c -ldl -lpthread
    cat > "$dir/conf/vpcd.conf" <<CONF
FRIENDLYNAME "nfcbench virtual"
DEVICENAME   /dev/null:$port
LIBPATH      $dir/libifdvpcd-serial.so
CHANNELID    $port
CONF
    local isolate=(unshare --mount --propagation private)
    [ "$(id -u)" -eq 0 ] || isolate=(unshare --map-root-user --mount --propagation private)
    # shellcheck disable=SC2016  # expanded by the inner shell
    systemd-socket-activate -l "$dir/pcscd.comm" -- "${isolate[@]}" sh -c \
        'mount -t tmpfs nfcbench-pcscd /run && mkdir /run/pcscd && mount -t tmpfs nfcbench-pcscd /usr/lib/pcsc/drivers &&
         exec pcscd --foreground --config "$1"' sh "$dir/conf" > "$SERVICE_DIR/pcscd.log" 2>&1 &
    SERVICE_PIDS+=($!)
    export PCSCLITE_CSOCK_NAME="$dir/pcscd.comm"
    wait_for 10 test -S "$PCSCLITE_CSOCK_NAME" || { echo "pcscd's socket did not appear:" >&2; cat "$SERVICE_DIR/pcscd.log" >&2; return 1; }
    # The first client starts pcscd; wait until it lists the vpcd readers.
    wait_for 10 sh -c 'timeout 3 pcsc_scan -r 2>/dev/null | grep -q "nfcbench virtual 00 00"' \
        || { echo "pcscd did not start:" >&2; cat "$SERVICE_DIR/pcscd.log" >&2; return 1; }
}

start_bench() {  # start_bench <nfcbench binary> <vpcd port>
    local dir="$SERVICE_DIR/bench"
    "$1" sim serve --dir "$dir" --vpcd-port "$2" --antenna 0.1,0.1,0.8,0.4 --miss-rate 0 \
        > "$SERVICE_DIR/bench.log" 2>&1 &
    SERVICE_PIDS+=($!)
    wait_for 10 test -f "$dir/ready" || { echo "virtual bench did not start:" >&2; cat "$SERVICE_DIR/bench.log" >&2; return 1; }
    export NFCBENCH_TEST_BENCH_DIR="$dir"
}

# A private PostgreSQL for the lab-store tests: a cluster of its own in a scratch folder,
# listening on loopback only (and a socket in that folder), run as an unprivileged user
# (PostgreSQL refuses root; as root the tests use `nobody`), started directly so the PID
# recorded is the postmaster's own, and stopped by that PID. Password logins (SCRAM) over
# TCP, as a lab's would be; the admin's password is random per run.
start_postgres() {  # start_postgres <port>
    local port="$1" bin
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    [ -x "$bin/initdb" ] || { echo "PostgreSQL's initdb not found (Debian package postgresql)" >&2; return 1; }
    local dir
    dir=$(mktemp -d /tmp/nfcbench-pg.XXXXXX)
    PG_DIR="$dir"
    local as=()
    if [ "$(id -u)" -eq 0 ]; then
        chown nobody "$dir"
        as=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
    fi
    local password
    password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
    printf '%s\n' "$password" > "$dir/pwfile"
    [ "$(id -u)" -eq 0 ] && chown nobody "$dir/pwfile"
    "${as[@]}" "$bin/initdb" -D "$dir/data" -U nfcbench_admin --pwfile="$dir/pwfile" \
        --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 > "$dir/initdb.log" 2>&1 \
        || { echo "initdb failed:" >&2; cat "$dir/initdb.log" >&2; return 1; }
    rm -f "$dir/pwfile"
    "${as[@]}" "$bin/postgres" -D "$dir/data" -p "$port" -c listen_addresses=127.0.0.1 -k "$dir" \
        -c max_connections=200 -c log_min_messages=warning > "$dir/postgres.log" 2>&1 &
    SERVICE_PIDS+=($!)
    wait_for 20 "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" \
        || { echo "PostgreSQL did not start:" >&2; cat "$dir/postgres.log" >&2; return 1; }
    export NFCBENCH_TEST_PG="host=127.0.0.1 port=$port user=nfcbench_admin password=$password dbname=postgres connect_timeout=30"
    export NFCBENCH_TEST_PG_BIN="$bin"
}

# nginx serving static files from $SERVICE_DIR/nginx/www on loopback, as a lab would
# serve a published catalog folder (docs/publish.md). One process (master_process off), so
# the PID recorded is the server itself; its logs, pid and temporary files stay in its folder.
start_nginx() {  # start_nginx <port>
    local port="$1" dir="$SERVICE_DIR/nginx" bin=/usr/sbin/nginx
    [ -x "$bin" ] || { echo "nginx not found (Debian package nginx-light)" >&2; return 1; }
    mkdir -p "$dir/www" "$dir/tmp"
    cat > "$dir/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 256; }
http {
    access_log $dir/access.log;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    types { application/json json; }
    default_type application/json;
    server {
        listen 127.0.0.1:$port;
        root $dir/www;
    }
}
CONF
    "$bin" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" > "$dir/stdout.log" 2>&1 &
    SERVICE_PIDS+=($!)
    wait_for 10 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null \
        || { echo "nginx did not start:" >&2; cat "$dir/error.log" "$dir/stdout.log" >&2; return 1; }
    export NFCBENCH_TEST_NGINX_URL="http://127.0.0.1:$port"
    export NFCBENCH_TEST_NGINX_ROOT="$dir/www"
}
