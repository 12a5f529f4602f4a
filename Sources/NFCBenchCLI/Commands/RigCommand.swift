import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchUseCases
import NFCLocatorCore
import NFCReaders
import NFCRig
import NFCSystem

/// `nfcbench rig ...`: the motion stage a gcode positioner drives (docs/rig.md).
enum RigCommand {
    static let spec = CommandSpec(
        "rig", abstract: "Set up a motion stage (GRBL or Marlin), check it against a plan, calibrate it, or clear its alarm.",
        subcommands: [RigInitCommand.spec, checkSpec, unlockSpec, RigCalibrateCommand.spec])

    static let device = Option<String>(
        "--device", value: "path", help: "The machine's serial port, overriding the rig file's device.")
    static let timeout = Option<Double>(
        "--timeout", value: "seconds", help: "How long the machine may take to answer (default 10).",
        expected: "seconds in 1...600", convert: OptionValue.number(in: 1...600))

    static let checkSpec = CommandSpec(
        "check", abstract: "Dry-run a plan on the rig: every position inside the travel, and the time its moves take.",
        discussion: """
            Maps the plan's positions (with --heights, every position at every height: the most the plan takes)
            onto the machine with the phone's published body size and the rig file,
            refuses a position outside the travel (naming it), estimates the time of the moves from the rig's
            feeds (acceleration not counted) and asks the machine, without moving it, whether it is ready.
            With --move it also runs the moves on the machine (no reader is polled) and times them.
            Exit codes: 0 the plan fits and the machine is ready, 1 it does not, 64 usage error.
            """,
        options: [
            PlanCommand.model.spec, PlanCommand.plan.spec, RasterOptions.stepMm.spec, HeightOptions.heights.spec,
            RigOptions.rig.spec, device.spec,
            timeout.spec, offline.spec,
            move.spec, StoreOptions.database.spec,
        ] + CatalogOptions.all,
        handler: check)
    static let offline = Flag("--offline", help: "Do not talk to the machine: check the plan and the timing only.")
    static let move = Flag(
        "--move", help: "Also run the plan's moves on the machine, timing them (homes first if the rig homes).")

    static let unlockSpec = CommandSpec(
        "unlock", abstract: "Show the machine's alarm and clear it ($X on GRBL, M999 on Marlin) when confirmed.",
        discussion: """
            A run stopped by an alarm (a limit switch, a failed homing) is saved and resumable; clear the cause
            first (move the head off the switch, free the axis), then unlock and resume. GRBL gets a soft reset
            (Ctrl-X, which a limit alarm needs before anything else) and then $X. A machine that lost its
            position (hard limit, reset while moving) should home: a rig with 'homes = yes' homes at the
            start of every run and resume.
            """,
        options: [RigOptions.rig.spec, device.spec, timeout.spec, yes.spec],
        handler: unlock)
    static let yes = Flag("--yes", help: "Unlock without asking.")

    /// The rig file with `--device` applied.
    static func rig(_ invocation: ParsedInvocation, _ context: CommandContext, requiringJig: Bool = true) throws
        -> RigConfiguration
    {
        var rig = try RigOptions.load(invocation, context, requiringJig: requiringJig).configuration
        if let path = invocation[device] { rig.device = context.url(forPath: path).path }
        guard rig.device != nil else {
            throw UsageError("The rig file names no device: add 'device = /dev/ttyUSB0' or give --device.", path: invocation.path)
        }
        return rig
    }

