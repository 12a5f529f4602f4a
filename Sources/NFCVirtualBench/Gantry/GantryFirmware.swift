/// The firmware state an emulated gantry keeps between lines, for both dialects, and what
/// it has to say (replies go out in order, each one line).
struct GantryFirmware {
    let configuration: GantryConfiguration
    var motion: GantryMotion
    var replies: [String] = []
    /// The line waiting for the planner (full) or for the moves to finish (a barrier,
    /// homing): no other line is read until it is done.
    var blocked: String?
    /// GRBL: the alarm that locks out G-code (`$X` or `$H` clears it).
    var alarm: Int?
    /// GRBL: a critical alarm (limits) ignores every line until a soft reset.
    var awaitingReset = false
    /// Marlin: stopped by an error until `M999`; killed by `M112` until reset.
    var stopped = false
    var killed = false
    var absolute = true
    var inches = false
    var feed: Double = 0
    /// Machine seconds left of a G4 dwell.
    var dwellLeft: Double?
    /// Marlin's host keepalive interval in seconds (`M113`), and when it last spoke.
    var keepalive = 2.0
    var sinceKeepalive = 0.0
    /// Lines the log keeps besides the wire: moves, barriers, homing.
    var notes: [String] = []
    static let rapidFeed = 5000.0
    static let homingFeed = 1500.0

    init(configuration: GantryConfiguration) {
        self.configuration = configuration
        let t = configuration.travel
        motion = GantryMotion(position: [t.x / 2, t.y / 2, t.z])
        // GRBL with homing enabled powers up locked (HOMING_INIT_LOCK).
        if configuration.dialect == .grbl, configuration.homes { alarm = 0 }
    }

    var dialect: GantryDialect { configuration.dialect }

    /// GRBL's state word for `?`.
    var stateWord: String {
        if alarm != nil { return "Alarm" }
        if motion.current?.isHoming == true { return "Home" }
        if motion.held { return motion.isDecelerating ? "Hold:1" : "Hold:0" }
        return motion.isIdle && dwellLeft == nil ? "Idle" : "Run"
    }

    /// `<Idle|MPos:1.000,2.000,3.000|FS:0,0>`.
    var statusReport: String {
        let p = GantryMotion.describe(motion.position)
        let feedNow = motion.current.map { Int($0.feed) } ?? 0
        return "<\(stateWord)|MPos:\(p)|FS:\(feedNow),0>"
    }

    mutating func say(_ line: String) { replies.append(line) }

    /// A move's target from its words, in machine mm (absolute or relative, mm or inches).
    func target(_ words: GCodeWords) -> [Double] {
        var target = motion.plannedEnd
        for (axis, letter) in ["X", "Y", "Z"].enumerated() {
            guard let value = words.value(Character(letter)) else { continue }
            let mm = inches ? value * 25.4 : value
            target[axis] = absolute ? mm : target[axis] + mm
        }
        return target
    }

    func insideTravel(_ point: [Double]) -> Bool {
        let t = configuration.travel
        return zip(point, [t.x, t.y, t.z]).allSatisfy { $0 >= -0.001 && $0 <= $1 + 0.001 }
    }

    /// Where homing leaves the head: X and Y at 0, Z at the top of its travel.
    var homePosition: [Double] { [0, 0, configuration.zHomesDown ? 0 : configuration.travel.z] }

    /// Starts the homing cycle from wherever the head is.
    mutating func startHoming() {
        motion.abort()
        motion.enqueue(GantryMotion.Move(from: motion.position, to: homePosition, feed: Self.homingFeed, isHoming: true))
        notes.append("homing")
    }

    /// Emulates the firmware restarting: the planner is lost; GRBL keeps its alarm (and
    /// raises alarm 3 when the reset cut a move), Marlin forgets it was stopped.
    mutating func restart() {
        let wasMoving = !motion.isIdle && (!motion.held || motion.isDecelerating)
        motion.abort()
        blocked = nil
        dwellLeft = nil
        absolute = true
        inches = false
        awaitingReset = false
        switch dialect {
        case .grbl:
            if wasMoving {
                alarm = 3
                say("ALARM:3")
            }
            say("")
            say("Grbl 1.1h ['$' for help]")
            if alarm != nil { say("[MSG:'$H'|'$X' to unlock]") }
        case .marlin:
            stopped = false
            killed = false
            say("start")
            say("echo:Marlin 2.1.2.1 (emulated by nfcbench)")
        }
        notes.append("reset" + (wasMoving ? " while moving" : ""))
    }

    /// An injected alarm: motion stops where it is.
    mutating func raise(alarm code: Int) {
        motion.abort()
        blocked = nil
        dwellLeft = nil
        switch dialect {
        case .grbl:
            alarm = code
            awaitingReset = true
            say("ALARM:\(code)")
            say("[MSG:Reset to continue]")
        case .marlin:
            stopped = true
            say("Error:Printer stopped due to errors. Fix the error and use M999 to restart.")
        }
        notes.append("alarm \(code)")
    }
}
