import Testing

@testable import NFCMotion

@Suite("What a G-code machine says")
struct MachineReplyTests {
    @Test func grblLinesAreRead() {
        #expect(MachineReply("ok\r", dialect: .grbl) == .ok)
        #expect(MachineReply("error:9", dialect: .grbl) == .error(code: 9))
        #expect(MachineReply("ALARM:1", dialect: .grbl) == .alarm(code: 1))
        #expect(MachineReply("Grbl 1.1h ['$' for help]", dialect: .grbl) == .reset(banner: "Grbl 1.1h ['$' for help]"))
        #expect(
            MachineReply("<Idle|MPos:1.000,-2.500,3.000|FS:0,0>", dialect: .grbl)
                == .status(state: "Idle", position: [1, -2.5, 3]))
        #expect(MachineReply("<Hold:0|MPos:0,0,0|FS:0,0>", dialect: .grbl) == .status(state: "Hold", position: [0, 0, 0]))
        #expect(MachineReply("[MSG:'$H'|'$X' to unlock]", dialect: .grbl) == .message("[MSG:'$H'|'$X' to unlock]"))
    }

    @Test func marlinLinesAreRead() {
        #expect(MachineReply("ok T:20.0 /0.0", dialect: .marlin) == .ok)
        #expect(MachineReply("echo:busy: processing", dialect: .marlin) == .busy)
        #expect(MachineReply("start", dialect: .marlin) == .reset(banner: "start"))
        #expect(
            MachineReply("Error:Printer halted. kill() called!", dialect: .marlin) == .failure("Printer halted. kill() called!"))
        #expect(GCodeMachine.marlinPosition("X:10.00 Y:20.50 Z:5.00 E:0.00 Count X:800 Y:1640 Z:2000") == [10, 20.5, 5])
    }

    @Test func alarmsAndErrorsAreWords() {
        #expect(GRBLCodes.alarm(1).hasPrefix("hard limit"))
        #expect(GRBLCodes.alarm(2).hasPrefix("soft limit"))
        #expect(GRBLCodes.alarm(9).hasPrefix("homing failed"))
        #expect(GRBLCodes.error(9).contains("unlock needed"))
        #expect(MachineError.alarm(code: 1).description.contains("nfcbench rig unlock"))
    }
}
