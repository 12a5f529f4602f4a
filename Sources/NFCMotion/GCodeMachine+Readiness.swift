import NFCRig

/// What a run finds on the port before its first move.
///
/// A resume often meets a machine another run left: still finishing the moves a killed
/// run queued (GRBL `Run`), or locked in alarm. Both are read from the machine itself
/// before anything is sent that would wait on it, so a lock is named at once rather
/// than after a `$H` waits out its timeout, and queued moves are waited for, not refused.
extension GCodeMachine {
    /// GRBL states in which queued motion is still being carried out.
    static let movingStates: Set<String> = ["Run", "Jog", "Home"]

    /// Waits, at most `bound`, while GRBL still moves; then tells a critical alarm (no line
    /// is read until a reset) from a lock `$H` or `$X` clears, by asking for the parser
    /// state (`$G`), which GRBL answers in an ordinary alarm. Returns the state it settled
    /// in and how long it waited. `onWait` is told once, when a wait begins.
    public func settle(
        from found: String, within bound: Duration, onWait: @Sendable (String) -> Void = { _ in }
    ) async throws(MachineError) -> (state: String, waited: Duration) {
        guard dialect == .grbl else { return (found, .zero) }
        let start = ContinuousClock.now
        var state = found
        let moving = Self.movingStates.contains(state)
        if moving {
            onWait(
                "The machine is still moving (state \(state)), likely finishing an earlier run's moves: waiting up to "
                    + "\(RigConfiguration.number(bound.seconds)) s for it to stop.")
        }
        while Self.movingStates.contains(state) {
            guard ContinuousClock.now - start < bound else {
                throw .stillMoving(state: state, seconds: (ContinuousClock.now - start).seconds)
            }
            try? await Task.sleep(for: .milliseconds(250))
            if Task.isCancelled { throw .interrupted }
            state = try await self.state().state
        }
        if state == "Alarm" {
            let answer = min(timeout, .milliseconds(1500))
            do throws(MachineError) {
                try await perform { link, stop throws(MachineError) in _ = try link.send("$G", timeout: answer, stop: stop) }
            } catch .noAnswer {
                throw .awaitingReset
            }
        }
        return (state, moving ? ContinuousClock.now - start : .zero)
    }
}

/// Whether a machine just opened can take a run's moves: the one rule `rig check` and a
/// run both apply, so the check never passes a machine the run then refuses.
public struct MachineReadiness: Sendable, Equatable {
    /// The state it settled in (GRBL's word; Marlin answers "Idle").
    public let state: String
    /// How long queued moves (a killed run's) were waited out.
    public let waited: Duration
    /// In alarm, but the rig homes before its first move, which clears the lock.
    public let homingClears: Bool

    /// `Idle` or `Check` (GRBL's dry mode) take motion; an alarm only when homing clears it.
    public var takesMotion: Bool { ["Idle", "Check"].contains(state) || homingClears }
}

extension GCodeMachine {
    /// Settles the machine (`settle`) and reads it against the rig: a rig that homes may
    /// find GRBL locked in alarm (as it powers up with homing enabled, or after a reset
    /// cut a move), which the homing cycle after the ready gate clears.
    public func readiness(
        from found: String, homes: Bool, within bound: Duration, onWait: @Sendable (String) -> Void = { _ in }
    ) async throws(MachineError) -> MachineReadiness {
        let (state, waited) = try await settle(from: found, within: bound, onWait: onWait)
        return MachineReadiness(state: state, waited: waited, homingClears: homes && state == "Alarm")
    }
}