    /// The model `--model` names, resolved, with its published body size: a machine maps
    /// positions in millimetres, so a model without one is refused.
    static func publishedBody(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> (
        loaded: CatalogOptions.Loaded, model: String, resolution: AntennaResolution, profile: DeviceAntennaProfile,
        body: BodyMillimetres
    ) {
        let loaded = try await CatalogOptions.loadResolver(invocation, context)
        let model = try ModelChoice.choose(
            invocation.required(PlanCommand.model), resolver: loaded.resolver, context: context, usagePath: invocation.path
        ).identifier
        let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
        let resolution = loaded.resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: model))
        guard let profile = resolution.profile, let body = BodyMillimetres(profile: profile) else {
            throw CommandFailure(
                "The catalog has no published body size for '\(TerminalSafeText.neutralise(model))'.",
                hint: "A machine maps positions in millimetres: use a catalog entry with bodyWidthMm and bodyHeightMm "
                    + "(nfcbench catalog search TEXT).")
        }
        return (loaded, model, resolution, profile, body)
    }

    /// Runs `body`, which talks to the machine; its failure, worded by the use case, ends
    /// the command with its hint.
    static func talking<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let failure as RigMachineFailure {
            throw CommandFailure(failure.message, hint: failure.hint)
        }
    }

    static func machineTimeout(_ invocation: ParsedInvocation) -> Duration {
        .milliseconds(Int64((invocation[timeout] ?? 10) * 1000))
    }

    static func check(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let rig = try rig(invocation, context)
        let kind = try PlanCommand.listable(invocation[PlanCommand.plan] ?? .adaptive, invocation)
        let (loaded, model, r, profile, body) = try await publishedBody(invocation, context)
        let (width, height) = (body.width, body.height)
        let geometry = RigGeometry(rig: rig, bodyWidthMm: width, bodyHeightMm: height)
        let planned = try await RunPlanning.plan(
            model: model, kind: kind, zone: r.zone, aspectRatio: profile.aspectRatio, resolver: loaded.resolver,
            store: try await StoreOptions.planningStore(invocation, context), includeSimulated: false,
            raster: try RasterOptions.request(invocation, kind: kind, profile: profile))
        let heights = try HeightOptions.request(invocation, kind: kind)
        // With heights: every position at every height, the most the plan can take.
        let probes =
            heights.count > 1
            ? HeightLayers(base: planned.strategy, heights: heights).storedProbes(for: r.zone)
            : planned.strategy.expectedProbes(for: r.zone)
        let out = context.output
        let device = TerminalSafeText.neutralise(rig.device ?? "")
        out.line(
            "Rig: \(rig.dialect.displayName) on \(device); \(profile.displayName) (\(RigConfiguration.number(width)) x "
                + "\(RigConfiguration.number(height)) mm) with its top-left corner at machine X \(RigConfiguration.number(rig.originX)), "
                + "Y \(RigConfiguration.number(rig.originY)); x along \(rig.xAxis), y along \(rig.yAxis)")
        if let why = geometry.unreachable(probes) {
            throw CommandFailure(
                "The \(kind.rawValue) plan does not fit the rig: \(why).",
                hint: "Check origin-x, origin-y, the axes and the travel in the rig file, or re-run 'nfcbench rig calibrate'.")
        }
        printTiming(probes, geometry: geometry, kind: kind, layered: heights.count > 1, out)
        if invocation[offline] { return ExitCode.success }
        return try await RigCommand.talking {
            let machine = try await RigMachine.open(rig, timeout: machineTimeout(invocation))
            // As a run reads it: a machine still moving is waited for, a critical alarm named.
            let readiness = try await machine.readiness(within: machineTimeout(invocation))
            let clears = readiness.homingClears ? " (the run homes first, which clears it)" : ""
            out.line("Machine: answers, state \(TerminalSafeText.neutralise(readiness.state))" + clears)
            if let refusal = RigMachine.refusal(readiness) { throw refusal }
            guard invocation[move] else { return ExitCode.success }
            let dryRun = try await machine.dryRun(probes, geometry: geometry)
            if let announcement = dryRun.announcement { out.line(TerminalSafeText.neutralise(announcement)) }
            out.line(
                "Moved through \(probes.count) positions in \(Self.duration(dryRun.moves.seconds)) "
                    + "(setup and homing \(Self.duration(dryRun.setup.seconds))).")
            return ExitCode.success
        }
    }

    /// The plan's size and the time its moves take, crossing at safe-z and, when the rig has
    /// it, at clearance-z with the field off.
    static func printTiming(
        _ probes: [Probe], geometry: RigGeometry, kind: PlanKind, layered: Bool, _ out: any TextOutput
    ) {
        let rig = geometry.rig
        let timing = MoveTiming(probes: probes, geometry: geometry)
        // The window a run on this rig takes unless --tap-timeout says otherwise.
        let window = rig.defaultTapWindow, windowWords = RigConfiguration.number(rig.defaultTapWindow) + " s"
        out.line(
            "\(kind.rawValue) plan: \(probes.count) \(layered ? "taps at most" : "positions")"
                + (kind == .adaptive ? " (if the phone answers exactly inside the predicted zone)" : "") + ", "
                + "all inside the travel (\(RigConfiguration.number(rig.travelX)) x \(RigConfiguration.number(rig.travelY)) mm)")
        out.line(
            "Moves: \(Int(timing.acrossMm.rounded())) mm across and \(Int(timing.verticalMm.rounded())) mm up and down, "
                + "about \(Self.duration(timing.seconds)) at feed-xy \(RigConfiguration.number(rig.feedXY)) and feed-z "
                + "\(RigConfiguration.number(rig.feedZ)) mm/min (acceleration not counted); with the rig's \(windowWords) "
                + "tap windows, " + String(format: "%.1f", timing.positionsPerMinute(windowSeconds: window))
                + " positions per minute")
        if let clearance = rig.clearanceZ {
            let low = MoveTiming(probes: probes, geometry: geometry, crossingZ: clearance)
            out.line(
                "Crossing at clearance-z \(RigConfiguration.number(clearance)) mm with the reader's field off (libnfc readers): "
                    + "\(Int(low.verticalMm.rounded())) mm up and down, about \(Self.duration(low.seconds)) of moves, "
                    + String(format: "%.1f", low.positionsPerMinute(windowSeconds: window)) + " positions per minute")
        }
    }

    static func unlock(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let rig = try rig(invocation, context, requiringJig: false)
        // A GRBL waiting for "Reset to continue" still answers `?`; silence is a cable or port problem.
        let machine = try await RigCommand.talking { try await RigMachine.open(rig, timeout: machineTimeout(invocation)) }
        context.output.line(
            "\(rig.dialect.displayName) on \(TerminalSafeText.neutralise(rig.device ?? "")): state "
                + TerminalSafeText.neutralise(machine.stateWhenOpened)
                + (machine.lastAlarm.map { ", last said \(TerminalSafeText.neutralise($0))" } ?? ""))
        if !invocation[yes] {
            guard TerminalSettings.isTerminal(.standardInput) else {
                throw UsageError("Unlocking needs a confirmation: answer at a terminal, or pass --yes.", path: invocation.path)
            }
            context.output.line("Clear the alarm's cause first. Unlock the machine now? [y/N]")
            guard let answer = readLine(), ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
            else {
                context.output.line("Left locked.")
                return ExitCode.failure
            }
        }
        let result = try await RigCommand.talking { try await machine.unlock() }
        for message in result.messages { context.output.line("  " + TerminalSafeText.neutralise(message)) }
        context.output.line(
            "Unlocked: state \(TerminalSafeText.neutralise(result.state)). Resume the stopped session with the command its "
                + "run printed ('nfcbench run --resume ID ... --positioner gcode --rig FILE', as it ran).")
        return result.state == "Idle" ? ExitCode.success : ExitCode.failure
    }

    /// `1 min 12 s`, `42 s`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 60 ? "\(whole / 60) min \(whole % 60) s" : String(format: whole < 10 ? "%.1f s" : "%.0f s", seconds)
    }
}
