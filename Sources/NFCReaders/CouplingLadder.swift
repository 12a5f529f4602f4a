/// The analog profiles a coupling measurement steps through, weakest first and the
/// PN532's default last (docs/coupling.md says where each value comes from).
///
/// A tap at a position is graded by the weakest profile that still read there: the
/// coupling index is the share of the ladder below it, from 0 (only the default field
/// reads) to 1 (the weakest profile reads). An ordinal grade, not a field strength.
public struct CouplingLadder: Sendable, Hashable {
    /// Stored with every tap graded on it (`coupling_ladder`): a grade is a share of its
    /// own ladder, so a tap graded on another ladder means another field.
    public let name: String
    public let profiles: [AnalogProfile]

    public init(name: String, _ profiles: [AnalogProfile]) {
        precondition(profiles.count >= 2, "a ladder has a weakened rung and the default")
        precondition(profiles.last == .pn532Default, "a ladder ends at the default, as the reader must be left")
        precondition(Set(profiles.map(\.name)).count == profiles.count, "a ladder's rungs have names of their own")
        self.name = name
        self.profiles = profiles
    }

    /// The coupling index of a tap whose weakest reading profile is `profiles[rung]`.
    public func coupling(weakestRead rung: Int) -> Double {
        precondition(profiles.indices.contains(rung), "a rung of the ladder")
        return Double(profiles.count - 1 - rung) / Double(profiles.count - 1)
    }

    /// The rung a full-field MISS is asked again at (`run --coupling`): the one nearest half
    /// the default field's strength, so a phone whose front end saturates in the full field
    /// meets a field it can answer. Half the strength, not half the rungs: the rungs are
    /// finer near the default, so the middle one is still a strong field.
    public var middle: Int {
        profiles.indices.dropLast().min { abs(profiles[$0].threshold - 0.5) < abs(profiles[$1].threshold - 0.5) }!
    }

    /// The rungs below the default that read for a coupling index (`coupling(weakestRead:)`
    /// undone): 0 for the default alone, `profiles.count - 1` for the weakest. An index
    /// between rungs (a damaged or foreign value) goes to the nearest.
    public func rungsRead(coupling index: Double) -> Int {
        min(max(Int((index * Double(profiles.count - 1)).rounded()), 0), profiles.count - 1)
    }

    /// Eleven rungs. The two weakest are Project-HINATA/hinata_go's PN532 profiles
    /// (RFCfg, GsNOn, CWGsP) = (0x29, 0x03, 0x11) and (0x49, 0x0B, 0x0C), "to cover
    /// different cards and coupling distances"; its third, (0x59, 0x0F, 0x3F), keeps the
    /// default carrier and gain and so is left out. The eight between step the carrier
    /// conductance CWGsP down from the default's 0x3F at the default's other bytes, finest
    /// near the default: four apart (1/16 of the register) down to 0x2F, then eight apart
    /// down to 0x0F. A coil's edge is where only a nearly full field reads, so that is where
    /// a grade places an edge and where its steps should be small; deeper in, a grade only
    /// says how deep. An inferred spacing on the register's scale, not a published table.
    /// The last is the PN532's power-up setting (UM0701-02, §7.3.1).
    public static let standard = CouplingLadder(
        name: "pn53x-11",
        [
            .weakened("hinata 1", rfCfg: 0x29, gsNOn: 0x03, cwGsP: 0x11),
            .weakened("hinata 2", rfCfg: 0x49, gsNOn: 0x0B, cwGsP: 0x0C),
            .weakened("CWGsP 0F", rfCfg: 0x59, gsNOn: 0xF4, cwGsP: 0x0F),
            .weakened("CWGsP 17", rfCfg: 0x59, gsNOn: 0xF4, cwGsP: 0x17),
            .weakened("CWGsP 1F", rfCfg: 0x59, gsNOn: 0xF4, cwGsP: 0x1F),
            .weakened("CWGsP 27", rfCfg: 0x59, gsNOn: 0xF4, cwGsP: 0x27),
            .weakened("CWGsP 2F", rfCfg: 0x59, gsNOn: 0xF4, cwGsP: 0x2F),
            .weakened("CWGsP 33", rfCfg: 0x59, gsNOn: 0xF4, cwGsP: 0x33),
            .weakened("CWGsP 37", rfCfg: 0x59, gsNOn: 0xF4, cwGsP: 0x37),
            .weakened("CWGsP 3B", rfCfg: 0x59, gsNOn: 0xF4, cwGsP: 0x3B),
            .pn532Default,
        ])
}

/// A reader whose field the host can weaken (a PN53x's RFConfiguration item 0x0A).
///
/// The first change journals the chip's settings before it, so they are put back on
/// every way out: `restoreAnalogSettings` at the end of a run and at close, and on the
/// next open after a `kill -9`. A reader is never left weakened.
public protocol AnalogProfiling: Sendable {
    func apply(_ profile: AnalogProfile) async throws(ReaderError)
    /// One poll round with the field weakened to `profile`, the phone met afresh (a field
    /// cycle or a discovery of the host's own): what the reader heard. Each backend polls
    /// its own way, because a reader whose firmware polls by itself (an ACR122U) must be
    /// asked by the host while its field is weakened.
    func listen(at profile: AnalogProfile, window: Duration) async throws(ReaderError) -> TapWindow
    /// Whether the chip can be reached with no phone on the reader. A MISS can be asked
    /// again with a weakened field only then: an ACR122U whose driver refuses escape
    /// commands takes them only through a card's connection, and a MISS has no card.
    var listensWithoutATarget: Bool { get async }
    /// Puts back the settings journalled before the first change, and clears the journal.
    func restoreAnalogSettings() async throws(ReaderError)
}
