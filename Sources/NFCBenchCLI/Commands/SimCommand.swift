import Foundation
import NFCBench
import NFCBenchUseCases
import NFCReaders
import NFCVirtualBench

/// `nfcbench sim ...`: the virtual bench, for demos, lab self-tests and CI.
enum SimCommand {
    static let spec = CommandSpec(
        "sim", abstract: "Run or steer the virtual bench (emulated PN532 and vpcd card).",
        subcommands: [serveSpec, ctlSpec])

    static let serveSpec = CommandSpec(
        "serve", abstract: "Start a virtual bench and keep it running until interrupted.",
        discussion: """
            Creates <dir>/pn532 (a pty serving libnfc's pn532_uart driver: --reader libnfc:pn532_uart:<dir>/pn532),
            <dir>/control.sock (the control channel, see 'nfcbench sim ctl') and, with --vpcd-port, a virtual
            card that connects to pcscd's vpcd driver on 127.0.0.1 while the phone is on the reader.
            With --gantry, also <dir>/gantry: an emulated GRBL 1.1 or Marlin machine carrying the reader over
            the phone, which lies in a jig at machine X 40, Y 30 (its x along +X, its y along +Y), and
            <dir>/rig.conf, the rig file that describes it (--positioner gcode --rig <dir>/rig.conf). Every line
            it reads and every move it makes go to <dir>/gantry.log. The phone's reach shrinks with the
            reader's height (docs/rig.md states the model).
            The phone couples as two loops do (docs/physics.md): the mutual inductance of the reader's antenna
            (--reader-antenna; by default the emulated PN532 module's, 35x30 mm, 1.5 mm from the coil, the figures
            a session on <dir>/pn532 records) and its coil (--coil, in mm on a --body, or --antenna in fractions),
            --gap-mm apart, against the threshold --read-height sets. --coupling-model linear runs the project's
            first model instead, for comparison only.
            When ready it writes <dir>/ready (JSON) and prints the same line.
            """,
        options: [
            serveDirectory.spec, vpcdPort.spec, noPN532.spec, antenna.spec, aspectRatio.spec, technology.spec,
            missRate.spec, saturation.spec, seed.spec, couplingModel.spec, readerAntenna.spec, gapMm.spec, coil.spec,
            rungFieldExponent.spec,
            GantryOptions.gantry.spec, GantryOptions.speed.spec, GantryOptions.zHome.spec,
            GantryOptions.body.spec,
            GantryOptions.readHeight.spec,
        ],
        handler: serve)

    static let serveDirectory = Option<String>(
        "--dir", value: "dir", help: "Folder for the pty link, control socket and ready file.", required: true)
    static let vpcdPort = Option<UInt16>(
        "--vpcd-port", value: "port", help: "Also serve a virtual card to vpcd on this port.",
        expected: "a TCP port 1...65535", convert: { UInt16($0).flatMap { $0 > 0 ? $0 : nil } })
    static let noPN532 = Flag("--no-pn532", help: "Do not create the emulated PN532.")
    static let antenna = SimOptions.antenna(help: "The phone's true antenna zone (default 0.1,0.3,0.8,0.4).")
    static let aspectRatio = Option<Double>(
        "--aspect-ratio", value: "ratio",
        help: "With --coupling-model linear and no --body: body width / height (default 0.48).",
        expected: "a ratio in 0.1...10", convert: OptionValue.number(in: 0.1...10))
    static let technology = Option<TargetTechnology>(
        "--technology", value: "A|B", help: "ISO 14443 type the phone answers with (default A).",
        expected: "A or B", choices: ["A", "B"],
        convert: { ["A": TargetTechnology.iso14443A, "B": .iso14443B][$0] })
    static let missRate = Option<Double>(
        "--miss-rate", value: "p", help: "Chance of a missed tap over the coil (default 0.03).",
        expected: "a probability in 0...1", convert: OptionValue.number(in: 0...1))
    static let saturation = Option<Double>(
        "--saturation", value: "share",
        help: "The phone's front end saturates: it answers no field stronger than it needs by more than this share "
            + "of its coupling (0-1), so the full field misses it deep over the coil (default: never; docs/coupling.md).",
        expected: "a share in 0...1", convert: OptionValue.number(in: 0...1))
    static let seed = Option<UInt64>(
        "--seed", value: "n", help: "Seed for reproducible taps (default 1).",
        expected: "a whole number >= 0", convert: { UInt64($0) })
    static let readerAntenna = Option<(width: Double, height: Double)>(
        "--reader-antenna", value: "WxH",
        help: "The reader's antenna in mm, for the two-loop coupling (default 35x30, the emulated PN532 module's).",
        expected: RunOptions.readerAntenna.spec.expected ?? "width x height in mm", convert: RunOptions.readerAntenna.convert)
    static let gapMm = Option<Double>(
        "--gap-mm", value: "mm",
        help: "The gap between the reader's antenna and the coil (default 1.5, the PN532 module's; 3 with --reader-antenna).",
        expected: RunOptions.gapMm.spec.expected ?? "millimetres", convert: RunOptions.gapMm.convert)
    static let coil = Option<(x: Double, y: Double, width: Double, height: Double)>(
        "--coil", value: "x,y,w,h",
        help: "The phone's coil in mm from the back's top-left corner, seen from the back, on the --body (default Galaxy S24).",
        expected: "x,y,w,h in mm, inside the body, e.g. 15,20,40,30", convert: SimOptions.millimetreRect)
    static let rungFieldExponent = Option<Double>(
        "--rung-law", value: "exponent",
        help: "A ladder rung of nominal threshold t gives the field (1 - t)^exponent (default 1).",
        expected: "an exponent in 0.25...4", convert: OptionValue.number(in: 0.25...4))
    static let couplingModel = Option<ServedPhoneRequest.Coupling>(
        "--coupling-model", value: "loops|linear",
        help: "How the phone couples: two loops' mutual inductance (default), or the first linear model, for comparison.",
        expected: "loops or linear", choices: ServedPhoneRequest.Coupling.allCases.map(\.rawValue),
        convert: OptionValue.choice(ServedPhoneRequest.Coupling.self))
    static let controlDirectory = Option<String>(
        "--dir", value: "dir", help: "The bench's folder (as given to 'sim serve').", required: true)

