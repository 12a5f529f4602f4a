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
# The CLI parses and prints (docs/architecture.md): it imports no machine, reader backend,
# store or C module. SwiftPM lets a module import what its dependencies import, so the
# rule is held here rather than by Package.swift alone.
forbidden='NFCMotion|NFCReaderLibNFC|NFCReaderPCSC|NFCReaderReplay|NFCStore|NFCPostgres|NFCBenchStoreSQLite|NFCBenchStorePostgres|NFCSodium|C[A-Z][A-Za-z]*'
if grep -rnE "^(@testable )?import ($forbidden)\$" Sources/NFCBenchCLI Sources/nfcbench; then
    echo "lint: the CLI imports a module below the use cases (above); call a use case in NFCBenchUseCases instead" >&2
    exit 1
fi
