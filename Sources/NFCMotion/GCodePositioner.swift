import NFCBenchRecords
import NFCBenchSeams
import NFCRig
import Synchronization

/// A GRBL gantry or a Marlin printer that puts the reader under each probe point.
///
/// Every placement goes up to the crossing height, across in XY, down to the tap height,
/// then waits for the machine to stop (the barrier) before it reports "placed"; every
/// lift goes up and waits likewise. So no XY move happens at tap height, and the reader is
/// never polled while the machine moves. The crossing height is `safe-z`, out of the
/// field's reach, or `clearance-z` just above the back when the reader can switch its
/// field off (`crossesWithFieldOff`): the run then keeps the field off while it moves.
/// A lift never goes down: a tap made higher than the crossing height stays where it is.
/// Homing, if the rig homes, waits for `prepare`, which the run calls after its ready gate.
public struct GCodePositioner: Positioner {
    public let machine: GCodeMachine
    public let geometry: RigGeometry
    public let crossesWithFieldOff: Bool
    /// The Z the last finished move ended at; `nil` before the first and after a failed
    /// one, when the next crossing goes up to `safe-z` to be sure.
    private let head = HeadHeight()

    /// `fieldOff` crosses at the rig's `clearance-z`; it needs one (`MachinePositioners`
    /// asks only when the rig has it and the reader can switch its field).
    public init(machine: GCodeMachine, geometry: RigGeometry, crossesWithFieldOff fieldOff: Bool = false) {
        precondition(!fieldOff || geometry.rig.clearanceZ != nil, "crossing with the field off needs clearance-z")
        self.machine = machine
        self.geometry = geometry
        crossesWithFieldOff = fieldOff
    }

    /// The port the machine was opened on, as messages name it.
    public var devicePath: String { machine.link.port.path }

    public var needsOperator: Bool { false }
    public var placesAtHeights: Bool { true }
    var rig: RigConfiguration { geometry.rig }

    /// Where XY moves happen.
    var crossingZ: Double { crossesWithFieldOff ? rig.clearanceZ ?? rig.safeZ : rig.safeZ }

    public var announcement: String? {
        let homing = rig.homes ? "home (\(machine.dialect == .grbl ? "$H" : "G28")), then " : ""
        let start = "\(machine.dialect.displayName) on \(devicePath) will \(homing)go up to Z \(number(rig.safeZ)) mm; "
        let down = "down to Z \(number(rig.tapZ)) mm at \(number(rig.feedZ)) mm/min, stop"
        guard crossesWithFieldOff else {
            let unused =
                rig.clearanceZ == nil ? "" : " (clearance-z is not used: this reader cannot switch its field off)"
            return start + "at each position: across at \(number(rig.feedXY)) mm/min, \(down), tap, back up\(unused). "
                + "Ctrl-C stops the machine at once."
        }
        return start + "at each position: reader field off, up to Z \(number(crossingZ)) mm, across at "
            + "\(number(rig.feedXY)) mm/min, \(down), field on, tap. Ctrl-C stops the machine at once."
    }

    public func prepare() async throws(PositionerError) {
        try await guarded("start") { () throws(MachineError) in
            // Homing first: GRBL with homing enabled powers up locked, and `$H` is what unlocks it.
            if rig.homes { try await machine.home() }
            try await machine.configure()
            try await machine.move([zLine(rig.safeZ)])
            head.z = rig.safeZ
        }
    }

    public func place(_ probe: Probe, index: Int) async throws(PositionerError) {
        if let why = geometry.outsideTravel(x: probe.x, y: probe.y) {
            throw PositionerError("position \(index + 1) (\(geometry.millimetres(probe))) is out of reach: \(why)")
        }
        if let why = geometry.heightRefusal(probe.heightMm) {
            throw PositionerError("position \(index + 1) cannot be tapped: \(why)")
        }
        let point = geometry.machinePoint(probe)
        let z = geometry.machineZ(heightMm: probe.heightMm)
        try await guarded("place position \(index + 1)") { () throws(MachineError) in
            try await machine.move(
                upLines + [
                    "G1 X\(number(point.x)) Y\(number(point.y)) F\(number(rig.feedXY))", zLine(z),
                ])
            head.z = z
        }
    }

    public func lift(index: Int) async throws(PositionerError) {
        try await guarded("lift at position \(index + 1)") { () throws(MachineError) in
            let lines = upLines
            try await machine.move(lines)
            if !lines.isEmpty { head.z = crossingZ }
        }
    }

    /// The machine is asked after each window: anything it pushed meanwhile (an alarm, a
    /// reset banner, Marlin's error stop) fails it, and GRBL must still read `Idle`.
    public func confirmStill(index: Int) async throws(PositionerError) {
        try await guarded("hold still through the tap window at position \(index + 1)") { () throws(MachineError) in
            try await machine.confirmIdle()
        }
    }

    /// Up to the crossing height, or nothing when the head is already at or above it.
    var upLines: [String] {
        guard let z = head.z else { return [zLine(rig.safeZ)] }
        return z < crossingZ - 1e-6 ? [zLine(crossingZ)] : []
    }

    func zLine(_ z: Double) -> String { "G1 Z\(number(z)) F\(number(rig.feedZ))" }

    func number(_ value: Double) -> String { RigConfiguration.number(value) }

    /// A machine error in the run's terms: Ctrl-C is an interruption, anything else stops
    /// the run as "positioner failed" (saved, resumable).
    private func guarded(_ action: String, _ body: () async throws(MachineError) -> Void) async throws(PositionerError) {
        do throws(MachineError) { try await body() } catch {
            head.z = nil  // stopped somewhere in between: the next crossing goes all the way up
            throw failure(action, error)
        }
    }

    private func failure(_ action: String, _ error: MachineError) -> PositionerError {
        switch error {
        case .interrupted:
            PositionerError(
                "\(machine.dialect.displayName) halted (\(machine.dialect == .grbl ? "feed hold and soft reset" : "quick stop M410"))",
                isInterruption: true)
        default:
            PositionerError("\(machine.dialect.displayName) on \(devicePath) could not \(action): \(error)")
        }
    }
}

/// The head's last known Z, shared by the copies of one positioner (it is a value type
/// the run holds as `any Positioner`).
final class HeadHeight: Sendable {
    private let value = Mutex<Double?>(nil)
    var z: Double? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
