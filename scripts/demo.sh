#!/usr/bin/env bash
# The quick-start demo on a fresh Debian machine: installs what nfcbench needs, builds,
# shows the predicted antenna zone for a Galaxy S24, then runs a complete guided session
# on the built-in virtual bench (a simulated S24 whose coil really sits near the top and
# couples as two loops do, behind an emulated PN532 driven through the real libnfc): the
# coil plan grades each read down the PN532's field and measures the coil in millimetres.
# It writes the session's HTML report and a
# CSV of its taps, refines the catalog entry from that session and resolves again with
# the patch.
#   scripts/demo.sh [MODEL]   (./nfcbench-demo.html, ./nfcbench-demo.csv, ./nfcbench-demo-patch.json)
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
# The phone couples as two loops do (docs/physics.md), under the antenna the session records
# for the emulated PN532 module (its reader profile, 35 x 30 mm, 1.5 mm gap): the world the
# coil fit reads is the world the taps came from. Both are sim serve's and run's defaults.
"$BIN" sim serve --dir "$dir" --antenna 0.03,0.07,0.67,0.27 --seed 7 > /dev/null &
bench=$!
trap 'kill $bench 2>/dev/null; wait $bench 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do [ -f "$dir/ready" ] && break; sleep 0.1; done
db="$dir/bench.sqlite"
echo
echo "\$ nfcbench run --model $MODEL --reader libnfc:pn532_uart:$dir/pn532 --positioner sim --auto --report nfcbench-demo.html"
"$BIN" run --model "$MODEL" --reader "libnfc:pn532_uart:$dir/pn532" --positioner sim --auto \
    --tap-timeout 1 --unit demo-unit --db "$db" --report nfcbench-demo.html
echo
echo "\$ nfcbench export --all --format csv -o nfcbench-demo.csv"
"$BIN" export --all --format csv -o nfcbench-demo.csv --db "$db"
head -3 nfcbench-demo.csv | cut -c1-160
echo "... $(($(wc -l < nfcbench-demo.csv) - 1)) taps in nfcbench-demo.csv"
echo
# A virtual bench is a simulation: refine leaves its sessions out unless asked, and a
# patch built from them says so and is never promoted.
echo "\$ nfcbench refine --model $MODEL --include-simulated -o nfcbench-demo-patch.json"
"$BIN" refine --model "$MODEL" --include-simulated --db "$db" -o nfcbench-demo-patch.json
echo
echo "\$ nfcbench resolve --model $MODEL --catalog nfcbench-demo-patch.json"
"$BIN" resolve --model "$MODEL" --catalog nfcbench-demo-patch.json
