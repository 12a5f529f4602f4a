import NFCBenchRecords
import NFCBenchUseCases
import Testing

/// A run's refusals in the operator's words: a mistake in the command is a usage error
/// (the CLI exits 64), the bench's state a failure with what to do (exit 1).
@Suite("Run refusals in words")
struct RunRefusalWordsTests {
    static let everyCase: [RunRefusal] = [
        .noSuchSession(id: "S-1"), .notResumable(id: "S-1", status: .completed), .voidSession(id: "S-1", reason: "dropped"),
        .fixedOnResume(id: "S-1", settings: ["--plan"]), .modeFixedOnResume(id: "S-1", mode: .tag),
        .unattendedNeedsMachine, .simPositionerNeedsBench,
        .tagModeUnsupported(reader: "r", reason: "why", hasTargetMode: false),
        .tagModeUnsupported(reader: "r", reason: "why", hasTargetMode: true), .rigMissing,
        .rigUnusable(path: "rig.conf", reason: "no device"), .bodySizeUnknown(model: "X"), .outOfTravel(reason: "far"),
        .machineUnavailable(device: "/dev/ttyACM0", reason: "busy"), .heightsNeedMachine(positioner: "manual"),
        .couplingUnsupported(reason: "tag mode"), .readerSpecUnreadable("??"),
        .coilPlanNeedsGeometry(reader: "r", antennaKnown: false, bodyKnown: false),
    ]

    @Test(arguments: everyCase)
    func everyRefusalSaysWhatIsWrongAndWhoseFaultItIs(refusal: RunRefusal) {
        let words = refusal.words(database: "/lab/bench.sqlite", unattendedOption: "--auto")
        #expect(words.message.count > 20, "\(refusal): \(words)")
        let commandAtFault: Bool
        switch refusal {
        case .fixedOnResume, .modeFixedOnResume, .unattendedNeedsMachine, .simPositionerNeedsBench, .rigMissing, .rigUnusable,
            .heightsNeedMachine, .couplingUnsupported, .coilPlanNeedsGeometry:
            commandAtFault = true
        default: commandAtFault = false
        }
        #expect(words.isUsage == commandAtFault, "\(refusal): \(words)")
        // A usage error is fixed by changing the command, which its own words say; no hint.
        if words.isUsage { #expect(words.hint == nil) }
    }

    @Test func theWordsNameWhatTheOperatorGaveAndWhereToLook() {
        let missing = RunRefusal.noSuchSession(id: "S-20261207-1").words(
            database: "/lab/bench.sqlite", unattendedOption: "--auto")
        #expect(
            missing.message == "No session 'S-20261207-1' in /lab/bench.sqlite." && missing.hint?.contains("sessions") == true)
        let unattended = RunRefusal.unattendedNeedsMachine.words(database: "", unattendedOption: "--json")
        #expect(unattended.message.hasPrefix("'--json' reads no keys"))
        let both = RunRefusal.coilPlanNeedsGeometry(reader: "ACS ACR1252", antennaKnown: false, bodyKnown: false)
            .words(database: "", unattendedOption: "--auto")
        #expect(both.message.contains("'ACS ACR1252' has no profile") && both.message.contains(", and the phone's body size"))
    }
}
