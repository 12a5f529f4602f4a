import NFCBenchRecords

/// Why a run request cannot start. Raised before any reader opens, except
/// `tagModeUnsupported`, which only the open reader can tell. Each case's words for the
/// operator, and whether the command itself is at fault, are `words(database:unattendedOption:)`.
public enum RunRefusal: Error, Sendable, Equatable {
    case noSuchSession(id: String)
    case notResumable(id: String, status: SessionRecord.Status)
    case voidSession(id: String, reason: String)
    /// `settings`: the caller's names for what was given (`RunRequest.givenFixedSettings`).
    case fixedOnResume(id: String, settings: [String])
    case modeFixedOnResume(id: String, mode: TapMode)
    /// An unattended run with a positioner that needs a person.
    case unattendedNeedsMachine
    /// The sim positioner with a reader that is neither simulated nor a virtual bench.
    case simPositionerNeedsBench
    /// `hasTargetMode`: whether the reader's stack can emulate a tag at all.
    case tagModeUnsupported(reader: String, reason: String, hasTargetMode: Bool)
    /// A machine positioner without a rig file.
    case rigMissing
    case rigUnusable(path: String, reason: String)
    /// A machine maps positions with the phone's published size, which the catalog lacks.
    case bodySizeUnknown(model: String)
    /// A planned position, or a part of the back a plan may reach, is outside the travel.
    case outOfTravel(reason: String)
    case machineUnavailable(device: String, reason: String)
    /// `--heights` with a positioner that only puts the phone on the reader.
    case heightsNeedMachine(positioner: String)
    /// `--coupling` with a reader that cannot weaken its field, or in tag mode.
    case couplingUnsupported(reason: String)
    /// The reader reports a spec that cannot be parsed back (a backend bug).
    case readerSpecUnreadable(String)
    /// `--plan coil` reasons in millimetres under the physics of two loops: it needs the
    /// reader's antenna (a profile or `--reader-antenna`) and the phone's published body size.
    case coilPlanNeedsGeometry(reader: String, antennaKnown: Bool, bodyKnown: Bool)
}
