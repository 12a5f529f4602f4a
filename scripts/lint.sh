#!/usr/bin/env bash
# Formatting and lint: swift-format (in the Swift toolchain) with the committed
# .swift-format configuration. Any finding fails. `scripts/lint.sh --fix` rewrites the
# files in place first.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Benchmarks)
if [ "${1:-}" = "--fix" ]; then
    swift format format --in-place --parallel --recursive "${paths[@]}"
fi
swift format lint --strict --parallel --recursive "${paths[@]}"
