#!/usr/bin/env bash
# The quick-start demo on a fresh Debian machine: installs what nfcbench needs, builds,
# shows the predicted antenna zone for a Galaxy S24, then taps a simulated phone on the
# built-in virtual bench through the real libnfc stack (emulated PN532 on a pty).
#   scripts/demo.sh [MODEL]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/packages.sh
ensure_packages "${TEST_PACKAGES[@]}"
MODEL="${1:-SM-S921B}"
swift build --product nfcbench >&2
swift build --product nfcbench-fetch >&2
BIN="$(swift build --show-bin-path)/nfcbench"

echo "\$ nfcbench resolve --model $MODEL"
"$BIN" resolve --model "$MODEL"

dir=$(mktemp -d /tmp/nfcbench-demo.XXXXXX)
"$BIN" sim serve --dir "$dir" --antenna 0.05,0.05,0.65,0.3 --seed 7 > /dev/null &
bench=$!
trap 'kill $bench 2>/dev/null; wait $bench 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do [ -f "$dir/ready" ] && break; sleep 0.1; done
echo
echo "Virtual bench: a simulated phone whose real antenna is near the top (0.05,0.05,0.65,0.3)."
for spot in "0.5 0.55" "0.4 0.2"; do
    echo "\$ nfcbench sim ctl place $spot; nfcbench poll --reader libnfc:pn532_uart:$dir/pn532 --timeout 1"
    "$BIN" sim ctl --dir "$dir" place $spot > /dev/null
    "$BIN" poll --reader "libnfc:pn532_uart:$dir/pn532" --timeout 1 || echo "(no target there: exit $?)"
    "$BIN" sim ctl --dir "$dir" lift > /dev/null
done
