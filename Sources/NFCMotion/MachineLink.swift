import Foundation
import NFCReaders
import NFCRig
import NFCSystem
import Synchronization

/// Set from another thread (Ctrl-C) to stop a blocking exchange at its next look.
public final class StopRequest: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public func request() { flag.store(true, ordering: .relaxed) }
    public var isRequested: Bool { flag.load(ordering: .relaxed) }
}

/// The serial conversation with a G-code machine: send-response flow control (one line,
/// then its `ok` or `error:N`), GRBL's single-byte real-time commands, and the pushes that
/// may arrive between (alarms, a reset banner, Marlin's `busy:`). Every call blocks, so it
/// runs on a thread of its own (`GCodeMachine`); each one looks at its `StopRequest`
/// every 50 ms and halts the machine when asked to stop.
public final class MachineLink: Sendable {
    public let port: SerialPort
    public let dialect: MachineDialect
    /// Bytes after the last complete line.
    private let pending = Mutex<[UInt8]>([])
    /// Every line sent and received, newest last (at most 200), for an error's context.
    private let transcript = Mutex<[String]>([])
    static let look: Int32 = 50

    public init(port: SerialPort, dialect: MachineDialect) {
        self.port = port
        self.dialect = dialect
    }

    /// Opens the machine's serial port; a port another program holds is refused.
    public static func open(_ path: String, baud: Int, dialect: MachineDialect) throws(MachineError) -> MachineLink {
        do {
            return MachineLink(port: try SerialPort.open(path, baud: baud), dialect: dialect)
        } catch .wouldBlock {
            throw .port("\(path) is in use by another program (a G-code sender?); close it first")
        } catch .noSuchFile {
            throw .port("no machine at \(path): check the cable and the device name ('ls /dev/serial/by-id')")
        } catch .permissionDenied {
            throw .port("no permission to open \(path): add yourself to the 'dialout' group and log in again")
        } catch {
            throw .port("cannot open \(path): \(error)")
        }
    }

    public var recentLines: [String] { transcript.withLock { $0 } }

    /// Sends one line and waits for its `ok`, returning the lines that came before it
    /// (a Marlin `M114`'s position, GRBL's `[MSG:...]`). An alarm, a refusal, a reset or
    /// silence past `timeout` throws; Marlin's `busy:` keeps the wait going.
    @discardableResult
    public func send(_ line: String, timeout: Duration, stop: StopRequest) throws(MachineError) -> [String] {
        try write(Array((line + "\n").utf8), logged: "> " + line)
        var messages: [String] = []
        let deadline = ContinuousClock.now + timeout
        while true {
            guard let reply = try nextLine(until: deadline, stop: stop) else {
                throw .noAnswer(to: line, seconds: timeout.seconds)
            }
            switch MachineReply(reply, dialect: dialect) {
            case .ok: return messages
            case .error(let code): throw .refused(line: line, code: code)
            case .alarm(let code): throw .alarm(code: code)
            case .reset(let banner): throw .reset(banner: banner)
            case .failure(let text): throw .firmware(text)
            case .busy, .status: continue
            case .message(let text): messages.append(text)
            }
        }
    }

    /// GRBL's `?`: the state word and machine position, without disturbing a move.
    public func status(timeout: Duration, stop: StopRequest) throws(MachineError) -> (state: String, position: [Double]?) {
        try write([UInt8(ascii: "?")], logged: "> ?")
        let deadline = ContinuousClock.now + timeout
        while true {
            guard let reply = try nextLine(until: deadline, stop: stop) else {
                throw .noAnswer(to: "?", seconds: timeout.seconds)
            }
            switch MachineReply(reply, dialect: dialect) {
            case .status(let state, let position): return (state, position)
            case .alarm(let code): throw .alarm(code: code)
            case .reset(let banner): throw .reset(banner: banner)
            default: continue
            }
        }
    }

    /// Stops the machine at once: GRBL's feed hold (`!`), then, once the machine reports
    /// it has stopped, a soft reset (Ctrl-X), so the planner is emptied and the position
    /// kept; Marlin's quick stop (`M410`), which its emergency parser acts on ahead of the
    /// queue. Best effort: the port may be gone.
    public func halt() {
        switch dialect {
        case .grbl:
            try? write([UInt8(ascii: "!")], logged: "> ! (feed hold)")
            waitUntilHeld(within: .seconds(3))
            try? write([0x18], logged: "> Ctrl-X (soft reset)")
        case .marlin:
            try? write(Array("M410\n".utf8), logged: "> M410 (quick stop)")
        }
    }

