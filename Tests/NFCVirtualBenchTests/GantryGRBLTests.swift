import Testing

@testable import NFCVirtualBench

/// The emulated GRBL against GRBL 1.1's documented real-time commands (gnea/grbl
/// `doc/markdown/realtime_cmds.md`).
@Suite("Emulated GRBL's real-time commands")
struct GantryGRBLTests {
    static func firmware() -> GantryFirmware {
        GantryFirmware(configuration: GantryConfiguration(dialect: .grbl, bodyWidthMm: 70, bodyHeightMm: 147, homes: false))
    }

    /// "Feed Hold ... executes when Grbl is in an IDLE, RUN, or JOG state": held while idle,
    /// the move queued next does not start until cycle start, and a reset then finds the
    /// machine at rest (no alarm 3). The emulator once ignored a hold in IDLE, so a move sent
    /// just after Ctrl-C's hold ran and the reset cut it.
    @Test func aFeedHoldWhileIdleHoldsTheNextMoveUntilCycleStart() {
        var grbl = Self.firmware()
        let start = grbl.motion.position
        grbl.grblRealtime(UInt8(ascii: "!"))
        #expect(grbl.stateWord == "Hold:0")
        let taken = grbl.grblLine("G1 X10 F600")
        #expect(taken)
        _ = grbl.motion.advance(by: 5)
        #expect(grbl.motion.position == start, "a held machine moved")
        grbl.grblRealtime(0x18)
        #expect(!grbl.replies.contains("ALARM:3"), "\(grbl.replies)")
        #expect(grbl.motion.position == start)
    }

    @Test func cycleStartResumesAHeldMove() {
        var grbl = Self.firmware()
        grbl.grblRealtime(UInt8(ascii: "!"))
        let taken = grbl.grblLine("G1 X10 F600")
        #expect(taken)
        grbl.grblRealtime(UInt8(ascii: "~"))
        _ = grbl.motion.advance(by: 60)
        #expect(grbl.motion.position[0] == 10)
    }

    @Test func aResetWhileMovingRaisesAlarm3AsGRBLDoes() {
        var grbl = Self.firmware()
        let taken = grbl.grblLine("G1 X10 F600")
        #expect(taken)
        _ = grbl.motion.advance(by: 0.1)
        grbl.grblRealtime(0x18)
        #expect(grbl.replies.contains("ALARM:3"), "\(grbl.replies)")
    }

    /// A hold under way decelerates before it stands (`Hold:1`, then `Hold:0`), as a real
    /// machine does: a reset before it stands cuts a motion (alarm 3), one after keeps the
    /// position.
    @Test func aHoldMidMoveDeceleratesBeforeItStands() {
        var grbl = Self.firmware()
        let taken = grbl.grblLine("G1 X10 F3000")
        #expect(taken)
        _ = grbl.motion.advance(by: 0.1)
        grbl.grblRealtime(UInt8(ascii: "!"))
        #expect(grbl.stateWord == "Hold:1")
        var early = grbl
        early.grblRealtime(0x18)
        #expect(early.replies.contains("ALARM:3"), "a reset while decelerating cuts a motion")
        _ = grbl.motion.advance(by: 1)
        #expect(grbl.stateWord == "Hold:0")
        grbl.grblRealtime(0x18)
        #expect(!grbl.replies.contains("ALARM:3"), "\(grbl.replies)")
    }
}
