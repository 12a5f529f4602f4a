/// Marlin's side of the conversation: `ok` per line once queued, `M400` and `G28` answer
/// when the moves are done and say `busy: processing` every `M113` interval meanwhile,
/// `M410` and `M112` act at once (the emergency parser), soft endstops clamp moves to the
/// travel, as Marlin's do.
extension GantryFirmware {
    /// Lines Marlin's emergency parser acts on as they arrive, ahead of the queue.
    mutating func marlinEmergency(_ line: String) -> Bool {
        let command = Self.marlinCommand(line).uppercased()
        if command.hasPrefix("M410") {
            motion.abort()
            notes.append("quick stop")
            return true
        }
        if command.hasPrefix("M112") {
            motion.abort()
            blocked = nil
            killed = true
            say("Error:Printer halted. kill() called!")
            notes.append("killed")
            return true
        }
        return false
    }

    /// `N12 G1 X3*45` -> `G1 X3`: the line number and checksum are dropped.
    static func marlinCommand(_ line: String) -> String {
        var text = line.trimmingCharacters(in: [" ", "\t", "\r"])
        if let star = text.firstIndex(of: "*") { text = String(text[..<star]) }
        if text.first == "N" || text.first == "n", let space = text.firstIndex(of: " ") {
            text = String(text[text.index(after: space)...])
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    mutating func marlinLine(_ line: String) -> Bool {
        if killed { return true }
        let text = Self.marlinCommand(line)
        if text.isEmpty { return true }
        let upper = text.uppercased()
        if upper.hasPrefix("M410") || upper.hasPrefix("M112") {
            say("ok")  // acted on already, as it arrived
            return true
        }
        if stopped && !["M999", "M114", "M115"].contains(where: { upper.hasPrefix($0) }) {
            say("Error:Printer stopped due to errors. Fix the error and use M999 to restart.")
            say("ok")
            return true
        }
        guard let words = GCodeWords(text) else {
            say("echo:Unknown command: \"\(text)\"")
            say("ok")
            return true
        }
        if words.has("G", 0) || words.has("G", 1) {
            if let f = words.value("F") { feed = inches ? f * 25.4 : f }
            guard !motion.isFull else { return false }
            let t = configuration.travel
            let clamped = zip(target(words), [t.x, t.y, t.z]).map { min(max($0, 0), $1) }
            motion.enqueue(
                GantryMotion.Move(
                    from: motion.plannedEnd, to: clamped, feed: words.has("G", 0) && feed <= 0 ? Self.rapidFeed : max(feed, 1)))
        } else if words.has("G", 28) {
            if motion.current?.isHoming != true && blocked == nil { startHoming() }
            guard motion.isIdle else { return busy() }
            notes.append("homed")
        } else if words.has("M", 400) {
            guard motion.isIdle else { return busy() }
            notes.append("barrier M400 at " + GantryMotion.describe(motion.position))
        } else if words.has("M", 114) {
            let p = motion.position.map { String(format: "%.2f", $0) }
            say("X:\(p[0]) Y:\(p[1]) Z:\(p[2]) E:0.00 Count X:0 Y:0 Z:0")
        } else if words.has("M", 113) {
            keepalive = min(max(words.value("S") ?? 2, 1), 60)
        } else if words.has("M", 115) {
            say(
                "FIRMWARE_NAME:Marlin 2.1.2.1 (nfcbench virtual gantry) SOURCE_CODE_URL:github.com/MarlinFirmware/Marlin MACHINE_TYPE:Gantry"
            )
        } else if words.has("M", 211) {
            // Marlin's report (gcode/control/M211.cpp): the soft endstops, min then max.
            let t = configuration.travel, f = { (v: Double) in String(format: "%.2f", v) }
            say("echo:Soft endstops: On  Min:  X0.00 Y0.00 Z0.00   Max:  X\(f(t.x)) Y\(f(t.y)) Z\(f(t.z))")
        } else if words.has("M", 119) {
            // The endstops the board has (M119's report): X and Y home to min, Z to the end it is built for.
            say("Reporting endstop status")
            say("x_min: open")
            say("y_min: open")
            say(configuration.zHomesDown ? "z_min: open" : "z_max: open")
        } else if words.has("M", 999) {
            stopped = false
            notes.append("restarted (M999)")
        } else if words.has("G", 90) || words.has("G", 91) || words.has("G", 21) || words.has("G", 20) {
            if words.has("G", 90) { absolute = true }
            if words.has("G", 91) { absolute = false }
            if words.has("G", 21) { inches = false }
            if words.has("G", 20) { inches = true }
        } else {
            say("echo:Unknown command: \"\(text)\"")
        }
        say("ok")
        return true
    }

    /// Marlin's host keepalive while a line waits for the moves.
    private mutating func busy() -> Bool {
        if sinceKeepalive >= keepalive {
            sinceKeepalive = 0
            say("echo:busy: processing")
        }
        return false
    }
}