    /// Asks GRBL's state (`?`) until it says the head stands: `Hold:0` (decelerated and
    /// held), `Idle` or an alarm. A reset while it still decelerates (`Hold:1`, or `Run`
    /// before the hold took) cuts a motion: alarm 3, the position lost. A fixed pause did
    /// not know how long a fast move takes to stop. At most `bound`, then it resets anyway.
    private func waitUntilHeld(within bound: Duration) {
        let deadline = ContinuousClock.now + bound
        let listen = StopRequest()  // never requested: this wait is the halt itself
        while ContinuousClock.now < deadline {
            guard (try? write([UInt8(ascii: "?")], logged: "> ? (is it held?)")) != nil else { return }
            let answered = min(deadline, ContinuousClock.now + .milliseconds(100))
            while let line = try? nextLine(until: answered, stop: listen) {
                // The raw report: `MachineReply` keeps the state word, not Hold's sub-state.
                guard line.hasPrefix("<") else { continue }
                if line.hasPrefix("<Hold:0") || line.hasPrefix("<Idle") || line.hasPrefix("<Alarm") { return }
                break  // still stopping: ask again
            }
        }
    }

    /// Discards whatever the machine sent so far (a banner from a board that resets when
    /// its port opens), waiting `quiet` for more.
    public func drain(quiet: Duration) {
        let deadline = ContinuousClock.now + quiet
        while (try? nextLine(until: deadline, stop: StopRequest())) ?? nil != nil {}
    }

    /// Reads what the machine said since the last exchange, without waiting: an alarm, a
    /// firmware error or a reset pushed while nothing was asked is reported now, before
    /// the next move; anything else (a late `ok`, a message) is dropped.
    public func checkStale() throws(MachineError) {
        while let line = try nextLine(until: ContinuousClock.now + .milliseconds(2), stop: StopRequest()) {
            switch MachineReply(line, dialect: dialect) {
            case .alarm(let code): throw .alarm(code: code)
            case .reset(let banner): throw .reset(banner: banner)
            case .failure(let text): throw .firmware(text)
            default: continue
            }
        }
    }

    /// Sends raw bytes (a real-time command, a line already ended).
    public func write(_ bytes: [UInt8], logged: String) throws(MachineError) {
        remember(logged)
        var rest = bytes[...]
        let deadline = ContinuousClock.now + .seconds(2)
        while !rest.isEmpty {
            do {
                let written = try rest.withUnsafeBytes { buffer in
                    Result { () throws(Errno) in try port.descriptor.write(buffer) }
                }.get()
                rest = rest.dropFirst(written)
            } catch .wouldBlock {
                guard ContinuousClock.now < deadline else { throw .port("the machine stopped taking data on \(port.path)") }
                usleep(1000)
            } catch {
                throw .port("writing to \(port.path) failed: \(error) (was the cable pulled?)")
            }
        }
    }

    /// The next complete line, or `nil` at `deadline`. A stop request halts the machine
    /// and throws `.interrupted`.
    public func nextLine(until deadline: ContinuousClock.Instant, stop: StopRequest) throws(MachineError) -> String? {
        while true {
            if let line = takeLine() {
                if line.isEmpty { continue }
                remember("< " + line)
                return line
            }
            if stop.isRequested {
                halt()
                throw .interrupted
            }
            let now = ContinuousClock.now
            if now >= deadline { return nil }
            let left = deadline - now
            let wait = min(Self.look, Int32(max(1, left.seconds * 1000)))
            let bytes: [UInt8]
            do throws(Errno) {
                guard try port.descriptor.waitUntilReadable(timeoutMs: wait) else { continue }
                bytes = try port.descriptor.read(upTo: 512)
            } catch .wouldBlock {
                continue
            } catch {
                throw .port("reading \(port.path) failed: \(error) (was the cable pulled?)")
            }
            if bytes.isEmpty { throw .port("\(port.path) was closed (was the cable pulled?)") }
            pending.withLock { $0 += bytes }
        }
    }

    private func takeLine() -> String? {
        pending.withLock { buffer in
            guard let end = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let line = String(decoding: buffer[..<end], as: UTF8.self).trimmingCharacters(in: ["\r", " "])
            buffer.removeSubrange(...end)
            return line
        }
    }

    private func remember(_ line: String) {
        transcript.withLock { lines in
            lines.append(line)
            if lines.count > 200 { lines.removeFirst(lines.count - 200) }
        }
    }
}
