import Foundation
import NFCReaders
import Synchronization

/// An emulated PN532 on a pseudo-terminal, for libnfc's `pn532_uart` driver.
///
/// One dedicated thread owns the pty, the frame decoder and the chip; nothing else
/// touches them. Set `NFCBENCH_SIM_LOG=1` to log every frame in both directions.
public final class PN532Emulator: Sendable {
    public let linkPath: String
    private let bench: PhoneOnBench
    private let controls: BenchControls
    private let worker = BenchWorker(name: "pn532-emulator")
    private let polls = Atomic<Int>(0)

    /// How many polls (InAutoPoll, InListPassiveTarget) the host has started waiting on:
    /// tests wait for it to grow instead of guessing when a poll is under way.
    public var pollsStarted: Int { polls.load(ordering: .acquiring) }
    private let analog = Mutex(AnalogProfile.pn532Default.settings)

    /// The chip's RFConfiguration item 0x0A as last set: what tests check a session left.
    public var analogSettings: [UInt8] { analog.withLock { $0 } }

    public init(bench: PhoneOnBench, controls: BenchControls, linkPath: String) {
        self.bench = bench
        self.controls = controls
        self.linkPath = linkPath
    }

    /// The connstring libnfc users pass: `pn532_uart:<link>`.
    public var connstring: String { "pn532_uart:\(linkPath)" }

    /// Creates the pty (so the link exists when this returns) and starts serving.
    public func start() throws {
        let pty = try PseudoTerminal(linkPath: linkPath)
        let box = Box(pty)
        worker.start { [self] in run(box.value) }
    }

    public func stop() {
        worker.stop()
        unlink(linkPath)
    }

