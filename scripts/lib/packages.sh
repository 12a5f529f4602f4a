# Debian packages nfcbench needs, and an installer that only touches what is missing.
# shellcheck shell=bash

# Build: the C libraries' headers. Tests: libnfc's and pcsc-tools' own clients (to
# check the emulators against), pcscd with the vpcd driver, tmux for terminal tests, and
# what a lab opens reports with: librsvg (rsvg-convert), headless Chromium and Firefox,
# an HTML5 parser (html5lib for Debian's python3), xmllint for the JUnit schema, a font.
TEST_PACKAGES=(pkg-config libnfc-dev libnfc-bin libnfc-examples libpcsclite-dev pcscd
               vsmartcard-vpcd pcsc-tools libsqlite3-dev sqlite3 python3 tmux
               librsvg2-bin chromium firefox-esr python3-html5lib libxml2-utils fonts-dejavu-core
               poppler-utils qpdf  # pdfinfo, pdftotext and qpdf --check for the PDF report's tests
               python3-pandas  # the CSV read as docs/csv.md tells labs to
               python3-jsonschema  # an outside validator for docs/schema/session.schema.json
               gcc python3-pyscard  # the tests' vpcd driver with a serial number, and an outside PC/SC client to read it
               python3-serial  # pyserial, for a G-code sender the emulated GRBL and Marlin are checked against
               python3-usb1  # nfcpy imports it (Tests/Fixtures/nfcpy), though its PN532 driver uses the serial port
               libcurl4-openssl-dev  # FoundationNetworking, for --static-swift-stdlib release builds
               man-db groff-base zsh fish  # the generated manual pages rendered by man, the completions run by each shell
               git  # ConsumerPackageTests tags a clone that SwiftPM then resolves by version
               libsodium-dev minisign nginx-light  # signed catalogs: libsodium's header, minisign to check them, nginx to serve them
               libpq-dev postgresql)  # the lab store's client library, and a private server for its tests

# Installs the named packages that are not installed yet. `apt-get update` runs once,
# only when something is missing, so a warm machine pays nothing.
ensure_packages() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing: ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}
