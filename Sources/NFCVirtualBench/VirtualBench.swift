import Foundation
import NFCReaders
import NFCSystem
import Synchronization

/// A whole virtual bench: one simulated phone, seen through an emulated PN532 on a pty
/// (libnfc) and/or a virtual card behind vpcd (PC/SC), steered over a control socket.
///
/// Control protocol: typed messages (`BenchCommand` in, `BenchReply` out), one JSON object
/// per line each way; `nfcbench sim ctl` turns its words into a command
/// (`BenchCommand(parsing:)`).
public final class VirtualBench: Sendable {
    public struct Configuration: Sendable {
        public var directory: String
        public var phone: SimulatedPhone
        public var seed: UInt64
        public var pn532: Bool
        public var vpcdPort: UInt16?
        /// An emulated GRBL or Marlin machine carrying the reader (`<dir>/gantry`).
        public var gantry: GantryConfiguration?
        /// The phone's and the chip's time: real by default; a test may pass a virtual one.
        public var clock: any BenchClock
        /// The phone's back in mm (`sim serve --body`), for `place Xmm Ymm`; its width follows
        /// the phone's aspect ratio when that was given instead.
        public var bodyHeightMm: Double = 147.0

        public init(
            directory: String, phone: SimulatedPhone, seed: UInt64, pn532: Bool = true, vpcdPort: UInt16? = nil,
            gantry: GantryConfiguration? = nil, clock: any BenchClock = ContinuousBenchClock()
        ) {
            self.gantry = gantry
            self.clock = clock
            self.directory = directory
            self.phone = phone
            self.seed = seed
            self.pn532 = pn532
            self.vpcdPort = vpcdPort
        }
    }

    public let configuration: Configuration
    public let bench: PhoneOnBench
    public let controls: BenchControls
    private let emulator: PN532Emulator?
    private let card: VPCDCard?
    public let gantry: GantryEmulator?
    private let listener = Mutex<OwnedFileDescriptor?>(nil)
    /// An exclusive lock on the folder's `serve.lock`, held while this bench runs: a second
    /// bench on the same folder is refused instead of taking over its socket and link.
    private let folderLock = Mutex<OwnedFileDescriptor?>(nil)

