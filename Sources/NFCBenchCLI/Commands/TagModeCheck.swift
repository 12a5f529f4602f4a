import NFCReaderLibNFC
import NFCReaders

/// Before a tag-mode run: can this reader emulate a tag? Refused with the reason and
/// what to use instead, never found out at the first position.
enum TagModeCheck {
    static func require(_ reader: any Reader, _ context: CommandContext) throws {
        let name = TerminalSafeText.neutralise(reader.info.name)
        guard reader is any TagEmulating else {
            throw CommandFailure(
                "Tag mode needs a reader that can emulate a tag; '\(name)' is reached through PC/SC, which has no target mode.",
                hint:
                    "Use a PN532 board through libnfc, e.g. --reader libnfc:pn532_uart:/dev/ttyUSB0 ('nfcbench readers' lists them)."
            )
        }
        guard let libnfc = reader as? LibNFCReader else { return }
        switch libnfc.tagEmulation {
        case .supported: return
        case .limited(let caveat): context.errors.line("Warning: \(caveat).")
        case .unsupported(let reason):
            throw CommandFailure("Tag mode: '\(name)' cannot emulate a tag: \(reason)")
        }
    }
}
