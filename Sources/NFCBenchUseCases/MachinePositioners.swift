import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCMotion
import NFCRig

/// A rig file as read, with where it came from (errors and the audit trail name it).
public struct LoadedRig: Sendable {
    public let configuration: RigConfiguration
    public let path: String

    public init(configuration: RigConfiguration, path: String) {
        self.configuration = configuration
        self.path = path
    }
}

/// Opens the G-code machine a run will drive and checks it can serve the session, all
/// before anything moves: the rig is complete, the phone has a published size, every
/// planned position (and the whole back, for an adaptive plan) is inside the travel, and
/// something G-code answers on the port in a state that takes motion.
enum MachinePositioners {
    static func open(spec text: String, _ setup: PositionerBackend.Setup) async throws(RunRefusal) -> any Positioner {
        guard let loaded = setup.rig else { throw .rigMissing }
        let spec: MachineSpec
        switch MachineSpec.parse(text) {
        case .success(let parsed): spec = parsed
        case .failure(let error): throw .rigUnusable(path: "gcode:\(text)", reason: error.description)
        }
        let rig = spec.applied(to: loaded.configuration)
        guard let device = rig.device else {
            throw .rigUnusable(
                path: loaded.path, reason: "no device: add 'device = /dev/ttyUSB0' or give --positioner gcode:DEVICE")
        }
        let session = setup.session
        guard let height = session.bodyHeightMm, height > 0 else { throw .bodySizeUnknown(model: session.lookupKey) }
        let geometry = RigGeometry(rig: rig, bodyWidthMm: height * session.aspectRatio, bodyHeightMm: height)
        if let why = geometry.unreachable(session.plannedProbes) { throw .outOfTravel(reason: why) }
        let machine: GCodeMachine
        do throws(MachineError) {
            let (opened, found) = try await GCodeMachine.open(rig, timeout: setup.timeout)
            machine = opened
            // A killed run's queued moves are waited out; a critical alarm is named now.
            let readiness = try await opened.readiness(
                from: found, homes: rig.homes, within: setup.timeout, onWait: setup.notice)
            if readiness.waited > .zero { setup.notice("It stopped after \(FixedPoint.format(readiness.waited.seconds, 1)) s.") }
            guard readiness.takesMotion else { throw MachineError.notReady(state: readiness.state) }
        } catch {
            throw .machineUnavailable(device: device, reason: error.description)
        }
        // Crossing just above the back needs the field off while the machine moves.
        let fieldOff = rig.clearanceZ != nil && setup.readerSwitchesField
        return GCodePositioner(machine: machine, geometry: geometry, crossesWithFieldOff: fieldOff)
    }
}
