/// A PN53x's analog settings for 106 kbps type A: the eleven bytes of RFConfiguration
/// item 0x0A, in the order the PN532 user manual (UM0701-02, §7.3.1) gives them:
/// CIU_RFCfg, CIU_GsNOn, CIU_CWGsP, CIU_ModGsP, CIU_Demod (own RF field on),
/// CIU_RxThreshold, CIU_Demod (own RF field off), CIU_GsNOff, CIU_ModWidth, CIU_MifNFC,
/// CIU_TxBitPhase.
///
/// CWGsP is the conductance of the antenna drivers outside modulation, so it sets the
/// carrier's strength; RFCfg's bits 6-4 are the receiver's gain. Lowering them weakens the
/// field the phone must couple with, which is what turns a tap's one bit into a grade.
public struct AnalogProfile: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    public let settings: [UInt8]

    public init(name: String, settings: [UInt8]) {
        precondition(settings.count == 11, "RFConfiguration item 0x0A carries 11 bytes")
        self.name = name
        self.settings = settings
    }

    /// The PN532's power-up values (UM0701-02, §7.3.1): `59 F4 3F 11 4D 85 61 6F 26 62 87`.
    public static let pn532Default = AnalogProfile(
        name: "default", settings: [0x59, 0xF4, 0x3F, 0x11, 0x4D, 0x85, 0x61, 0x6F, 0x26, 0x62, 0x87])

    /// The default with the receiver gain's RFCfg, GsNOn and CWGsP replaced.
    public static func weakened(_ name: String, rfCfg: UInt8, gsNOn: UInt8, cwGsP: UInt8) -> AnalogProfile {
        var settings = pn532Default.settings
        settings[0] = rfCfg
        settings[1] = gsNOn
        settings[2] = cwGsP
        return AnalogProfile(name: name, settings: settings)
    }

    public var rfCfg: UInt8 { settings[0] }
    public var cwGsP: UInt8 { settings[2] }

    /// The emulated chip's reading of these settings (docs/coupling.md): the field's
    /// strength is the carrier conductance (CWGsP, 6 bits) times the receiver gain
    /// (RFCfg bits 6-4) against the default's, and a phone answers only where its coupling
    /// reaches 1 minus that strength. A model for the virtual bench, not a measurement.
    public var threshold: Double {
        let carrier = Double(cwGsP & 0x3F) / 0x3F
        let gain = Double((rfCfg >> 4) & 0x07) / Double((Self.pn532Default.rfCfg >> 4) & 0x07)
        return min(1, max(0, 1 - carrier * min(gain, 1)))
    }

    public var description: String { name + " (" + Hex.string(settings, separator: " ") + ")" }

    /// Where each byte of item 0x0A lands among the chip's CIU registers; the seventh
    /// (demodulator settings with the own field off) is kept by the firmware alone.
    public static let registers: [UInt16?] = [
        0x6316, 0x6317, 0x6318, 0x6319, 0x6309, 0x6308, nil, 0x6313, 0x6314, 0x630C, 0x6315,
    ]

    /// Item 0x0A from the values of its registers (`registers` without the `nil`, in
    /// order): the byte the firmware keeps alone is taken as its default.
    public static func settings(fromRegisters values: [UInt8]) -> [UInt8] {
        precondition(values.count == registers.compactMap { $0 }.count, "one value per register")
        var next = values.makeIterator()
        return zip(registers, pn532Default.settings).map { register, fallback in
            register == nil ? fallback : next.next()!
        }
    }
}
