import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore
import NFCReaders

/// Everything a run needs to start, as the operator asked for it. `RunStart.prepare`
/// checks all of it against the store before any reader opens, so a request that cannot
/// run is refused with nothing open and nothing written.
public struct RunRequest: Sendable {
    /// A new session of a resolved model, or a saved session continued.
    public enum Subject: Sendable {
        /// `identifier`: what the session records as typed (resolved by the caller, and
        /// confirmed by the operator when the catalog does not know it).
        case model(identifier: String, resolution: AntennaResolution, resolver: AntennaZoneResolver)
        case resume(sessionID: String)
    }

    /// The simulated phone behind the `sim` reader and the virtual bench's positioner.
    public struct SimulatedPhoneSettings: Sendable {
        /// The phone's true antenna; `nil`: the predicted zone, else a broad default.
        public var antenna: (x: Double, y: Double, width: Double, height: Double)?
        public var seed: UInt64

        public init(antenna: (x: Double, y: Double, width: Double, height: Double)? = nil, seed: UInt64 = 1) {
            self.antenna = antenna
            self.seed = seed
        }
    }

    public var subject: Subject
    /// `nil`: a resumed session's own reader, else the only one present.
    public var reader: ReaderSpec?
    /// `nil`: the coil plan where the session will know its reader's antenna and the
    /// phone's body (the physics that plan reasons in), else the adaptive plan. The adaptive
    /// plan bisects the read region, which is 1.4-3 times the coil and moves with the
    /// reader (docs/physics.md); where the physics is known, the coil is what to measure.
    public var plan: PlanKind?
    /// A raster plan's step in mm (`--step-mm`).
    public var rasterStepMm = 5.0
    /// The heights above the back each position is tapped at (`--heights`): `[0]`, on the back.
    public var heights: [Double] = [0]
    /// `true` (`--coupling`): grade every HIT down the analog ladder (docs/coupling.md).
    /// `nil`: graded where the session takes the coil plan and the reader can weaken its
    /// field in card mode: binary taps leave a coil's size ambiguous under the physics (two
    /// hills of the likelihood, docs/physics.md), graded ones pin it. `false`: never.
    public var coupling: Bool?
    public var repeats = 1
    /// `nil`: 5 s for a new session (a machine run: its rig's window); a resumed one keeps its own.
    public var tapTimeout: Double?
    public var unit: String?
    public var operatorName: String?
    /// What was typed for the model, when it was a name or a spelling of the identifier.
    public var modelTyped: String?
    public var phone = PhoneDetails()
    /// The room's temperature and humidity as the operator read them, for the record.
    public var conditions = BenchConditions()
    /// The reader's antenna (W x H mm) and the gap to the phone, where the operator gave
    /// them; the reader's profile fills in the rest (`ReaderAntennaProfile`).
    public var readerAntenna: (width: Double, height: Double)?
    public var gapMm: Double?
    public var station: String?
    /// `nil`: card mode for a new session; a resumed one keeps its own.
    public var mode: TapMode?
    /// `nil`: the sim positioner with the sim reader, else a person (manual).
    public var positioner: PositionerChoice?
    public var positionerTimeout: Duration = .seconds(60)
    /// Where the run's preparation tells the operator what it waits for (a machine still
    /// finishing moves); the CLI prints it on standard error.
    public var notice: @Sendable (String) -> Void = { _ in }
    /// The rig file a machine positioner (`gcode`) reads; loaded and checked by the caller.
    public var rig: LoadedRig?
    /// No one at the bench to answer prompts: the phone must be moved by a machine.
    public var unattended = false
    public var readerFeedback = true
    /// `--include-simulated`: an adaptive plan may learn from simulated sessions too.
    public var includeSimulated = false
    public var simulatedPhone = SimulatedPhoneSettings()
    /// A virtual bench's folder for the sim positioner; `nil`: beside an emulated PN532's pty.
    public var virtualBenchDirectory: String?
    /// Settings given that would change what a resumed session measures, by the caller's
    /// names for them: a resumed session refuses them (`RunRefusal.fixedOnResume`).
    public var givenFixedSettings: [String] = []
    /// The reader's own diagnosis of a failed open (udev, kernel modules) reads these.
    public var environment: [String: String] = [:]

    public init(subject: Subject) {
        self.subject = subject
    }
}
