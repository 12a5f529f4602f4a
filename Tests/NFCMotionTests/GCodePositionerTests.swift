import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCRig
import NFCTestSupport
import NFCVirtualBench
import Testing

@testable import NFCMotion

/// The gcode positioner driving the emulated GRBL and Marlin on their ptys, each test with
/// its own bench (own pty). One at a time: each keeps a machine and a PN532 emulator busy,
/// and timing-sensitive reader tests run beside them on the same two cores.
@Suite("The gcode positioner on the emulated machines", .serialized)
struct GCodePositionerTests {
    static let body = (width: 70.6, height: 147.0)

    /// A bench with a gantry, and a positioner on it as `rig.conf` describes the jig.
    static func rigged(
        _ dialect: GantryDialect, speed: Double = 50, timeout: Duration = .seconds(10), clearanceMm: Double? = nil
    ) async throws -> (
        TestBench, GCodePositioner, RigConfiguration
    ) {
        let gantry = GantryConfiguration(
            dialect: dialect, bodyWidthMm: body.width, bodyHeightMm: body.height, speed: speed)
        let bench = try TestBench(gantry: gantry)
        let rig = RigConfiguration(
            device: bench.directory + "/gantry", dialect: dialect == .grbl ? .grbl : .marlin, originX: gantry.originX,
            originY: gantry.originY, safeZ: gantry.tapZ + 30, tapZ: gantry.tapZ, feedXY: 3000, feedZ: 600,
            travelX: gantry.travel.x, travelY: gantry.travel.y, travelZ: gantry.travel.z, homes: true,
            clearanceZ: clearanceMm.map { gantry.tapZ + $0 })
        let (machine, state) = try await GCodeMachine.open(rig, timeout: timeout)
        #expect(dialect == .marlin || state == "Alarm", "GRBL with homing enabled powers up locked")
        let positioner = GCodePositioner(
            machine: machine, geometry: RigGeometry(rig: rig, bodyWidthMm: body.width, bodyHeightMm: body.height),
            crossesWithFieldOff: clearanceMm != nil)
        return (bench, positioner, rig)
    }

    /// A placement under way on a machine slowed 100 times: what a fault interrupts.
    static func slowPlacement(_ bench: TestBench, _ positioner: GCodePositioner, index: Int = 0) async throws -> Task<
        Void, any Error
    > {
        try await positioner.prepare()
        bench.bench.gantry?.inject(.slow(100))
        let placing = Task { try await positioner.place(Probe(x: 0.9, y: 0.9), index: index) }
        try await waitFor(bench, state: "Run")
        return placing
    }

    /// How a placement that must fail failed; `nil` (and an issue) when it succeeded.
    static func failure(of placing: Task<Void, any Error>, _ what: String) async -> PositionerError? {
        guard case .failure(let raw) = await placing.result, let error = raw as? PositionerError else {
            Issue.record("a placement through \(what) succeeded")
            return nil
        }
        return error
    }

