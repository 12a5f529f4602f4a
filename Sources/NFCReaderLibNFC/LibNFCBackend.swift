import NFCReaders

extension ReaderBackend {
    public static let libnfc = ReaderBackend(rawValue: "libnfc")
}

extension ReaderSpec {
    public static func libnfc(connstring: String) -> ReaderSpec { ReaderSpec(scheme: "libnfc", argument: connstring) }
}

extension LibNFCReader {
    /// libnfc's drivers in Debian's build: a bare connstring naming one (`pn532_uart:/dev/ttyUSB0`,
    /// as `nfc-list` users write it) is read as `libnfc:` + it.
    static let drivers = ["pn532_uart", "pn532_spi", "pn532_i2c", "pn53x_usb", "acr122_usb", "acr122s", "arygon"]

    /// The open of a `libnfc:` spec, begun on the reader's own queue (`LibNFCReader.begin`).
    static func begin(_ spec: ReaderSpec, _ opening: ReaderBackendRegistration.Opening) -> PendingOpen<any Reader> {
        let pending = PendingOpen<any Reader>()
        LibNFCReader.begin(
            connstring: spec.argument ?? "", diagnosis: .fromEnvironment(opening.environment),
            analogJournal: opening.analogJournalOrDefault
        ) { pending.finish($0.map { $0 as any Reader }) }
        return pending
    }

    /// `libnfc:<connstring>`: PN53x readers through libnfc (USB, serial, I2C, SPI).
    public static let registration = ReaderBackendRegistration(
        backend: .libnfc, syntax: "libnfc:<connstring>",
        shorthand: { text in
            guard let driver = text.split(separator: ":", maxSplits: 1).first, drivers.contains(String(driver)) else {
                return nil
            }
            return "libnfc:" + text
        },
        check: { text, spec throws(ReaderError) in
            let connstring = spec.argument ?? ""
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
            return spec
        },
        open: { spec, opening throws(ReaderError) in try await begin(spec, opening).reader() },
        begin: begin,
        discover: {
            (connstrings().map { ReaderInfo(backend: .libnfc, name: $0, spec: "libnfc:\($0)", firmware: nil) }, [])
        },
        describe: { info in
            let state = describe(connstring: String(info.spec.dropFirst("libnfc:".count)))
            return .init(firmware: state.firmware, inUse: state.inUse)
        },
        tagMode: { info, firmware in .forLibNFC(firmware: firmware, name: info.spec) })
}
