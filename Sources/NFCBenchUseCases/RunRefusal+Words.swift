/// A run's refusal as the operator reads it: what is wrong, what to do, and whether the
/// command itself is at fault (a usage error, exit 64) or the bench's state (exit 1).
///
/// The words sit beside the refusals, not in each front end, so `run` and anything else
/// that starts a run say the same thing; text from outside (a reader's name, a reason a
/// backend gave) is quoted as it came, and the front end makes it safe for its terminal.
public struct RefusalWords: Sendable, Equatable {
    public let message: String
    public let hint: String?
    public let isUsage: Bool

    init(_ message: String, hint: String? = nil, usage: Bool) {
        self.message = message
        self.hint = hint
        self.isUsage = usage
    }
}

extension RunRefusal {
    /// `database`: the store a missing session was looked for in; `unattendedOption`: the
    /// option that asked for a run without keys (`--auto` or `--json`).
    public func words(database: String, unattendedOption: String) -> RefusalWords {
        switch self {
        case .noSuchSession(let id):
            return RefusalWords("No session '\(id)' in \(database).", hint: "List them with 'nfcbench sessions'.", usage: false)
        case .notResumable(let id, let status):
            return RefusalWords("Session '\(id)' is \(status.rawValue); only unfinished sessions resume.", usage: false)
        case .voidSession(let id, let reason):
            return RefusalWords("Session '\(id)' is void (\(reason)); start a new one.", usage: false)
        case .fixedOnResume(let id, let settings):
            return RefusalWords(
                "\(settings.joined(separator: ", ")) cannot change when resuming: session \(id) keeps what it started with. "
                    + "Start a new session to change \(settings.count == 1 ? "it" : "them").", usage: true)
        case .modeFixedOnResume(let id, let mode):
            return RefusalWords(
                "Session \(id) was recorded in \(mode.rawValue) mode; a session keeps its mode "
                    + "(leave out --mode, or start a new session).", usage: true)
        case .unattendedNeedsMachine:
            return RefusalWords(
                "'\(unattendedOption)' reads no keys, so it needs a positioner that moves the phone "
                    + "(sim, exec:... or gcode): a manual run waits for the operator to confirm each placement.",
                usage: true)
        case .simPositionerNeedsBench:
            return RefusalWords(
                "'--positioner sim' needs --reader sim or a virtual bench (give --sim-bench DIR).", usage: true)
        case .tagModeUnsupported(_, let reason, hasTargetMode: false):
            return RefusalWords(
                "Tag mode needs a reader that can emulate a tag; \(reason).",
                hint:
                    "Use a PN532 board through libnfc, e.g. --reader libnfc:pn532_uart:/dev/ttyUSB0 ('nfcbench readers' lists them).",
                usage: false)
        case .tagModeUnsupported(let reader, let reason, hasTargetMode: true):
            return RefusalWords("Tag mode: '\(reader)' cannot emulate a tag: \(reason)", usage: false)
        case .coilPlanNeedsGeometry(let reader, let antennaKnown, let bodyKnown):
            var missing: [String] = []
            if !antennaKnown {
                missing.append(
                    "the reader's antenna ('\(reader)' has no profile): give --reader-antenna WxH and --gap-mm MM "
                        + "(docs/physics.md)")
            }
            if !bodyKnown { missing.append("the phone's body size, which the catalog does not publish for this model") }
            return RefusalWords(
                "--plan coil places positions in millimetres under the physics of two loops and needs "
                    + missing.joined(separator: ", and ") + ".", usage: true)
        case .couplingUnsupported(let reason):
            return RefusalWords("--coupling cannot be used: \(reason).", usage: true)
        case .readerSpecUnreadable(let spec):
            return RefusalWords("The reader names itself '\(spec)', which is not a reader spec.", usage: false)
        case .rigMissing, .rigUnusable, .bodySizeUnknown, .outOfTravel, .machineUnavailable, .heightsNeedMachine:
            return machineWords
        }
    }

    /// A machine positioner that cannot serve the session.
    private var machineWords: RefusalWords {
        switch self {
        case .rigMissing:
            return RefusalWords("A gcode positioner needs a rig file (--rig FILE; docs/rig.md).", usage: true)
        case .rigUnusable(let path, let reason):
            return RefusalWords("The rig '\(path)': \(reason).", usage: true)
        case .bodySizeUnknown(let model):
            return RefusalWords(
                "The catalog has no published body size for '\(model)', so a machine cannot map positions to millimetres.",
                hint: "Use a catalog entry with bodyWidthMm and bodyHeightMm, or move the phone by hand (--positioner manual).",
                usage: false)
        case .outOfTravel(let reason):
            return RefusalWords(
                "The plan cannot run on this rig: \(reason). Nothing moved.",
                hint: "Check origin-x, origin-y and the axes in the rig file, or re-run 'nfcbench rig calibrate'.",
                usage: false)
        case .machineUnavailable(let device, let reason):
            return RefusalWords(
                "The machine at \(device) cannot be used: \(reason).",
                hint: "Check it with 'nfcbench rig check'; 'nfcbench rig unlock' clears an alarm.", usage: false)
        case .heightsNeedMachine(let positioner):
            return RefusalWords(
                "--heights needs a positioner that can hold the reader above the back (gcode, or sim with --reader sim); "
                    + "'\(positioner)' only puts the phone on the reader.", usage: true)
        default: preconditionFailure("not a machine refusal: \(self)")
        }
    }
}