    static func waitFor(_ bench: TestBench, state: String) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while bench.bench.gantry?.status.state != state {
            guard ContinuousClock.now < deadline else { throw PositionerError("the gantry never reached \(state)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test(arguments: GantryDialect.allCases)
    func everyPlacementRisesMovesLowersAndStops(_ dialect: GantryDialect) async throws {
        let (bench, positioner, rig) = try await Self.rigged(dialect)
        try await positioner.prepare()
        let probes = [Probe(x: 0.5, y: 0.5), Probe(x: 0.1, y: 0.9), Probe(x: 0.9, y: 0.1)]
        for (index, probe) in probes.enumerated() {
            try await positioner.place(probe, index: index)
            // "Placed" means stopped at the tap height over the probe, the phone placed there.
            let head = try #require(bench.bench.gantry?.status.position)
            let expected = positioner.geometry.machinePoint(probe)
            #expect(abs(head[0] - expected.x) < 0.001 && abs(head[1] - expected.y) < 0.001 && abs(head[2] - rig.tapZ) < 0.001)
            let placed = try #require(bench.bench.bench.snapshot.probe)
            #expect(abs(placed.x - probe.x) < 1e-6 && abs(placed.y - probe.y) < 1e-6)
            #expect(bench.bench.bench.carriedByMovingMachine == false)
            try await positioner.lift(index: index)
            #expect(abs((bench.bench.gantry?.status.position[2] ?? 0) - rig.safeZ) < 0.001)
        }
        let log = GantryLog(directory: bench.directory)
        #expect(log.moves.count >= 3 * probes.count)
        #expect(log.placementViolations(crossingZ: rig.safeZ, tapZ: rig.tapZ) == [])
        #expect(log.count(dialect == .grbl ? "barrier G4" : "barrier M400") >= 2 * probes.count)
        #expect(log.count(dialect == .grbl ? "< $H" : "< G28") == 1)
    }

    /// Crossing with the field off: lifts go up to clearance-z only, XY moves happen
    /// there, and a lift never goes down (a tap above the clearance stays where it is and
    /// the next crossing starts from there).
    @Test func crossingWithTheFieldOffStaysJustAboveTheBack() async throws {
        let (bench, positioner, rig) = try await Self.rigged(.grbl, clearanceMm: 2)
        let clearance = try #require(rig.clearanceZ)
        try await positioner.prepare()
        let probes = [Probe(x: 0.5, y: 0.5), Probe(x: 0.2, y: 0.8), Probe(x: 0.2, y: 0.8, heightMm: 10), Probe(x: 0.8, y: 0.2)]
        for (index, probe) in probes.enumerated() {
            try await positioner.place(probe, index: index)
            #expect(abs((bench.bench.gantry?.status.position[2] ?? 0) - (rig.tapZ + probe.heightMm)) < 0.001)
            try await positioner.lift(index: index)
            let z = bench.bench.gantry?.status.position[2] ?? 0
            #expect(abs(z - max(clearance, rig.tapZ + probe.heightMm)) < 0.001, "lifted to \(z) after \(probe)")
        }
        let log = GantryLog(directory: bench.directory)
        #expect(log.placementViolations(crossingZ: clearance, tapZ: rig.tapZ) == [])
        let moves = log.moves
        let firstDescent = try #require(moves.firstIndex { abs($0.end[2] - rig.tapZ) < 0.001 })
        let highest = moves[(firstDescent + 1)...].map { max($0.start[2], $0.end[2]) }.max() ?? 0
        #expect(abs(highest - (rig.tapZ + 10)) < 0.001, "nothing above the highest tap after the first descent")
        #expect(positioner.announcement?.contains("field off, up to Z \(RigConfiguration.number(clearance)) mm") == true)
        // The same rig for a reader without a field switch crosses at safe-z, and says so.
        let aboveField = GCodePositioner(machine: positioner.machine, geometry: positioner.geometry)
        #expect(aboveField.crossesWithFieldOff == false)
        #expect(aboveField.announcement?.contains("clearance-z is not used") == true)
        try await aboveField.place(Probe(x: 0.5, y: 0.5), index: 9)
        try await aboveField.lift(index: 9)
        #expect(abs((bench.bench.gantry?.status.position[2] ?? 0) - rig.safeZ) < 0.001)
    }

    @Test(arguments: GantryDialect.allCases)
    func anAlarmMidMoveStopsTheRunInWordsAndUnlockClearsIt(_ dialect: GantryDialect) async throws {
        let (bench, positioner, _) = try await Self.rigged(dialect)
        let placing = try await Self.slowPlacement(bench, positioner, index: 4)
        bench.bench.gantry?.inject(.alarm(1))
        guard let error = await Self.failure(of: placing, "an alarm") else { return }
        #expect(!error.isInterruption)
        #expect(error.message.contains("could not place position 5"), "\(error)")
        #expect(error.message.contains(dialect == .grbl ? "ALARM:1, hard limit" : "M999"), "\(error)")
        bench.bench.gantry?.inject(.none)
        let unlocked = try await positioner.machine.unlock()
        #expect(unlocked.state == "Idle")
        try await positioner.prepare()
        try await positioner.place(Probe(x: 0.5, y: 0.5), index: 5)
    }

    /// An alarm armed for the second move across fires partway through it: the first
    /// placement lands, the second fails in words with the head short of its target.
    @Test(arguments: GantryDialect.allCases)
    func anArmedAlarmFiresPartwayThroughItsMove(_ dialect: GantryDialect) async throws {
        let (bench, positioner, _) = try await Self.rigged(dialect)
        try await positioner.prepare()
        bench.bench.gantry?.inject(.alarmDuringMove(code: 1, moves: 2))
        try await positioner.place(Probe(x: 0.2, y: 0.2), index: 0)
        try await positioner.lift(index: 0)
        let placing = Task { try await positioner.place(Probe(x: 0.8, y: 0.8), index: 1) }
        guard let error = await Self.failure(of: placing, "an armed alarm") else { return }
        #expect(error.message.contains("could not place position 2"), "\(error)")
        #expect(error.message.contains(dialect == .grbl ? "ALARM:1, hard limit" : "M999"), "\(error)")
        let log = GantryLog(directory: bench.directory).events
        #expect(log.filter { $0 == "alarm 1" }.count == 1, "\(log)")
        // Disarmed once fired: after the unlock the machine places again.
        let unlocked = try await positioner.machine.unlock()
        #expect(unlocked.state == "Idle")
        try await positioner.prepare()
        try await positioner.place(Probe(x: 0.5, y: 0.5), index: 2)
    }

    @Test(arguments: GantryDialect.allCases)
    func ctrlCMidMoveHaltsTheMachineAtOnce(_ dialect: GantryDialect) async throws {
        let (bench, positioner, _) = try await Self.rigged(dialect)
        let placing = try await Self.slowPlacement(bench, positioner)
        let before = bench.bench.gantry?.status.position
        placing.cancel()
        guard let error = await Self.failure(of: placing, "Ctrl-C") else { return }
        #expect(error.isInterruption, "\(error)")
        try await Self.waitFor(bench, state: "Idle")
        let log = GantryLog(directory: bench.directory).events
        if dialect == .grbl {
            let hold = try #require(log.firstIndex(of: "< realtime !"), "\(log)")
            let reset = try #require(log.firstIndex(of: "< realtime Ctrl-X"), "\(log)")
            #expect(hold < reset)
            // The log's lines are the emulator's (`> ALARM:3`): an exact match never matched.
            #expect(!log.contains { $0.contains("ALARM:3") }, "a reset after the feed hold keeps the position: \(log.suffix(12))")
        } else {
            #expect(log.contains("quick stop"), "\(log)")
        }
        // Stopped where it was, well short of the target.
        let after = try #require(bench.bench.gantry?.status.position)
        let moved = zip(after, before ?? after).map { abs($0 - $1) }.max() ?? 0
        #expect(moved < 5, "kept moving \(moved) mm after Ctrl-C")
    }

    @Test func aStalledMachineStopsTheRunAfterItsTimeout() async throws {
        let (bench, positioner, _) = try await Self.rigged(.grbl, timeout: .seconds(1))
        try await positioner.prepare()
        bench.bench.gantry?.inject(.stall)
        let started = ContinuousClock.now
        do throws(PositionerError) {
            try await positioner.place(Probe(x: 0.5, y: 0.5), index: 0)
            Issue.record("a stalled machine placed the phone")
        } catch {
            #expect(!error.isInterruption)
            #expect(error.message.contains("did not answer"), "\(error)")
        }
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test(arguments: GantryDialect.allCases)
    func aResetMidRunIsDetected(_ dialect: GantryDialect) async throws {
        let (bench, positioner, _) = try await Self.rigged(dialect)
        let placing = try await Self.slowPlacement(bench, positioner)
        bench.bench.gantry?.inject(.reset)
        guard let error = await Self.failure(of: placing, "a reset") else { return }
        // GRBL says ALARM:3 (reset while in motion) ahead of its banner; Marlin just restarts.
        let words = dialect == .grbl ? "ALARM:3, reset while in motion" : "reset itself mid-run ('start')"
        #expect(error.message.contains(words), "\(error)")
        #expect(!error.isInterruption)
    }
}
