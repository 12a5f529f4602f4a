import NFCBenchRecords
import NFCReaders

/// What the bench knows of common readers' antennas, so a session records its reader's
/// geometry without the operator measuring it (docs/physics.md, "Measuring a bench's
/// reader and ladder"). Every figure says where it comes from and whether it was measured
/// or inferred; `run --reader-antenna` and `--gap-mm` override them.
public struct ReaderAntennaProfile: Sendable, Equatable {
    public let name: String
    public let antennaWidthMm: Double
    public let antennaHeightMm: Double
    public let gapMm: Double
    /// Where the figures come from, and which are measured and which inferred.
    public let basis: String

    /// ACS's ACR122U. ACS publishes the antenna of the ACR122L, the serial member of the same
    /// PN532 family: "3 turns symmetric loop antenna, estimated size 46 mm x 64 mm" (ACR122L
    /// design specification v0.03, 2010, §3.6); the ACR122U is taken to share it (inferred).
    /// The gap is inferred: about 2 mm of reader top cover and 1 mm of phone back.
    public static let acr122u = ReaderAntennaProfile(
        name: "acr122u", antennaWidthMm: 46, antennaHeightMm: 64, gapMm: 3,
        basis: "acr122u: antenna from ACS's ACR122L specification (inferred for the ACR122U), gap inferred")

    /// A PN532 breakout module on a UART, I2C or SPI link (the Elechouse V3 and its copies,
    /// about 42 mm square, revk.uk 2021): its PCB antenna runs round the board's edge
    /// inside the components, taken as 35 x 30 mm (inferred from the board's size, not
    /// measured). The gap is the phone's back alone, the board being bare (inferred).
    public static let pn532Module = ReaderAntennaProfile(
        name: "pn532-module", antennaWidthMm: 35, antennaHeightMm: 30, gapMm: 1.5,
        basis: "pn532-module: antenna and gap inferred from a 42 mm board")

    public static let all = [acr122u, pn532Module]

    /// The profile a reader matches: by its PC/SC name or libnfc driver; `nil` for a reader
    /// the bench knows nothing of (the simulated reader, a virtual bench, another model).
    public static func matching(spec: ReaderSpec, name: String) -> ReaderAntennaProfile? {
        let text = (spec.description + " " + name).lowercased()
        if text.contains("acr122") { return acr122u }
        if spec.scheme == "libnfc", ["pn532_uart", "pn532_i2c", "pn532_spi"].contains(where: text.contains) {
            return pn532Module
        }
        return nil
    }

    /// The geometry a session records: the operator's figures where given, the profile's
    /// for the rest, and where each came from; `nil` when neither knows the antenna.
    public static func geometry(
        antenna: (width: Double, height: Double)?, gapMm: Double?, profile: ReaderAntennaProfile?
    ) -> ReaderGeometry? {
        guard let width = antenna?.width ?? profile?.antennaWidthMm,
            let height = antenna?.height ?? profile?.antennaHeightMm
        else { return nil }
        // An antenna given without a gap: the profile's gap, else a phone's back on a thin cover.
        let gap = gapMm ?? profile?.gapMm ?? 3
        let source: String
        switch (antenna != nil, gapMm != nil, profile) {
        case (true, true, _): source = "operator"
        case (true, false, let p?): source = "antenna by the operator, gap from " + p.basis
        case (true, false, nil): source = "antenna by the operator, gap assumed 3 mm"
        case (false, true, let p?): source = p.basis + "; gap by the operator"
        case (false, false, let p?): source = p.basis
        case (false, _, nil): return nil
        }
        return ReaderGeometry(antennaWidthMm: width, antennaHeightMm: height, gapMm: gap, source: source)
    }
}
