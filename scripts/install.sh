#!/usr/bin/env bash
# Installs nfcbench for a lab bench: builds in release, installs the binary and its data
# files, the udev rules and the kernel-module blacklist; reloads udev and unloads the
# kernel NFC modules when installing into the live system. Idempotent.
#
#   scripts/install.sh [--prefix DIR] [--bin PATH] [--no-system]
#   DESTDIR=/tmp/stage scripts/install.sh --prefix /usr     # staged, for packaging
#
# The binary finds its data files relative to its own location (<prefix>/share/nfcbench),
# so a staged tree works from any directory before it is moved.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/packages.sh
ensure_packages libcurl4-openssl-dev libsqlite3-dev libpq-dev libnfc-dev libpcsclite-dev libsodium-dev pkg-config sqlite3

PREFIX=/usr/local
BIN=""
SYSTEM=1
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) PREFIX="$2"; shift 2 ;;
        --prefix=*) PREFIX="${1#*=}"; shift ;;
        --bin) BIN="$2"; shift 2 ;;     # install this binary instead of building one
        --no-system) SYSTEM=0; shift ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "Error: unknown option '$1'. See 'scripts/install.sh --help'." >&2; exit 64 ;;
    esac
done
DESTDIR="${DESTDIR:-}"
LIVE=0
[ -z "$DESTDIR" ] && [ "$SYSTEM" -eq 1 ] && LIVE=1

if [ -z "$BIN" ]; then
    swift build -c release --static-swift-stdlib --product nfcbench >&2
    swift build -c release --static-swift-stdlib --product nfcbench-fetch >&2
    BIN="$(swift build -c release --show-bin-path)/nfcbench"
fi
# The remote-catalog helper lives beside the binary (see HelperProcessFetcher).
HELPER="$(dirname "$BIN")/nfcbench-fetch"
[ -x "$BIN" ] || { echo "Error: no nfcbench binary at $BIN." >&2; exit 1; }
[ -x "$HELPER" ] || { echo "Error: no nfcbench-fetch helper at $HELPER." >&2; exit 1; }

install -d "$DESTDIR$PREFIX/bin" "$DESTDIR$PREFIX/share/nfcbench"
install -m 755 "$BIN" "$DESTDIR$PREFIX/bin/nfcbench"
install -m 755 "$HELPER" "$DESTDIR$PREFIX/bin/nfcbench-fetch"
install -m 644 Resources/seed_catalog.json Resources/Localizable.xcstrings "$DESTDIR$PREFIX/share/nfcbench/"
echo "Installed $DESTDIR$PREFIX/bin/nfcbench and its data in $DESTDIR$PREFIX/share/nfcbench"

# Manual pages and shell completions, generated from the binary's own command specs
# (never written by hand), where Debian's man, bash-completion, zsh and fish look.
ZSH_DIR=share/zsh/site-functions
[ "$PREFIX" = /usr ] && ZSH_DIR=share/zsh/vendor-completions
install -d "$DESTDIR$PREFIX/share/man/man1" "$DESTDIR$PREFIX/share/bash-completion/completions" \
    "$DESTDIR$PREFIX/$ZSH_DIR" "$DESTDIR$PREFIX/share/fish/vendor_completions.d"
rm -f "$DESTDIR$PREFIX/share/man/man1/nfcbench.1" "$DESTDIR$PREFIX/share/man/man1/nfcbench-"*.1   # pages of removed commands
"$BIN" manual -o "$DESTDIR$PREFIX/share/man/man1" >/dev/null 2>&1 \
    || { echo "Error: $BIN could not write its manual pages." >&2; exit 1; }
"$BIN" completions bash > "$DESTDIR$PREFIX/share/bash-completion/completions/nfcbench"
"$BIN" completions zsh > "$DESTDIR$PREFIX/$ZSH_DIR/_nfcbench"
"$BIN" completions fish > "$DESTDIR$PREFIX/share/fish/vendor_completions.d/nfcbench.fish"
chmod 644 "$DESTDIR$PREFIX/share/man/man1/nfcbench"*.1 "$DESTDIR$PREFIX/share/bash-completion/completions/nfcbench" \
    "$DESTDIR$PREFIX/$ZSH_DIR/_nfcbench" "$DESTDIR$PREFIX/share/fish/vendor_completions.d/nfcbench.fish"
echo "Installed manual pages (man nfcbench) and bash, zsh and fish completions under $DESTDIR$PREFIX/share"

if [ "$SYSTEM" -eq 1 ]; then
    install -d "$DESTDIR/etc/udev/rules.d" "$DESTDIR/etc/modprobe.d"
    install -m 644 udev/70-nfcbench.rules "$DESTDIR/etc/udev/rules.d/70-nfcbench.rules"
    install -m 644 udev/blacklist-nfcbench.conf "$DESTDIR/etc/modprobe.d/blacklist-nfcbench.conf"
    echo "Installed the udev rules and the pn533/nfc blacklist under $DESTDIR/etc"
fi

if [ "$LIVE" -eq 1 ]; then
    if command -v udevadm >/dev/null && udevadm control --reload 2>/dev/null; then
        udevadm trigger --subsystem-match=usb 2>/dev/null || true
        echo "Reloaded udev rules; replug the reader if it was connected."
    else
        echo "udev is not running here; the rules apply from the next boot." >&2
    fi
    loaded=$(awk '$1=="pn533_usb"||$1=="pn533"||$1=="nfc"{print $1}' /proc/modules 2>/dev/null | tr '\n' ' ')
    if [ -n "$loaded" ]; then
        if modprobe -r pn533_usb pn533 nfc 2>/dev/null; then
            echo "Unloaded kernel modules: $loaded"
        else
            echo "Warning: could not unload $loaded; reboot, or run: sudo modprobe -r pn533_usb pn533 nfc" >&2
        fi
    fi
    who="${SUDO_USER:-$(id -un)}"
    if [ "$who" != root ] && ! id -nG "$who" | tr ' ' '\n' | grep -qx plugdev; then
        echo "Action needed: add $who to group plugdev (sudo usermod -aG plugdev $who), then log out and in again."
    else
        echo "Group membership: $who can use the reader (plugdev or root; the seated user also gets access through uaccess)."
    fi
fi
