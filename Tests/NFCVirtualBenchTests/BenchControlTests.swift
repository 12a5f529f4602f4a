import Foundation
import NFCReaders
import NFCSystem
import NFCTestSupport
import NFCVirtualBench
import Testing

/// The control channel's typed messages, over the bench's own socket.
@Suite("Virtual bench control protocol")
struct BenchControlTests {
    @Test func typedCommandsGetTypedReplies() throws {
        let bench = try TestBench()
        defer { bench.bench.stop() }
        let client = VirtualBenchClient(socketPath: bench.bench.controlPath)
        let a = bench.bench.bench.snapshot.phone.antenna
        let placed = try client.request(.place(x: a.x + a.width / 2, y: a.y + a.height / 2))
        #expect(placed.coupled == true && (placed.fieldEntries ?? 0) >= 1)
        #expect(try client.request(.fault(.slow)).fault == .slow)
        let status = try #require(try client.request(.status).status)
        #expect(status.fault == .slow && status.uid != nil && status.pn532 == bench.bench.pn532Link)
        try client.request(.fault(.none))
        try client.request(.lift)
        #expect(try client.request(.status).status?.uid == nil)
    }

    /// Millimetres from the back's left and top edges, as `run` prompts, land where the same
    /// point in fractions does; a point off the back is refused with the back's size.
    @Test func aPlacementInMillimetresIsTheSamePoint() throws {
        let bench = try TestBench()
        defer { bench.bench.stop() }
        let client = VirtualBenchClient(socketPath: bench.bench.controlPath)
        let configuration = bench.bench.configuration
        let height = configuration.bodyHeightMm, width = height * configuration.phone.aspectRatio
        let a = bench.bench.bench.snapshot.phone.antenna
        let (x, y) = (a.x + a.width / 2, a.y + a.height / 2)
        let placed = try client.request(.placeMillimetres(x: x * width, y: y * height))
        #expect(placed.ok && placed.coupled == true)
        let probe = try #require(try client.request(.status).status?.probe)
        #expect(abs(probe[0] - x) < 1e-9 && abs(probe[1] - y) < 1e-9, "\(probe)")
        try client.request(.lift)
        do {
            _ = try client.request(.placeMillimetres(x: width + 1, y: 10))
            Issue.record("a point off the back was placed")
        } catch {
            #expect("\(error)".contains("is off the back, which is 70.6 x 147 mm"), "\(error)")
        }
        #expect(try client.request(.placeMillimetres(x: 0, y: height)).ok)
    }

    /// The client's failures are typed: no bench at the path is `.connect` with the
    /// system's own `Errno` (so a caller can tell "none running" from "broken"), a refusal
    /// is `.refused` with the bench's words, and a second bench on a folder is refused.
    @Test func aClientsFailuresAreTypedWithTheirErrno() throws {
        let absent = VirtualBenchClient(socketPath: "/tmp/nfcb-absent-\(getpid())/control.sock")
        #expect(throws: VirtualBenchError.connect(path: absent.socketPath, .noSuchFile)) { try absent.send(.status) }
        let bench = try TestBench()
        defer { bench.bench.stop() }
        let client = VirtualBenchClient(socketPath: bench.bench.controlPath)
        do {
            _ = try client.request(.placeMillimetres(x: 500, y: 10))
            Issue.record("a point off the back was placed")
        } catch {
            guard case .refused(let words) = error else { throw error }
            #expect(words.contains("is off the back"), "\(words)")
        }
    }

    @Test func aLineThatIsNoCommandIsRefusedAndTheConnectionStaysUsable() throws {
        let bench = try TestBench()
        defer { bench.bench.stop() }
        let socket = try UnixDomainSocket.connect(bench.bench.controlPath)
        for garbage in ["place 0.5 0.5", "{\"place\":{\"x\":\"half\"}}", "\u{1B}[2J", ""] {
            try socket.descriptor.writeLine(garbage)
            let line = try #require(try socket.descriptor.readLine())
            let reply = try JSONDecoder().decode(BenchReply.self, from: Data(line.utf8))
            #expect(!reply.ok && reply.error == BenchControlError.unreadable.description, "\(garbage): \(line)")
        }
        try socket.descriptor.writeLine(String(decoding: try JSONEncoder().encode(BenchCommand.lift), as: UTF8.self))
        let line = try #require(try socket.descriptor.readLine())
        #expect(try JSONDecoder().decode(BenchReply.self, from: Data(line.utf8)).ok)
    }

    @Test(arguments: [
        ("place 0.5 0.25", BenchCommand.place(x: 0.5, y: 0.25)), ("place 35mm 40.5mm", .placeMillimetres(x: 35, y: 40.5)),
        ("lift", .lift), ("fault mute", .fault(.mute)),
        ("antenna 0.1 0.2 0.3 0.4", .antenna(x: 0.1, y: 0.2, width: 0.3, height: 0.4)), ("technology B", .technology(.iso14443B)),
        ("reader leave 3", .reader(.leave(after: 3))), ("power-cycle", .powerCycle), ("status", .status),
        (
            "card mifare-classic 0 0.6 1 0.4 04A1B2C3",
            .card(StrayCard(kind: .mifareClassic, region: (0, 0.6, 1, 0.4), uid: [0x04, 0xA1, 0xB2, 0xC3]))
        ),
        ("card none", .card(nil)), ("phone iphone", .phone(android: false)), ("phone android", .phone(android: true)),
        ("gantry alarm 2", .gantry(.alarm(2))), ("gantry alarm 1 during-move 8", .gantry(.alarmDuringMove(code: 1, moves: 8))),
    ])
    func theOperatorsWordsBecomeCommands(text: String, command: BenchCommand) throws {
        #expect(try BenchCommand(parsing: text) == command)
        let wire = try JSONEncoder().encode(command)
        #expect(try JSONDecoder().decode(BenchCommand.self, from: wire) == command)
    }

    @Test(arguments: [
        "place 2 0", "place nan 0.5", "place inf 0", "place 35mm 0.5", "place -1mm 5mm", "place infmm 5mm", "place 1e309mm 5mm",
        "place 35 mm 40 mm", "antenna 0 0 0 1", "fault loud", "technology C", "jump", "",
        "card mifare-classic 0 0 1", "card mifare-classic 0 0 0 1", "card mifare-classic 0 0 1 1 08A1B2C3",
        "card mifare-classic 0 0 1 1 1e309", "card badge 0 0 1 1", "phone nokia",
        "gantry alarm 1 during-move 0", "gantry alarm 1 during-move 1e309", "gantry alarm 1 after 3",
        "gantry alarm 0 during-move 2",
    ])
    func wordsThatAreNoCommandAreRefused(text: String) {
        #expect(throws: BenchControlError.self) { try BenchCommand(parsing: text) }
    }
}
