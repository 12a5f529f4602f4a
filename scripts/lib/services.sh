# Starting and stopping the services the tests use: pcscd with a private vpcd
# configuration, and one virtual bench serving vpcd. Everything started is recorded
# in SERVICE_PIDS and stopped by PID in stop_services.
# shellcheck shell=bash

SERVICE_PIDS=()
SERVICE_DIR=""

stop_services() {
    local pid
    for pid in "${SERVICE_PIDS[@]:-}"; do
        [ -n "$pid" ] || continue
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    SERVICE_PIDS=()
    [ -n "$SERVICE_DIR" ] && rm -rf "$SERVICE_DIR"
    SERVICE_DIR=""
}

wait_for() {  # wait_for <seconds> <test...>
    local deadline=$(( $(date +%s) + $1 )); shift
    until "$@"; do
        [ "$(date +%s)" -ge "$deadline" ] && return 1
        sleep 0.1
    done
}

# pcscd 1.9.9 has one fixed socket (/run/pcscd/pcscd.comm), so there is one pcscd per
# machine. vpcd keeps its state per driver, so one reader.conf entry gives exactly two
# readers: "nfcbench virtual 00 00" on port P and "... 00 01" on P+1.
start_pcscd() {
    local port="$1"
    if pgrep -x pcscd >/dev/null; then
        echo "Stopping the running pcscd ($(pgrep -x pcscd | tr '\n' ' ')) for the tests; restart it afterwards with 'sudo systemctl start pcscd'." >&2
        pkill -x pcscd || true
        wait_for 5 sh -c '! pgrep -x pcscd >/dev/null' || { echo "pcscd did not stop" >&2; return 1; }
    fi
    mkdir -p "$SERVICE_DIR/pcscd"
    cat > "$SERVICE_DIR/pcscd/vpcd.conf" <<CONF
FRIENDLYNAME "nfcbench virtual"
DEVICENAME   /dev/null:$port
LIBPATH      /usr/lib/pcsc/drivers/serial/libifdvpcd.so
CHANNELID    $port
CONF
    pcscd --foreground --config "$SERVICE_DIR/pcscd" > "$SERVICE_DIR/pcscd.log" 2>&1 &
    SERVICE_PIDS+=($!)
    wait_for 10 test -S /run/pcscd/pcscd.comm || { echo "pcscd did not start:" >&2; cat "$SERVICE_DIR/pcscd.log" >&2; return 1; }
}

start_bench() {  # start_bench <nfcbench binary> <vpcd port>
    local dir="$SERVICE_DIR/bench"
    "$1" sim serve --dir "$dir" --vpcd-port "$2" --antenna 0.1,0.1,0.8,0.4 --miss-rate 0 \
        > "$SERVICE_DIR/bench.log" 2>&1 &
    SERVICE_PIDS+=($!)
    wait_for 10 test -f "$dir/ready" || { echo "virtual bench did not start:" >&2; cat "$SERVICE_DIR/bench.log" >&2; return 1; }
    export NFCBENCH_TEST_BENCH_DIR="$dir"
}
