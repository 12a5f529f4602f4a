#!/bin/sh
# Writes BuildInfo.swift for the BuildInfo plugin: the commit the tree was built from
# (with "+changes" when tracked files differ from it), or "unknown" outside a git
# checkout (a source archive), and the build date (UTC, day only, so the file changes
# at most once a day). Rewritten only when its content changes.
# Usage: build-info.sh PACKAGE_DIR OUTPUT_DIR
set -u
package=$1
out=$2
mkdir -p "$out"
commit=$(git -C "$package" rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
if [ "$commit" != unknown ] && ! git -C "$package" diff --quiet HEAD -- 2>/dev/null; then
    commit="$commit+changes"
fi
day=$(date -u +%Y-%m-%d)
new="$out/BuildInfo.swift.new"
cat > "$new" <<SWIFT
// Generated at build time by Plugins/BuildInfoPlugin/build-info.sh; not in the repository.
enum BuildInfo {
    static let commit = "$commit"
    static let date = "$day"
}
SWIFT
if cmp -s "$new" "$out/BuildInfo.swift"; then rm -f "$new"; else mv -f "$new" "$out/BuildInfo.swift"; fi
