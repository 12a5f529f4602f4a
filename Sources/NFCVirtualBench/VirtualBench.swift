import Foundation
import NFCReaders
import Synchronization

/// A whole virtual bench: one simulated phone, seen through an emulated PN532 on a pty
/// (libnfc) and/or a virtual card behind vpcd (PC/SC), steered over a control socket.
///
/// Control protocol, one command per line, one JSON object per reply line:
/// `place X Y` (reader under the point X, Y of the phone's back), `lift`,
/// `fault none|slow|garbage|mute|unplug`, `antenna X Y W H`, `technology A|B`, `power-cycle`
/// (reader firmware back to its defaults), `status`.
public final class VirtualBench: Sendable {
    public struct Configuration: Sendable {
        public var directory: String
        public var phone: SimulatedPhone
        public var seed: UInt64
        public var pn532: Bool
        public var vpcdPort: UInt16?
        /// The phone's and the chip's time: real by default; a test may pass a virtual one.
        public var clock: any BenchClock

        public init(
            directory: String, phone: SimulatedPhone, seed: UInt64, pn532: Bool = true, vpcdPort: UInt16? = nil,
            clock: any BenchClock = ContinuousBenchClock()
        ) {
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
    private let listener = Mutex<Int32>(-1)
    /// An exclusive lock on the folder's `serve.lock`, held while this bench runs: a second
    /// bench on the same folder is refused instead of taking over its socket and link.
    private let folderLock = Mutex<Int32>(-1)

    public var controlPath: String { configuration.directory + "/control.sock" }
    public var pn532Link: String? { emulator?.linkPath }
    public var connstring: String? { emulator?.connstring }
    /// Polls the emulated PN532 has started waiting on (see `PN532Emulator.pollsStarted`).
    public var pn532PollsStarted: Int { emulator?.pollsStarted ?? 0 }

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
    }

    public func start() throws {
        try FileManager.default.createDirectory(atPath: configuration.directory, withIntermediateDirectories: true)
        let lock = open(configuration.directory + "/serve.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw BenchError(description: "cannot create \(configuration.directory)/serve.lock") }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            throw BenchError(
                description:
                    "another virtual bench already serves \(configuration.directory); stop it first, or choose another --dir")
        }
        folderLock.withLock { $0 = lock }
        try emulator?.start()
        card?.start()
        let fd = try UnixSocket.listen(controlPath)
        listener.withLock { $0 = fd }
        let thread = Thread { [self] in serve(fd) }
        thread.name = "bench-control"
        thread.start()
    }

    public func stop() {
        let fd = listener.withLock { stored -> Int32 in
            let fd = stored
            stored = -1
            return fd
        }
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
        unlink(controlPath)
        emulator?.stop()
        card?.stop()
        let lock = folderLock.withLock { stored -> Int32 in
            let fd = stored
            stored = -1
            return fd
        }
        if lock >= 0 { close(lock) }
    }

