import Foundation
import NFCBenchRecords
import NFCMotion
import NFCRig

/// Why a rig command stopped, in the operator's words: what happened and what to do.
/// The words live beside the machine they describe; the command line only prints them.
public struct RigMachineFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let hint: String

    init(_ message: String, hint: String) {
        self.message = message
        self.hint = hint
    }

    public var description: String { message }

    static let unlockHint = "'nfcbench rig unlock' clears an alarm."

    static let inAlarm = RigMachineFailure("The machine is in alarm.", hint: "Clear the cause, then 'nfcbench rig unlock'.")

    static func silent(_ error: MachineError) -> RigMachineFailure {
        RigMachineFailure("The machine does not answer: \(error).", hint: "Check the cable, the device and the baud rate.")
    }
}

/// The machine a rig command talks to (`rig check`, `rig unlock`, `rig calibrate`),
/// opened and checked in one place, every exchange's `MachineError` turned into an
/// operator's words at once. A run opens its machine through `MachinePositioners`, under
/// the same readiness rule (`MachineReadiness`).
public final class RigMachine: Sendable {
    let machine: GCodeMachine
    public let rig: RigConfiguration
    /// The state word the machine answered with when opened (GRBL's; Marlin says "Idle").
    public let stateWhenOpened: String

    private init(machine: GCodeMachine, rig: RigConfiguration, state: String) {
        self.machine = machine
        self.rig = rig
        self.stateWhenOpened = state
    }

    /// Opens the rig's device and makes sure something G-code answers, without moving it.
    public static func open(_ rig: RigConfiguration, timeout: Duration) async throws(RigMachineFailure) -> RigMachine {
        do throws(MachineError) {
            let (machine, state) = try await GCodeMachine.open(rig, timeout: timeout)
            return RigMachine(machine: machine, rig: rig, state: state)
        } catch {
            throw .silent(error)
        }
    }

    /// What a run would find: queued moves waited out, a critical alarm named.
    public func readiness(within bound: Duration) async throws(RigMachineFailure) -> MachineReadiness {
        do throws(MachineError) {
            return try await machine.readiness(from: stateWhenOpened, homes: rig.homes, within: bound)
        } catch {
            throw RigMachineFailure("The machine is not ready: \(error).", hint: RigMachineFailure.unlockHint)
        }
    }

    /// Why a run would refuse the machine in this state, or `nil` when it takes motion.
    public static func refusal(_ readiness: MachineReadiness) -> RigMachineFailure? {
        guard !readiness.takesMotion else { return nil }
        return readiness.state == "Alarm"
            ? .inAlarm
            : RigMachineFailure(
                "The machine is in state '\(readiness.state)', not idle: a run would refuse it.",
                hint: "Close the door or resume the hold on the machine; 'nfcbench rig unlock' clears an alarm.")
    }

    /// The plan's moves run for real, as a run makes them, with no reader polled.
    public struct DryRun: Sendable {
        /// What the positioner says before it moves (crossing with the field off...).
        public let announcement: String?
        public let setup: Duration
        public let moves: Duration
    }

    public func dryRun(_ probes: [Probe], geometry: RigGeometry) async throws(RigMachineFailure) -> DryRun {
        let positioner = GCodePositioner(machine: machine, geometry: geometry)
        let started = ContinuousClock.now
        do {
            try await positioner.prepare()
            let prepared = ContinuousClock.now
            for (index, probe) in probes.enumerated() {
                try await positioner.place(probe, index: index)
                try await positioner.lift(index: index)
            }
            return DryRun(
                announcement: positioner.announcement, setup: prepared - started, moves: ContinuousClock.now - prepared)
        } catch {
            throw RigMachineFailure("The dry run stopped: \(error).", hint: RigMachineFailure.unlockHint)
        }
    }

    /// The last alarm the machine said while it was opened, if any.
    public var lastAlarm: String? {
        let said = machine.link.recentLines.filter { $0.hasPrefix("< ") }.map { String($0.dropFirst(2)) }
        return said.last { MachineReply($0, dialect: rig.dialect) != .ok && $0.uppercased().hasPrefix("ALARM") }
    }

    /// Clears the alarm (soft reset and `$X` on GRBL, `M999` on Marlin): the machine's
    /// messages and its state after.
    public func unlock() async throws(RigMachineFailure) -> (messages: [String], state: String) {
        do throws(MachineError) {
            return try await machine.unlock()
        } catch {
            throw RigMachineFailure(
                "The machine did not unlock: \(error).",
                hint: "Clear the alarm's cause (a limit switch still pressed?) and try again.")
        }
    }

    /// Before jogging: homes when the rig homes (else refuses an alarm), then sets the
    /// machine up (millimetres, absolute). `homing` is told before a homing cycle.
    public func prepareForJogging(homing: @Sendable () -> Void) async throws(RigMachineFailure) {
        if !rig.homes, stateWhenOpened == "Alarm" {
            throw .inAlarm
        }
        do throws(MachineError) {
            if rig.homes {
                homing()
                try await machine.home()
            }
            try await machine.configure()
        } catch {
            throw RigMachineFailure("The machine could not be set up: \(error).", hint: RigMachineFailure.unlockHint)
        }
    }

    /// One relative move along `axis` at the rig's feed; where the head is after it.
    public func jog(_ axis: JogAxis, by delta: Double) async throws(RigMachineFailure) -> HeadPosition {
        let feed = axis == .z ? rig.feedZ : rig.feedXY
        do throws(MachineError) {
            try await machine.move([
                "G91", "G1 \(axis.rawValue)\(RigConfiguration.number(delta)) F\(RigConfiguration.number(feed))", "G90",
            ])
        } catch {
            throw RigMachineFailure("The machine stopped: \(error).", hint: RigMachineFailure.unlockHint)
        }
        return try await headPosition()
    }

    /// Where the head is, as the machine reports it.
    public func headPosition() async throws(RigMachineFailure) -> HeadPosition {
        let reported: [Double]?
        do throws(MachineError) { reported = try await machine.state().position } catch {
            throw RigMachineFailure("The machine did not report its position: \(error).", hint: "Check the cable.")
        }
        guard let reported, reported.count >= 3 else {
            throw RigMachineFailure(
                "The machine did not report its position.", hint: "Check its firmware (GRBL 1.1, Marlin 2).")
        }
        return HeadPosition(x: reported[0], y: reported[1], z: reported[2])
    }
}

/// A machine axis a jog moves along.
public enum JogAxis: String, Sendable {
    case x = "X", y = "Y", z = "Z"
}

/// The head's position in machine coordinates, millimetres.
public struct HeadPosition: Sendable, Equatable {
    public let x: Double
    public let y: Double
    public let z: Double
}
