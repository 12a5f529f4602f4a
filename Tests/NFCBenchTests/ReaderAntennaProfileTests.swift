import NFCBenchRecords
import NFCReaders
import Testing

@testable import NFCBench

/// Which readers the bench knows the antenna of, and how a session's geometry says where
/// each figure came from.
@Suite struct ReaderAntennaProfileTests {
    @Test func readersMatchTheirProfiles() throws {
        let acr = try ReaderSpec(recorded: "pcsc:ACS ACR122U PICC Interface 00 00")
        #expect(ReaderAntennaProfile.matching(spec: acr, name: "ACS ACR122U PICC Interface 00 00") == .acr122u)
        let viaLibnfc = try ReaderSpec(recorded: "libnfc:acr122_usb:001:004")
        #expect(ReaderAntennaProfile.matching(spec: viaLibnfc, name: "ACS / ACR122U PICC Interface") == .acr122u)
        let module = try ReaderSpec(recorded: "libnfc:pn532_uart:/dev/ttyUSB0")
        #expect(ReaderAntennaProfile.matching(spec: module, name: "pn532_uart:/dev/ttyUSB0") == .pn532Module)
        #expect(ReaderAntennaProfile.matching(spec: .sim, name: "nfcbench simulated reader") == nil)
        let other = try ReaderSpec(recorded: "pcsc:Identiv uTrust 3700 F CL Reader 00 00")
        #expect(ReaderAntennaProfile.matching(spec: other, name: "Identiv uTrust 3700 F CL Reader") == nil)
    }

    @Test func theGeometryNamesWhereEachFigureCameFrom() {
        let profile = ReaderAntennaProfile.acr122u
        let fromProfile = ReaderAntennaProfile.geometry(antenna: nil, gapMm: nil, profile: profile)
        #expect(fromProfile == ReaderGeometry(antennaWidthMm: 46, antennaHeightMm: 64, gapMm: 3, source: profile.basis))
        #expect(fromProfile?.source.contains("inferred") == true)
        let gapGiven = ReaderAntennaProfile.geometry(antenna: nil, gapMm: 5, profile: profile)
        #expect(gapGiven?.gapMm == 5 && gapGiven?.source.hasSuffix("; gap by the operator") == true)
        let antennaGiven = ReaderAntennaProfile.geometry(antenna: (30, 30), gapMm: nil, profile: profile)
        #expect(antennaGiven?.antennaWidthMm == 30 && antennaGiven?.gapMm == 3)
        #expect(antennaGiven?.source.hasPrefix("antenna by the operator, gap from acr122u") == true)
        #expect(ReaderAntennaProfile.geometry(antenna: (30, 20), gapMm: 2, profile: nil)?.source == "operator")
        // Nothing knows the antenna: no geometry, whatever the gap.
        #expect(ReaderAntennaProfile.geometry(antenna: nil, gapMm: 2, profile: nil) == nil)
    }
}
