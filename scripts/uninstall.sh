#!/usr/bin/env bash
# Removes what scripts/install.sh installed. Same --prefix and DESTDIR. Idempotent.
set -euo pipefail
PREFIX=/usr/local
SYSTEM=1
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) PREFIX="$2"; shift 2 ;;
        --prefix=*) PREFIX="${1#*=}"; shift ;;
        --no-system) SYSTEM=0; shift ;;
        *) echo "Error: unknown option '$1'." >&2; exit 64 ;;
    esac
done
DESTDIR="${DESTDIR:-}"
rm -f "$DESTDIR$PREFIX/bin/nfcbench" "$DESTDIR$PREFIX/bin/nfcbench-fetch" "$DESTDIR$PREFIX/share/nfcbench/seed_catalog.json" \
      "$DESTDIR$PREFIX/share/nfcbench/Localizable.xcstrings"
rmdir "$DESTDIR$PREFIX/share/nfcbench" 2>/dev/null || true
rm -f "$DESTDIR$PREFIX/share/man/man1/nfcbench.1" "$DESTDIR$PREFIX/share/man/man1/nfcbench-"*.1 \
      "$DESTDIR$PREFIX/share/bash-completion/completions/nfcbench" "$DESTDIR$PREFIX/share/zsh/site-functions/_nfcbench" \
      "$DESTDIR$PREFIX/share/zsh/vendor-completions/_nfcbench" "$DESTDIR$PREFIX/share/fish/vendor_completions.d/nfcbench.fish"
if [ "$SYSTEM" -eq 1 ]; then
    rm -f "$DESTDIR/etc/udev/rules.d/70-nfcbench.rules" "$DESTDIR/etc/modprobe.d/blacklist-nfcbench.conf"
    if [ -z "$DESTDIR" ] && command -v udevadm >/dev/null; then udevadm control --reload 2>/dev/null || true; fi
fi
echo "Removed nfcbench from $DESTDIR$PREFIX${SYSTEM:+ and its udev/modprobe files}"
