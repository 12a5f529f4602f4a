import NFCBenchRecords
import NFCReaders

/// `run --coupling`: a HIT graded down the analog ladder before it is recorded.
///
/// The HIT itself is the default field's answer, as in any run. From there each weaker
/// profile in turn is applied, the field cycled so the phone is met afresh, and one poll
/// round listened to; the first profile that hears nothing ends the walk. The tap records
/// the weakest profile that read as its coupling index and every profile tried. The chip
/// is put back to the default before the run goes on, whatever happens; the journal the
/// reader keeps (`AnalogJournal`) covers a run that is killed half-way.
extension GuidedRun {
    struct CouplingGrade {
        let index: Double
        let tried: String
    }

    /// One InAutoPoll round over A, 4A and B (0.45 s): a phone at rest answers within it.
    static let couplingWindow = Duration.milliseconds(400)

    /// `nil` when the reader failed during the walk: a fault says nothing about the
    /// coupling, and the HIT is recorded without a grade.
    func gradeCoupling(_ ladder: CouplingLadder, reader: any Reader) async throws -> CouplingGrade? {
        guard let analog = reader.capabilities.analogProfile else { return nil }
        var tried = ["default read"]
        var weakest = ladder.profiles.count - 1
        do {
            walk: for rung in stride(from: ladder.profiles.count - 2, through: 0, by: -1) {
                let profile = ladder.profiles[rung]
                try await analog.apply(profile)
                if let field = reader.capabilities.fieldSwitch {
                    try await field.switchField(on: false)
                    try await field.switchField(on: true)
                }
                switch try await reader.pollWindow(Self.couplingWindow) {
                case .target:
                    tried.append("\(profile.name) read")
                    weakest = rung
                case .clean:
                    tried.append("\(profile.name) no answer")
                    break walk
                case .faulty:
                    try await analog.apply(.pn532Default)
                    return nil
                }
            }
            try await analog.apply(.pn532Default)
        } catch {
            try? await analog.apply(.pn532Default)
            throw error
        }
        return CouplingGrade(index: ladder.coupling(weakestRead: weakest), tried: tried.joined(separator: ", "))
    }
}
