import Synchronization

/// The emulated machine's firmware.
public enum GantryDialect: String, Sendable, CaseIterable, Codable {
    case grbl, marlin
}

/// How the emulated gantry is built: the jig that holds the simulated phone (its back's
/// top-left corner at `origin`, its x along machine +X and its y along machine +Y), the
/// phone's body size, and the machine's travel. Machine Z grows upwards; the phone's back
/// lies at `tapZ`.
public struct GantryConfiguration: Sendable {
    public var dialect: GantryDialect
    public var originX: Double
    public var originY: Double
    public var bodyWidthMm: Double
    public var bodyHeightMm: Double
    public var tapZ: Double
    public var travel: (x: Double, y: Double, z: Double)
    /// Homing is enabled: GRBL powers up locked in alarm until `$H` (or `$X`).
    public var homes: Bool
    /// Moves take their distance over the feed rate, divided by this (1: real time).
    public var speed: Double
    /// The homing cycle drives Z down to 0, as a printer homes to its bed (GRBL `$23` with
    /// Z's bit, Marlin's `z_min` endstop), instead of up to the top of the travel.
    public var zHomesDown = false

    public init(
        dialect: GantryDialect, originX: Double = 40, originY: Double = 30, bodyWidthMm: Double, bodyHeightMm: Double,
        tapZ: Double = 2, travel: (x: Double, y: Double, z: Double) = (200, 250, 60), homes: Bool = true, speed: Double = 1
    ) {
        precondition(speed > 0 && speed.isFinite, "a gantry moves at a positive speed")
        self.dialect = dialect
        self.originX = originX
        self.originY = originY
        self.bodyWidthMm = bodyWidthMm
        self.bodyHeightMm = bodyHeightMm
        self.tapZ = tapZ
        self.travel = travel
        self.homes = homes
        self.speed = speed
    }

    /// The phone's back point (fractions) under machine X and Y.
    func backPoint(x: Double, y: Double) -> (x: Double, y: Double) {
        ((x - originX) / bodyWidthMm, (y - originY) / bodyHeightMm)
    }
}

/// Faults injected into the emulated machine (`nfcbench sim ctl gantry ...`).
public enum GantryFault: Codable, Sendable, Equatable {
    case none
    /// GRBL pushes `ALARM:N` and locks out G-code; Marlin stops with an error until `M999`.
    case alarm(Int)
    /// The same alarm, raised partway through the `moves`-th move across that starts from
    /// now: a limit switch hit mid-travel, at a point a test can name without racing the run.
    case alarmDuringMove(code: Int, moves: Int)
    /// The firmware restarts: GRBL's banner, Marlin's `start`, the planner emptied.
    case reset
    /// GRBL's feed hold, as the machine's hold button (or a door switch) gives it: the head
    /// stops and the state reads `Hold` until a cycle start (`~`) or a reset.
    case hold
    /// The board hangs: it answers nothing and moves nowhere until the fault is cleared.
    case stall
    /// Every move takes this many times longer.
    case slow(Double)
}

/// What the control channel tells the running emulator, read by its loop.
final class GantryControls: Sendable {
    private let pending = Mutex<[GantryFault]>([])
    private let slowness = Mutex<Double>(1)
    private let stalled = Mutex(false)
    private let armed = Mutex<(code: Int, movesLeft: Int)?>(nil)

    func inject(_ fault: GantryFault) {
        switch fault {
        case .none:
            slowness.withLock { $0 = 1 }
            stalled.withLock { $0 = false }
            armed.withLock { $0 = nil }
        case .alarmDuringMove(let code, let moves): armed.withLock { $0 = (code, moves) }
        case .slow(let factor): slowness.withLock { $0 = factor }
        case .stall: stalled.withLock { $0 = true }
        case .alarm, .reset, .hold: pending.withLock { $0.append(fault) }
        }
    }

    /// A move across has started: the armed alarm's code when this is its move (disarmed then).
    func moveAcrossStarted() -> Int? {
        armed.withLock { armed in
            guard let current = armed else { return nil }
            guard current.movesLeft <= 1 else {
                armed = (current.code, current.movesLeft - 1)
                return nil
            }
            armed = nil
            return current.code
        }
    }

    var slowFactor: Double { slowness.withLock { $0 } }
    var isStalled: Bool { stalled.withLock { $0 } }
    func takeEvents() -> [GantryFault] {
        pending.withLock { events in
            defer { events = [] }; return events
        }
    }
}