    private func run(_ initial: PseudoTerminal) {
        var pty: PseudoTerminal? = initial
        var chip = PN532Chip(bench: bench)
        var decoder = PN532FrameDecoder()
        var pending: PN532Chip.PendingCommand?
        var lastResponse: [UInt8] = []
        var muted = false
        defer { pty?.close() }
        while !worker.shouldStop {
            let fault = controls.fault
            // A mute PN532 is brought back by replugging it (a real one that stopped
            // mid-command never sends the ACK libnfc waits for): clearing the fault
            // replugs, so the host sees its port vanish and come back.
            if muted && fault != .mute, let open = pty {
                open.close()
                unlink(linkPath)
                pty = nil
                pending = nil
                trace("mute cleared: replugged")
            }
            muted = fault == .mute
            if fault == .unplug {
                if let open = pty {
                    open.close()
                    unlink(linkPath)
                    pty = nil
                    pending = nil
                    trace("unplugged")
                }
                usleep(10_000)
                continue
            }
            guard let link = pty ?? replug() else { usleep(50_000); continue }
            if pty == nil {
                pty = link
                chip = PN532Chip(bench: bench)  // a replugged chip powers up with its defaults
                analog.withLock { $0 = chip.analogSettings }
                decoder = PN532FrameDecoder()
                trace("replugged as \(link.slavePath)")
            }
            guard var bytes = link.read(timeoutMs: 5) else { continue }
            if controls.fault == .mute {
                // Silent: what the host sent is swallowed, a pending poll is never answered.
                if !bytes.isEmpty { trace("mute: \(bytes.count) bytes from the host left unanswered") }
                decoder = PN532FrameDecoder()
                pending = nil
                continue
            }
            if !bytes.isEmpty {
                // Take everything the host has sent so far before answering anything.
                while let more = link.read(timeoutMs: 0), !more.isEmpty { bytes += more }
                decoder.append(bytes)
                var events: [PN532FrameDecoder.Event] = []
                while let event = decoder.next() { events.append(event) }
                // libnfc sends a command only after the previous one was answered or given
                // up on (its own timeout, or an ACK to abort). So when this thread wakes up
                // late and finds two commands waiting, the host has abandoned the first:
                // answering it now would put a valid ACK and a stale answer in front of the
                // second command's reply ("Command Code verification failed"). The chip
                // answers in time; its emulation answers only the command the host still
                // waits for, and a new command or an ACK cancels a pending poll.
                var current = events.lastIndex { event in
                    if case .frame(.information(let tfi, _)) = event { return tfi == PN532Frame.hostToChip }
                    return false
                }
                // An ACK after it means the host aborted that one too.
                if let last = current, events[(last + 1)...].contains(.frame(.ack)) { current = nil }
                for (index, event) in events.enumerated() {
                    switch event {
                    case .corrupt(let reason):
                        trace("host frame dropped: \(reason)")
                    case .frame(.ack):
                        if pending != nil { trace("<- ACK: command aborted") }
                        pending = nil
                    case .frame(.nack):
                        link.write(lastResponse)
                    case .frame(.applicationError):
                        break
                    case .frame(.information(let tfi, let data)):
                        guard tfi == PN532Frame.hostToChip, let command = data.first else { continue }
                        trace("<- \(Hex.string(data, separator: " "))")
                        if let superseded = pending {
                            trace("command \(Hex.string([superseded.command])) superseded by a new command")
                            pending = nil
                        }
                        guard index == current else {
                            trace("command \(Hex.string([command])) abandoned by the host before it was read")
                            continue
                        }
                        if command == 0x8E, controls.pullsAtThisTargetAnswer() {
                            controls.fault = .unplug  // the next turn closes the port
                            trace("unplugged as the host sent TgSetData")
                            continue
                        }
                        link.write(PN532Frame.ack.encoded())
                        let reply = chip.receive(data, now: bench.clock.now)
                        analog.withLock { $0 = chip.analogSettings }
                        switch reply {
                        case .respond(let reply):
                            chip.waitForAirTime()
                            lastResponse = respond(command, reply, on: link, fault: fault)
                        case .syntaxError:
                            lastResponse = PN532Frame.applicationError.encoded()
                            link.write(lastResponse)
                        case .pending(let waiting):
                            pending = waiting
                            polls.add(1, ordering: .releasing)
                            bench.notePollStarted()
                            if command == 0x8C, let injected = controls.takeFaultAtTargetInit() {
                                controls.fault = injected
                                trace("fault \(injected.rawValue) as the chip waits as a target")
                            }
                        }
                    }
                }
                continue  // look for more input before answering anything still pending
            }
            if let waiting = pending, let reply = chip.poll(waiting, now: bench.clock.now) {
                pending = nil
                chip.waitForAirTime()
                lastResponse = respond(waiting.command, reply, on: link, fault: controls.fault)
            }
        }
    }

    private func replug() -> PseudoTerminal? { try? PseudoTerminal(linkPath: linkPath) }

    private func respond(_ command: UInt8, _ reply: [UInt8], on link: PseudoTerminal, fault: BenchFault) -> [UInt8] {
        var frame = PN532Frame.information(tfi: PN532Frame.chipToHost, data: [command &+ 1] + reply).encoded()
        if command == 0x60, let stall = controls.takePollStall() {
            trace("poll answer held back \(stall)")
            usleep(UInt32(stall.seconds * 1_000_000))
        }
        switch fault {
        case .slow: usleep(600_000)
        case .garbage:
            frame[frame.count - 2] ^= 0x5A  // break the data checksum
            frame.insert(contentsOf: [0x13, 0x37], at: 3)
        case .none, .unplug, .mute: break
        }
        trace("-> \(Hex.string([command &+ 1] + reply, separator: " "))")
        link.write(frame)
        return frame
    }

    private func trace(_ message: @autoclosure () -> String) { worker.trace(message()) }
}

/// Hands a non-Sendable value to the thread that will own it from then on.
final class Box<T>: @unchecked Sendable {
    // @unchecked: the value is created on one thread and only ever used by the one
    // thread it is handed to; no two threads touch it.
    let value: T
    init(_ value: T) { self.value = value }
}