    static let ctlSpec = CommandSpec(
        "ctl", abstract: "Send one command to a running virtual bench and print its JSON reply.",
        discussion: """
            Commands: place X Y | place Xmm Ymm | lift | fault none|slow|garbage|mute|unplug | antenna X Y W H | technology A|B |
            reader complete|abort N|leave N | card mifare-classic|dual-interface X Y W H [UID] | card none |
            phone android|iphone | gantry alarm N [during-move M]|reset|hold|stall|slow F|none | power-cycle | status
            X and Y are fractions of the phone's back from its top-left corner, seen from the back (0 to 1), or
            millimetres from its left and top edges as 'run' prompts them ('place 35mm 40mm', on the --body size);
            W and H a width and height in the same fractions. 'card' puts a card in the phone's case over
            that part of the back: it answers wherever the reader meets it, as a stray card would. 'phone'
            says which phone is emulated: an Android phone (the default) answers Android's HCE SELECT, an
            iPhone does not; run an iPhone model's session with 'phone iphone'. 'gantry' injects a fault into the
            emulated machine: an alarm (GRBL ALARM:N, Marlin's error stop) now or partway through the M-th move
            across from now, a firmware reset, a board that stops answering, moves F times slower; 'gantry none'
            clears the stall, the slowness and an alarm not yet raised.
            'power-cycle' puts the reader's firmware back to its power-on defaults, as unplugging it would.
            """,
        arguments: [ArgumentSpec("command", help: "The command words.", repeating: true)],
        options: [controlDirectory.spec],
        handler: control)

    static func serve(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let directory = context.url(forPath: invocation.required(serveDirectory)).path
        let (phone, gantry) = try servedPhone(invocation)
        let seed = invocation[Self.seed] ?? 1
        let port = invocation[vpcdPort]
        var configuration = VirtualBench.Configuration(
            directory: directory, phone: phone, seed: seed, pn532: !invocation[noPN532], vpcdPort: port, gantry: gantry)
        configuration.bodyHeightMm = (invocation[GantryOptions.body] ?? ServedPhoneRequest.defaultBody).height
        let bench = VirtualBench(configuration)
        do { try bench.start() } catch {
            let taken = error is BenchAlreadyServed
            throw CommandFailure(
                "Cannot start the virtual bench in '\(directory)': \(error)",
                hint: taken
                    ? "Stop that bench (Ctrl-C where it runs), or give this one another --dir; 'nfcbench readers' lists running benches."
                    : "Check that the folder is writable and its path is short (Unix sockets allow 107 bytes).")
        }
        let registered = announce(bench, directory: directory, port: port, context)
        await SignalWaiter.waitForTermination()
        bench.stop()
        registered.map(BenchRegistry.unregister)
        try? FileManager.default.removeItem(atPath: directory + "/ready")
        return ExitCode.success
    }

