import NFCBench
import NFCBenchRecords

/// A GRBL gantry or a Marlin printer that puts the reader under each probe point.
///
/// Every placement goes up to the safe height, across in XY, down to the tap height,
/// then waits for the machine to stop (the barrier) before it reports "placed"; every
/// lift goes up and waits likewise. So no XY move happens at tap height, and the reader is
/// never polled while the machine moves. Homing, if the rig homes, waits for `prepare`,
/// which the run calls after its ready gate.
public struct GCodePositioner: Positioner {
    public let machine: GCodeMachine
    public let geometry: RigGeometry

    public init(machine: GCodeMachine, geometry: RigGeometry) {
        self.machine = machine
        self.geometry = geometry
    }

    /// The port the machine was opened on, as messages name it.
    public var devicePath: String { machine.link.port.path }

    public var needsOperator: Bool { false }
    public var placesAtHeights: Bool { true }
    var rig: RigConfiguration { geometry.rig }

    public var announcement: String? {
        let homing = rig.homes ? "home (\(machine.dialect == .grbl ? "$H" : "G28")), then " : ""
        return "\(machine.dialect.displayName) on \(devicePath) will \(homing)go up to Z \(number(rig.safeZ)) mm; "
            + "at each position: across at \(number(rig.feedXY)) mm/min, down to Z \(number(rig.tapZ)) mm "
            + "at \(number(rig.feedZ)) mm/min, stop, tap, back up. Ctrl-C stops the machine at once."
    }

    public func prepare() async throws(PositionerError) {
        try await guarded("start") { () throws(MachineError) in
            // Homing first: GRBL with homing enabled powers up locked, and `$H` is what unlocks it.
            if rig.homes { try await machine.home() }
            try await machine.configure()
            try await machine.move([upLine])
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
            try await machine.move([
                upLine, "G1 X\(number(point.x)) Y\(number(point.y)) F\(number(rig.feedXY))",
                "G1 Z\(number(z)) F\(number(rig.feedZ))",
            ])
        }
    }

    public func lift(index: Int) async throws(PositionerError) {
        try await guarded("lift at position \(index + 1)") { () throws(MachineError) in try await machine.move([upLine]) }
    }

    var upLine: String { "G1 Z\(number(rig.safeZ)) F\(number(rig.feedZ))" }

    func number(_ value: Double) -> String { RigConfiguration.number(value) }

    /// A machine error in the run's terms: Ctrl-C is an interruption, anything else stops
    /// the run as "positioner failed" (saved, resumable).
    private func guarded(_ action: String, _ body: () async throws(MachineError) -> Void) async throws(PositionerError) {
        do throws(MachineError) { try await body() } catch .interrupted {
            throw PositionerError(
                "\(machine.dialect.displayName) halted (\(machine.dialect == .grbl ? "feed hold and soft reset" : "quick stop M410"))",
                isInterruption: true)
        } catch {
            throw PositionerError("\(machine.dialect.displayName) on \(devicePath) could not \(action): \(error)")
        }
    }
}
