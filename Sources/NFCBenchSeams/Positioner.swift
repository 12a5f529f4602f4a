import NFCBenchRecords

/// Puts the phone at a probe position and lifts it again: the operator, a simulation,
/// or a lab's own gantry.
public protocol Positioner: Sendable {
    /// `true` when a person moves the phone, so the runner must prompt and wait.
    var needsOperator: Bool { get }
    func place(_ probe: Probe, index: Int) async throws(PositionerError)
    func lift(index: Int) async throws(PositionerError)
    /// A machine that moves on its own power says here what it will do. The run prints
    /// it before anything moves and, with an operator at the keyboard, holds the machine
    /// behind the ready gate; `nil` for positioners that move nothing dangerous.
    var announcement: String? { get }
    /// Called once per run, after the ready gate and before the first placement: the
    /// machine's setup moves (homing, going up to its safe height).
    func prepare() async throws(PositionerError)
    /// Whether it can hold the reader above the back at a probe's `heightMm`
    /// (`--heights`); a positioner that cannot is refused such a session.
    var placesAtHeights: Bool { get }
    /// A machine that crosses between positions inside the field's reach, just above the
    /// back: the run switches the reader's field off before every lift and on again after
    /// every placement, and polls nothing in between, so each tap is still a fresh field
    /// entry. Only built for a reader that has a field switch.
    var crossesWithFieldOff: Bool { get }
    /// Called when a tap window has ended, before its tap is recorded: throws unless the
    /// machine stayed where it was placed and well through the window (no alarm, reset or
    /// error stop). A window the machine did not hold still through is no evidence, so the
    /// run records nothing there and stops, resumable; the resume taps that position again.
    func confirmStill(index: Int) async throws(PositionerError)
}

extension Positioner {
    /// A person, a simulation or a lab's command reports nothing between moves.
    public func confirmStill(index: Int) async throws(PositionerError) {}
    public var announcement: String? { nil }
    public var crossesWithFieldOff: Bool { false }
    public var placesAtHeights: Bool { false }
    public func prepare() async throws(PositionerError) {}
}

public struct PositionerError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// The move was stopped because the run was interrupted (Ctrl-C), not because the
    /// positioner failed: the runner saves the session as interrupted.
    public let isInterruption: Bool
    public init(_ message: String, isInterruption: Bool = false) {
        self.message = message
        self.isInterruption = isInterruption
    }
    public var description: String { message }
}

/// The operator moves the phone; the runner prompts.
public struct ManualPositioner: Positioner {
    public init() {}
    public var needsOperator: Bool { true }
    public func place(_ probe: Probe, index: Int) async throws(PositionerError) {}
    public func lift(index: Int) async throws(PositionerError) {}
}
