/// How the operator names a reader on the command line.
public enum ReaderSpec: Sendable, Hashable, CustomStringConvertible {
    /// `libnfc:<connstring>`, e.g. `libnfc:pn532_uart:/dev/ttyUSB0`, `libnfc:acr122_usb:`.
    case libnfc(connstring: String)
    /// `pcsc:<reader name or unique substring>`.
    case pcsc(name: String)
    /// The in-process simulated phone.
    case sim

    /// libnfc's drivers in Debian's build: a bare connstring naming one (`pn532_uart:/dev/ttyUSB0`,
    /// as `nfc-list` users write it) is read as `libnfc:` + it.
    static let libnfcDrivers = ["pn532_uart", "pn532_spi", "pn532_i2c", "pn53x_usb", "acr122_usb", "acr122s", "arygon"]

    public static func parse(_ text: String) throws(ReaderError) -> ReaderSpec {
        if text == "sim" { return .sim }
        if let driver = text.split(separator: ":", maxSplits: 1).first, libnfcDrivers.contains(String(driver)) {
            return try parse("libnfc:" + text)
        }
        if text.hasPrefix("libnfc:") {
            let connstring = String(text.dropFirst("libnfc:".count))
            let drivers = libnfcDrivers
            guard let driver = connstring.split(separator: ":", omittingEmptySubsequences: false).first,
                drivers.contains(String(driver))
            else {
                if connstring.hasPrefix("acr122_pcsc") {
                    throw ReaderError(
                        .invalidSpec, "Debian's libnfc is built without the acr122_pcsc driver.",
                        hint: "An ACR122U held by pcscd is reached through PC/SC: use --reader pcsc:ACR122.")
                }
                throw ReaderError(
                    .invalidSpec, "Unknown libnfc driver in '\(text)'.",
                    hint: "Use one of: \(drivers.map { "libnfc:\($0):" }.joined(separator: ", ")).")
            }
            return .libnfc(connstring: connstring)
        }
        if text.hasPrefix("pcsc:") {
            let name = String(text.dropFirst("pcsc:".count))
            guard !name.isEmpty else {
                throw ReaderError(
                    .invalidSpec, "'pcsc:' needs a reader name or part of one.",
                    hint: "Run 'nfcbench readers' to see the names.")
            }
            return .pcsc(name: name)
        }
        throw ReaderError(
            .invalidSpec, "'\(text)' is not a reader spec.",
            hint: "Use libnfc:<connstring>, pcsc:<name> or sim; 'nfcbench readers' lists them.")
    }

    public var description: String {
        switch self {
        case .libnfc(let c): "libnfc:\(c)"
        case .pcsc(let n): "pcsc:\(n)"
        case .sim: "sim"
        }
    }
}