    private func serve(_ listening: Int32) {
        while true {
            let client = accept(listening, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let thread = Thread { [self] in
                while let line = UnixSocket.readLine(client) {
                    UnixSocket.writeLine(client, handle(line))
                }
                close(client)
            }
            thread.start()
        }
    }

    /// Runs one control command; the reply is a JSON object.
    public func handle(_ line: String) -> String {
        let words = line.split(separator: " ").map(String.init)
        func numbers(_ count: Int) -> [Double]? {
            let values = words.dropFirst().compactMap(Double.init)
            return values.count == count && words.count == count + 1 ? values : nil
        }
        switch words.first {
        case "place":
            guard let v = numbers(2), (0...1).contains(v[0]), (0...1).contains(v[1]) else {
                return error("usage: place X Y, with X and Y in 0...1")
            }
            let coupled = bench.place(x: v[0], y: v[1])
            return "{\"ok\":true,\"coupled\":\(coupled),\"fieldEntries\":\(bench.snapshot.fieldEntries)}"
        case "lift":
            bench.lift()
            return "{\"ok\":true}"
        case "fault":
            guard words.count == 2, let fault = BenchFault(rawValue: words[1]) else {
                return error("usage: fault none|slow|garbage|mute|unplug")
            }
            controls.fault = fault
            return "{\"ok\":true,\"fault\":\"\(fault.rawValue)\"}"
        case "antenna":
            guard let v = numbers(4), v[2] > 0, v[3] > 0 else { return error("usage: antenna X Y W H") }
            var phone = bench.snapshot.phone
            phone.antenna = (v[0], v[1], v[2], v[3])
            bench.setPhone(phone)
            return "{\"ok\":true}"
        case "technology":
            guard words.count == 2, ["A", "B"].contains(words[1]) else { return error("usage: technology A|B") }
            var phone = bench.snapshot.phone
            phone.technology = words[1] == "A" ? .iso14443A : .iso14443B
            bench.setPhone(phone)
            return "{\"ok\":true}"
        case "reader":
            // The phone as a reader (tag mode): it reads a tag to the end, stops sending after
            // N commands (a misbehaving phone), or leaves the field after N (pulled away
            // mid-read). Present and absent are place and lift.
            switch words.dropFirst().first {
            case "complete" where words.count == 2:
                bench.tagReaderAbortAfter = nil
                bench.tagReaderLeavesAfter = nil
            case "leave" where words.count == 3:
                guard let n = Int(words[2]), (1...1000).contains(n) else { return error("usage: reader leave N, N in 1...1000") }
                bench.tagReaderLeavesAfter = n
            case "abort" where words.count == 3:
                guard let n = Int(words[2]), (0...1000).contains(n) else { return error("usage: reader abort N, N in 0...1000") }
                bench.tagReaderAbortAfter = n
            default:
                return error("usage: reader complete | reader abort N | reader leave N")
            }
            let last = bench.snapshot.tagReads.last.map { String(describing: $0.outcome) } ?? "none"
            return "{\"ok\":true,\"abortAfter\":\(bench.tagReaderAbortAfter.map(String.init) ?? "null"),"
                + "\"lastRead\":\"\(last.replacingOccurrences(of: "\"", with: "'"))\"}"
        case "power-cycle":
            // The reader's firmware state back to power-on defaults (PICC parameter FF), as
            // after unplugging it: what a lab does to a reader left in a setting.
            controls.firmware { $0.piccParameter = 0xFF }
            return "{\"ok\":true}"
        case "status":
            return status()
        default:
            return error("unknown command; use place, lift, fault, antenna, technology, reader, power-cycle or status")
        }
    }

    private func status() -> String {
        let s = bench.snapshot
        let firmware = controls.firmware { $0 }
        let probe = s.probe.map { "[\($0.x),\($0.y)]" } ?? "null"
        let uid = s.target.map { "\"\(Hex.string($0.uid))\"" } ?? "null"
        let writes = firmware.piccWrites.map { "\"\(Hex.string([$0]))\"" }.joined(separator: ",")
        let leds = firmware.ledCommands.map { "\"\(Hex.string($0))\"" }.joined(separator: ",")
        return "{\"ok\":true,\"probe\":\(probe),\"uid\":\(uid),\"fieldEntries\":\(s.fieldEntries),"
            + "\"fault\":\"\(controls.fault.rawValue)\",\"picc\":\"\(Hex.string([firmware.piccParameter]))\","
            + "\"piccWrites\":[\(writes)],\"leds\":[\(leds)],\"apdus\":\(firmware.apduCount),"
            + "\"pn532\":\(pn532Link.map { "\"\($0)\"" } ?? "null"),"
            + "\"vpcdPort\":\(configuration.vpcdPort.map(String.init) ?? "null")}"
    }

    private func error(_ message: String) -> String { "{\"ok\":false,\"error\":\"\(message)\"}" }
}

/// Talks to a running bench's control socket.
public struct VirtualBenchClient: Sendable {
    public let socketPath: String

    public init(socketPath: String) { self.socketPath = socketPath }

    /// Sends one command and returns the reply line (a JSON object).
    public func send(_ command: String) throws -> String {
        let fd = try UnixSocket.connect(socketPath)
        defer { close(fd) }
        UnixSocket.writeLine(fd, command)
        guard let reply = UnixSocket.readLine(fd) else {
            throw BenchError(description: "the bench at \(socketPath) closed the connection")
        }
        return reply
    }

    /// Sends a command and decodes the reply, throwing when it says `ok: false`.
    public func request(_ command: String) throws -> [String: Any] {
        let reply = try send(command)
        guard let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any] else {
            throw BenchError(description: "unreadable reply: \(reply)")
        }
        if object["ok"] as? Bool != true {
            throw BenchError(description: object["error"] as? String ?? reply)
        }
        return object
    }
}