    public var controlPath: String { configuration.directory + "/control.sock" }
    public var pn532Link: String? { emulator?.linkPath }
    public var connstring: String? { emulator?.connstring }
    /// Polls the emulated PN532 has started waiting on (see `PN532Emulator.pollsStarted`).
    public var pn532PollsStarted: Int { emulator?.pollsStarted ?? 0 }
    /// The emulated PN532's analog settings (RFConfiguration item 0x0A) as last set.
    public var pn532AnalogSettings: [UInt8]? { emulator?.analogSettings }
    /// The analog settings of the reader chip behind vpcd (`VPCDCard`).
    public var vpcdAnalogSettings: [UInt8]? { card?.analogSettings }

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        let bench = PhoneOnBench(phone: configuration.phone, seed: configuration.seed, clock: configuration.clock)
        let controls = BenchControls()
        self.bench = bench
        self.controls = controls
        emulator =
            configuration.pn532
            ? PN532Emulator(bench: bench, controls: controls, linkPath: configuration.directory + "/pn532") : nil
        card = configuration.vpcdPort.map { VPCDCard(bench: bench, controls: controls, port: $0) }
        gantry = configuration.gantry.map {
            GantryEmulator(configuration: $0, bench: bench, directory: configuration.directory)
        }
    }

    public func start() throws {
        try FileManager.default.createDirectory(atPath: configuration.directory, withIntermediateDirectories: true)
        let lockPath = configuration.directory + "/serve.lock"
        let lock: OwnedFileDescriptor
        do { lock = try OwnedFileDescriptor.open(lockPath, O_RDWR | O_CREAT, mode: 0o644) } catch {
            throw VirtualBenchError.lockFile(path: lockPath, error)
        }
        do { try lock.descriptor.lockExclusively() } catch {
            throw BenchAlreadyServed(directory: configuration.directory)
        }
        folderLock.withLock { $0 = lock }
        try emulator?.start()
        try gantry?.start()
        card?.start()
        let socket: OwnedFileDescriptor
        do { socket = try UnixDomainSocket.listen(controlPath) } catch {
            throw VirtualBenchError.controlSocket(path: controlPath, error)
        }
        listener.withLock { $0 = socket }
        let thread = Thread { [self] in serve(socket) }
        thread.name = "bench-control"
        thread.start()
    }

    public func stop() {
        if let socket = listener.withLock({ $0 }) { UnixDomainSocket.shutdown(socket.descriptor) }
        listener.withLock { $0 = nil }
        unlink(controlPath)
        emulator?.stop()
        gantry?.stop()
        card?.stop()
        folderLock.withLock { $0 = nil }
    }

    private func serve(_ listening: OwnedFileDescriptor) {
        while true {
            guard let client = try? UnixDomainSocket.accept(listening.descriptor) else { return }
            let thread = Thread { [self] in
                while let line = try? client.descriptor.readLine() {
                    let reply: BenchReply
                    if let command = try? JSONDecoder().decode(BenchCommand.self, from: Data(line.utf8)) {
                        reply = handle(command)
                    } else {
                        reply = .failure(.unreadable)
                    }
                    guard let encoded = try? JSONEncoder().encode(reply),
                        (try? client.descriptor.writeLine(String(decoding: encoded, as: UTF8.self))) != nil
                    else { break }
                }
            }
            thread.start()
        }
    }

    /// Runs one control command.
    public func handle(_ command: BenchCommand) -> BenchReply {
        var reply = BenchReply()
        switch command {
        case .place(let x, let y):
            reply.coupled = bench.place(x: x, y: y)
            reply.fieldEntries = bench.snapshot.fieldEntries
        case .placeMillimetres(let x, let y):
            let height = configuration.gantry?.bodyHeightMm ?? configuration.bodyHeightMm
            let width = configuration.gantry?.bodyWidthMm ?? height * configuration.phone.aspectRatio
            guard x <= width, y <= height else {
                return BenchReply(
                    ok: false,
                    error: "place \(BenchReply.number(x))mm \(BenchReply.number(y))mm is off the back, which is "
                        + "\(BenchReply.number(width)) x \(BenchReply.number(height)) mm")
            }
            reply.coupled = bench.place(x: x / width, y: y / height)
            reply.fieldEntries = bench.snapshot.fieldEntries
        case .lift:
            bench.lift()
        case .fault(let fault):
            controls.fault = fault
            reply.fault = fault
        case .antenna(let x, let y, let width, let height):
            var phone = bench.snapshot.phone
            phone.antenna = (x, y, width, height)
            bench.setPhone(phone)
        case .technology(let technology):
            var phone = bench.snapshot.phone
            phone.technology = technology
            bench.setPhone(phone)
        case .reader(let behaviour):
            switch behaviour {
            case .complete:
                bench.tagReaderAbortAfter = nil
                bench.tagReaderLeavesAfter = nil
            case .leave(let n): bench.tagReaderLeavesAfter = n
            case .abort(let n): bench.tagReaderAbortAfter = n
            }
            reply.abortAfter = bench.tagReaderAbortAfter
            reply.lastRead = bench.snapshot.tagReads.last.map { String(describing: $0.outcome) } ?? "none"
        case .powerCycle:
            controls.firmware { $0.piccParameter = 0xFF }
            card?.powerCycle()
        case .status:
            reply.status = status()
        case .card(let card):
            bench.setStrayCard(card)
        case .phone(let android):
            var phone = bench.snapshot.phone
            phone.answersAndroidHCE = android
            bench.setPhone(phone)
        case .gantry(let fault):
            guard let gantry else {
                return BenchReply(ok: false, error: "this bench has no gantry (sim serve --gantry grbl|marlin)")
            }
            gantry.inject(fault)
        }
        return reply
    }

    private func status() -> BenchStatus {
        let s = bench.snapshot
        let firmware = controls.firmware { $0 }
        return BenchStatus(
            probe: s.probe.map { [$0.x, $0.y] }, uid: s.target.map { Hex.string($0.uid) }, fieldEntries: s.fieldEntries,
            fault: controls.fault, picc: Hex.string([firmware.piccParameter]),
            piccWrites: firmware.piccWrites.map { Hex.string([$0]) }, leds: firmware.ledCommands.map { Hex.string($0) },
            apdus: firmware.apduCount, pn532: pn532Link, vpcdPort: configuration.vpcdPort, gantry: gantry?.linkPath,
            head: gantry?.status.position, gantryState: gantry?.status.state,
            pollsWhileMoving: gantry == nil ? nil : s.pollsWhileMoving,
            pn532Analog: emulator.map { Hex.string($0.analogSettings, separator: " ") },
            vpcdAnalog: card.map { Hex.string($0.analogSettings, separator: " ") },
            coupling: s.probe == nil ? nil : bench.coupling(), world: s.phone.couplingModel.summary)
    }
}

/// Another virtual bench holds the folder's lock.
public struct BenchAlreadyServed: Error, Sendable, CustomStringConvertible {
    public let directory: String
    public var description: String {
        "another virtual bench already serves \(directory); stop it first, or choose another --dir"
    }
}

/// Talks to a running bench's control socket.
public struct VirtualBenchClient: Sendable {
    public let socketPath: String

    public init(socketPath: String) { self.socketPath = socketPath }

    /// Sends one command and returns the bench's reply, whatever it says.
    public func send(_ command: BenchCommand) throws(VirtualBenchError) -> BenchReply {
        let socket: OwnedFileDescriptor
        do { socket = try UnixDomainSocket.connect(socketPath) } catch { throw .connect(path: socketPath, error) }
        let line: String?
        do {
            // A command always encodes: it is a Codable enum of plain values.
            let text = String(decoding: (try? JSONEncoder().encode(command)) ?? Data(), as: UTF8.self)
            try socket.descriptor.writeLine(text)
            line = try socket.descriptor.readLine()
        } catch {
            throw .conversation(path: socketPath, error)
        }
        guard let line else { throw .closedConnection(path: socketPath) }
        guard let reply = try? JSONDecoder().decode(BenchReply.self, from: Data(line.utf8)) else {
            throw .unreadableReply(path: socketPath)
        }
        return reply
    }

    /// Sends a command and returns the reply, throwing when the bench refused it.
    @discardableResult
    public func request(_ command: BenchCommand) throws(VirtualBenchError) -> BenchReply {
        let reply = try send(command)
        guard reply.ok else { throw .refused(reply.error ?? "the bench refused \(command)") }
        return reply
    }
}
