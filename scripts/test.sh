#!/usr/bin/env bash
# The one test command (README, CI): installs what the tests need, builds, starts the
# services the tests use, runs every test, and stops those services again, even on
# failure. Safe to run repeatedly on a fresh Debian machine or a developer's.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/packages.sh

ensure_packages "${TEST_PACKAGES[@]}"

# Services started here are recorded and always stopped, whatever happens below.
SERVICE_PIDS=()
cleanup() {
    local pid
    for pid in "${SERVICE_PIDS[@]:-}"; do
        [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT INT TERM

swift build --build-tests
swift test "$@"
