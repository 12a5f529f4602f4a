import Foundation
import NFCBenchUseCases
import NFCHost
import NFCRig

/// `nfcbench rig init`: finds the machine, reads its firmware, travel, feeds and homing,
/// and writes the first rig file, which `rig calibrate` then completes with the jig.
enum RigInitCommand {
    static let spec = CommandSpec(
        "init", abstract: "Find the machine, read its firmware and settings, and write a first rig file (no jig yet).",
        discussion: """
            Asks each serial port (the one --device names, else /dev/serial/by-id/*, /dev/ttyUSB* and /dev/ttyACM*;
            a port another program holds is left alone) who answers: Marlin names itself to M115, GRBL refuses
            M115 and answers $I. Nothing moves. From GRBL's $$ (travel $130-$132, maximum rates $110-$112,
            homing $22 and its direction mask $23) or Marlin's M211 (soft endstops) and M119 (endstops) it
            writes device (the stable /dev/serial/by-id name where there is one), dialect, baud, feeds, travel
            and homes. 'homes = yes' only where the homing cycle drives Z up, away from the jig: a GRBL whose $23
            sets Z's bit, or a Marlin with a z_min endstop (a printer homing to its bed), would drive the reader
            into the phone, so the file says 'homes = no' and why. Then 'nfcbench rig calibrate --model M' marks
            the jig. An existing rig file is kept unless --force.
            Exit codes: 0 written, 1 no machine (or several: give --device), 64 usage error.
            """,
        options: [RigCommand.device.spec, baud.spec, output.spec, RigOptions.rig.spec, force.spec, RigCommand.timeout.spec],
        handler: run)
    static let baud = Option<Int>(
        "--baud", value: "rate", help: "The serial rate to ask at (default 115200).",
        expected: "one of 9600, 19200, 38400, 57600, 115200, 230400",
        choices: ["9600", "19200", "38400", "57600", "115200", "230400"],
        convert: { Int($0).flatMap { [9600, 19200, 38400, 57600, 115_200, 230_400].contains($0) ? $0 : nil } })
    static let output = Option<String>(
        "--output", short: "o", value: "file", help: "Where to write the rig file (default --rig, else rig.conf).")
    static let force = Flag("--force", help: "Replace an existing rig file (its jig marks are lost).")

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let path = invocation[output] ?? invocation[RigOptions.rig] ?? RigOptions.defaultPath(context)
        let target = context.url(forPath: path).path
        if FileManager.default.fileExists(atPath: target), !invocation[force] {
            throw CommandFailure(
                "A rig file exists at \(TerminalSafeText.neutralise(target)); replacing it would lose its jig marks.",
                hint: "Write elsewhere with -o FILE, or give --force to replace it.")
        }
        let destination = try OutputPath.check(target, invocation, context)
        let device = invocation[RigCommand.device].map { context.url(forPath: $0).path }
        let out = context.output
        let answers = await RigInitialisation.survey(
            device: device, devRoot: SystemRoots.fromEnvironment(context.environment).dev,
            baud: invocation[baud] ?? 115_200, timeout: min(RigCommand.machineTimeout(invocation), .seconds(3)))
        guard !answers.isEmpty else {
            throw CommandFailure(
                "No serial port to ask: nothing under /dev/serial/by-id, /dev/ttyUSB* or /dev/ttyACM*.",
                hint: "Plug the machine in by USB (and check 'dmesg'), or name its port with --device.")
        }
        out.line("Asked \(answers.count) serial port(s):")
        for answer in answers {
            let name = TerminalSafeText.neutralise(answer.port.path)
            let node = answer.port.node == answer.port.path ? "" : " (\(TerminalSafeText.neutralise(answer.port.node)))"
            switch answer.result {
            case .success(let survey): out.line("  \(name)\(node): \(TerminalSafeText.neutralise(survey.firmware))")
            case .failure(let miss): out.line("  \(name)\(node): \(TerminalSafeText.neutralise(miss.description))")
            }
        }
        let found = answers.compactMap { try? $0.result.get() }
        guard found.count == 1, let survey = found.first else {
            throw CommandFailure(
                found.isEmpty ? "No G-code machine answered." : "\(found.count) machines answered; which one is the rig?",
                hint: found.isEmpty
                    ? "Check the cable, the power and the baud rate (--baud); a reader on a serial port does not answer."
                    : "Name its port with --device.")
        }
        guard let rig = RigInitialisation.rig(from: survey) else {
            throw CommandFailure(
                "\(TerminalSafeText.neutralise(survey.firmware)) did not report its travel.",
                hint: "Write the rig file by hand (docs/rig.md lists its keys).")
        }
        try await OutputPath.write(destination) {
            try $0.write(RigInitialisation.fileText(rig, survey: survey, written: Date()))
        }
        describe(rig, firmware: survey.firmware, device: survey.device, homing: survey.homing.reason, written: target, out)
        return ExitCode.success
    }

    static func describe(
        _ rig: RigConfiguration, firmware: String, device: String, homing: String, written: String, _ out: any TextOutput
    ) {
        let n = RigConfiguration.number
        out.line(
            "Found \(TerminalSafeText.neutralise(firmware)) on \(TerminalSafeText.neutralise(device)): travel "
                + "\(n(rig.travelX)) x \(n(rig.travelY)) x \(n(rig.travelZ)) mm; feeds \(n(rig.feedXY)) across, "
                + "\(n(rig.feedZ)) up and down (mm/min).")
        if rig.homes {
            out.line("Homing: \(TerminalSafeText.neutralise(homing)); the run homes before its first move (homes = yes).")
        } else {
            out.line(
                "Homing: \(TerminalSafeText.neutralise(homing)); the run will not home (homes = no). Home the machine with the jig "
                    + "empty before you mark the jig, and after any alarm that loses the position.")
        }
        out.line("Wrote \(TerminalSafeText.neutralise(written)): the machine's keys, no jig yet.")
        out.line(
            "Next: 'nfcbench rig calibrate --model MODEL --rig \(TerminalSafeText.neutralise(written))' marks the phone's "
                + "corners and the tap height.")
    }
}
