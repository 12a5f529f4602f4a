import Foundation

/// libccid's `ifdDriverOptions`, read from its Info.plist.
///
/// Bit 0x0001 (`DRIVER_OPTION_CCID_EXCHANGE_AUTHORIZED`) lets `SCardControl` escape
/// commands through without a card. Debian and Ubuntu ship 0x0000, so on a stock
/// install the ACR122U's escape commands (LED and buzzer feedback, PICC parameter
/// changes) only pass while a phone is on the reader: nfcbench then journals a pending
/// restore of the PICC parameter instead of restoring it at close.
public struct CCIDDriverOptions: Sendable, Equatable {
    public let path: String
    public let value: UInt32

    public var escapeAllowed: Bool { value & 0x0001 != 0 }

    /// Debian's /etc copy first (the bundle's Info.plist links to it there), then the
    /// bundle itself, where other distributions keep it.
    public static func candidates(etc: String) -> [String] {
        [
            etc + "/libccid_Info.plist", etc + "/../usr/lib/pcsc/drivers/ifd-ccid.bundle/Contents/Info.plist",
            etc + "/../usr/lib/x86_64-linux-gnu/pcsc/drivers/ifd-ccid.bundle/Contents/Info.plist",
        ]
    }

    public enum ReadResult: Sendable, Equatable {
        case notInstalled
        case unreadable(path: String)
        case found(CCIDDriverOptions)
    }

    public static func read(etc: String) -> ReadResult {
        guard let path = candidates(etc: etc).first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            return .notInstalled
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let value = parse(text) else {
            return .unreadable(path: path)
        }
        return .found(CCIDDriverOptions(path: path, value: value))
    }

    /// The `<string>` after `<key>ifdDriverOptions</key>`, hexadecimal (0x...) or decimal.
    static func parse(_ plist: String) -> UInt32? {
        guard let key = plist.range(of: "<key>ifdDriverOptions</key>"),
            let open = plist.range(of: "<string>", range: key.upperBound..<plist.endIndex),
            let close = plist.range(of: "</string>", range: open.upperBound..<plist.endIndex)
        else { return nil }
        let text = plist[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return text.hasPrefix("0x") ? UInt32(text.dropFirst(2), radix: 16) : UInt32(text)
    }
}

extension BenchDoctor {
    func ccidCheck() -> DoctorCheck {
        switch CCIDDriverOptions.read(etc: roots.etc) {
        case .notInstalled:
            return DoctorCheck(
                id: "ccid-escape", verdict: .ok,
                detail: "libccid not installed: PC/SC readers need it (sudo apt-get install libccid); libnfc readers do not",
                fix: nil)
        case .unreadable(let path):
            return DoctorCheck(
                id: "ccid-escape", verdict: .warn, detail: "cannot read ifdDriverOptions in \(path)",
                fix: "Check the file; reinstall libccid if it is damaged (sudo apt-get install --reinstall libccid).")
        case .found(let options) where options.escapeAllowed:
            return DoctorCheck(
                id: "ccid-escape", verdict: .ok,
                detail: String(format: "libccid ifdDriverOptions 0x%04X: reader escape commands allowed", options.value), fix: nil
            )
        case .found(let options):
            return DoctorCheck(
                id: "ccid-escape", verdict: .warn,
                detail: String(
                    format: "libccid ifdDriverOptions 0x%04X in %@: through PC/SC, the ACR122U's LED/buzzer and PICC ",
                    options.value, options.path)
                    + "settings only work while a phone is on the reader",
                fix: String(
                    format:
                        "Set <string>0x%04X</string> after <key>ifdDriverOptions</key> in %@, then sudo systemctl restart pcscd.",
                    options.value | 0x0001, options.path))
        }
    }
}