    /// The phone `serve`'s options describe, and the machine carrying the reader if any;
    /// options that contradict each other are usage errors.
    static func servedPhone(_ invocation: ParsedInvocation) throws -> (SimulatedPhone, GantryConfiguration?) {
        var request = ServedPhoneRequest()
        request.antenna = invocation[Self.antenna]
        request.coilMm = invocation[coil]
        request.body = invocation[GantryOptions.body]
        request.aspectRatio = invocation[aspectRatio]
        request.technology = invocation[technology]
        request.missRate = invocation[missRate]
        request.saturation = invocation[saturation]
        request.readHeightMm = invocation[GantryOptions.readHeight]
        request.coupling = invocation[couplingModel]
        request.readerAntenna = invocation[readerAntenna]
        request.gapMm = invocation[gapMm]
        request.rungFieldExponent = invocation[rungFieldExponent]
        request.gantry = try GantryOptions.configuration(invocation)
        do { return (try request.phone(), request.gantry) } catch { throw UsageError(error.description, path: invocation.path) }
    }

    /// Says the bench is ready: its rig file, its entry in the registry, then the `ready`
    /// line (a file and standard output). The registry entry, to remove at the end.
    static func announce(_ bench: VirtualBench, directory: String, port: UInt16?, _ context: CommandContext) -> String? {
        let ready = JSONValue.object([
            ("pid", .int(Int(getpid()))),
            ("control", .string(bench.controlPath)),
            ("connstring", .optional(bench.connstring)),
            ("reader", .optional(bench.connstring.map { "libnfc:\($0)" })),
            ("vpcdPort", port.map { .int(Int($0)) } ?? .null),
            ("gantry", .optional(bench.gantry?.linkPath)),
            ("rig", .optional(bench.gantry.map { _ in directory + "/rig.conf" })),
        ]).serialized()
        if let emulated = bench.gantry {
            try? GantryOptions.rigFile(for: emulated).text.write(
                toFile: directory + "/rig.conf", atomically: true, encoding: .utf8)
        }
        // Registered before it says it is ready: whoever waits for `ready` and then asks
        // `nfcbench readers` must find it listed (seen missing on a loaded CI machine).
        let registered = try? BenchRegistry.register(
            .init(pid: getpid(), directory: directory, connstring: bench.connstring, vpcdPort: port),
            environment: context.environment)
        try? (ready + "\n").write(toFile: directory + "/ready", atomically: true, encoding: .utf8)
        context.output.line(ready)
        return registered
    }

    static func control(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let directory = context.url(forPath: invocation.required(controlDirectory)).path
        let client = VirtualBenchClient(socketPath: directory + "/control.sock")
        let command: BenchCommand
        do { command = try BenchCommand(parsing: invocation.positionals.joined(separator: " ")) } catch {
            throw UsageError(error.description, path: invocation.path)
        }
        let reply: BenchReply
        do { reply = try client.send(command) } catch {
            throw CommandFailure(
                "No virtual bench answers at '\(directory)': \(error)",
                hint: "Start one with 'nfcbench sim serve --dir \(directory)'.")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        context.output.line(String(decoding: (try? encoder.encode(reply)) ?? Data(), as: UTF8.self))
        return reply.ok ? ExitCode.success : ExitCode.failure
    }
}

enum SimOptions {
    typealias Rect = (x: Double, y: Double, width: Double, height: Double)

    static func antenna(name: String = "--antenna", help: String) -> Option<Rect> {
        Option<Rect>(name, value: "x,y,w,h", help: help, expected: "x,y,w,h fractions of the back, inside it", convert: rect)
    }

    /// `x,y,w,h` in mm -> a rectangle with a positive size at or right of and below the corner.
    static func millimetreRect(_ text: String) -> (x: Double, y: Double, width: Double, height: Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let v = parts.compactMap { OptionValue.decimal($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, v.count == 4, v[0] >= 0, v[1] >= 0, v[2] >= 5, v[3] >= 5, v.allSatisfy({ $0 <= 400 }) else {
            return nil
        }
        return (v[0], v[1], v[2], v[3])
    }

    /// `x,y,w,h` -> a rectangle inside the unit square.
    static func rect(_ text: String) -> (x: Double, y: Double, width: Double, height: Double)? {
        let v = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard v.count == 4, v[2] > 0, v[3] > 0, v[0] >= 0, v[1] >= 0, v[0] + v[2] <= 1 + 1e-9, v[1] + v[3] <= 1 + 1e-9
        else { return nil }
        return (v[0], v[1], v[2], v[3])
    }
}
