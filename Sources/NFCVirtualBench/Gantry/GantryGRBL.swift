/// GRBL 1.1's side of the conversation (gnea/grbl `doc/markdown/interface.md`,
/// `commands.md`): real-time bytes act at once; a line gets `ok` or `error:N` once it is
/// parsed and queued, except `G4` (and `$H`), which answer when the planner is empty.
extension GantryFirmware {
    /// `?`, `!`, `~` and Ctrl-X, picked out of the byte stream wherever they arrive.
    mutating func grblRealtime(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "?"): say(statusReport)
        case UInt8(ascii: "!"):
            // Executes in IDLE and RUN, ignored in ALARM and homing (gnea/grbl
            // realtime_cmds.md): a hold while idle keeps the moves queued after it from
            // starting until `~`, so a reset right after it finds the machine at rest.
            if alarm == nil, motion.current?.isHoming != true { motion.hold() }
            notes.append("feed hold")
        case UInt8(ascii: "~"):
            motion.held = false
            motion.decelerationLeft = 0
            notes.append("cycle start")
        case 0x18: restart()
        default: break
        }
    }

    /// Handles one line; `false` when it must wait (planner full, barrier, homing).
    mutating func grblLine(_ line: String) -> Bool {
        if awaitingReset { return true }  // critical alarm: nothing is read until a reset
        let text = line.trimmingCharacters(in: [" ", "\t", "\r"])
        if text.isEmpty {
            say("ok")
            return true
        }
        if text.hasPrefix("$") { return grblSystem(String(text.dropFirst()).uppercased()) }
        if alarm != nil {
            say("error:9")
            return true
        }
        guard let words = GCodeWords(text) else {
            say("error:2")
            return true
        }
        for (letter, _) in words.words where !"GMXYZFPNS".contains(letter) {
            say("error:20")
            return true
        }
        // GRBL 1.1 knows M0-M2, M30 (program flow), M3-M5 (spindle), M7-M9 (coolant) and M56;
        // any other M word (a printer's M115) is error:20, unsupported command.
        for (letter, value) in words.words where letter == "M" && ![0, 1, 2, 3, 4, 5, 7, 8, 9, 30, 56].contains(value) {
            say("error:20")
            return true
        }
        if words.has("G", 4) {
            guard motion.isIdle else { return false }
            if dwellLeft == nil { dwellLeft = words.value("P") ?? 0 }
            guard dwellLeft! <= 0 else { return false }
            dwellLeft = nil
            notes.append("barrier G4 at " + GantryMotion.describe(motion.position))
            say("ok")
            return true
        }
        if words.has("G", 20) { inches = true }
        if words.has("G", 21) { inches = false }
        if words.has("G", 90) { absolute = true }
        if words.has("G", 91) { absolute = false }
        if let f = words.value("F") { feed = inches ? f * 25.4 : f }
        let axes = ["X", "Y", "Z"].contains { words.value(Character($0)) != nil }
        if axes {
            let rapid = words.has("G", 0)
            if !rapid, feed <= 0 {
                say("error:22")
                return true
            }
            guard !motion.isFull else { return false }
            let target = target(words)
            guard insideTravel(target) else {
                raise(alarm: 2)  // soft limit: the target exceeds the travel
                return true
            }
            motion.enqueue(GantryMotion.Move(from: motion.plannedEnd, to: target, feed: rapid ? Self.rapidFeed : feed))
        }
        say("ok")
        return true
    }

    /// `$H`, `$X`, `$$`, `$I`, `$G`.
    mutating func grblSystem(_ command: String) -> Bool {
        switch command {
        case "H":
            guard configuration.homes else {
                say("error:5")
                return true
            }
            if motion.current?.isHoming != true && blocked == nil {
                alarm = nil
                startHoming()
            }
            guard motion.isIdle else { return false }
            notes.append("homed")
            say("ok")
        case "X":
            if alarm != nil { say("[MSG:Caution: Unlocked]") }
            alarm = nil
            say("ok")
        case "$":
            let t = configuration.travel
            for setting in [
                "$20=1", "$21=0", "$22=\(configuration.homes ? 1 : 0)", "$23=\(configuration.zHomesDown ? 4 : 0)",
                "$110=5000.000", "$111=5000.000",
                "$112=1000.000", "$130=\(t.x)", "$131=\(t.y)", "$132=\(t.z)",
            ] {
                say(setting)
            }
            say("ok")
        case "I":
            say("[VER:1.1h.20190825:nfcbench virtual gantry]")
            say("[OPT:V,15,128]")
            say("ok")
        case "G":
            say("[GC:G0 G54 G17 \(inches ? "G20" : "G21") \(absolute ? "G90" : "G91") G94 M5 M9 T0 F\(Int(feed)) S0]")
            say("ok")
        default:
            say("error:3")
        }
        return true
    }
}
