import Foundation
import NFCReaders
import NFCSystem
import Synchronization

/// A contactless target behind pcscd's `vpcd` reader driver (Debian `vsmartcard-vpcd`).
///
/// The card is a TCP client of vpcd on 127.0.0.1. vpcd frames every message as a
/// 2-byte big-endian length plus payload; 1-byte messages are control (00 power off,
/// 01 on, 02 reset, 04 ATR request; only 04 is answered). vpcd counts the card as
/// present while it is connected and answers the ATR request, so the card connects
/// only while the simulated phone couples with the reader, and reconnects for every
/// new field entry (a new random UID, as phones do).
///
/// vpcd is only the reader's transport: the ACR122U-style pseudo-APDUs (`FF CA` for
/// UID/ATS, `FF 00 50/51` for the PICC operating parameter, `FF 00 48` for the firmware's
/// name, `FF 00 40` for LED and buzzer) are answered here, on behalf of the reader firmware.
///
/// So is Direct Transmit (`FF 00 00 00 Lc D4 ...`): the reader's PN532 is a `PN532Chip` of
/// its own, whose analog settings (RFConfiguration item 0x0A) decide whether the phone
/// answers, as on the pty reader. With the firmware's auto polling on (PICC parameter bit
/// 7), the card is present while that chip's field reaches the phone. With it off, the
/// firmware no longer polls: the host polls through Direct Transmit, and the card link,
/// once up, stays up as the host's way to the reader whatever the phone does. A real
/// ACR122U is then reached with `SCardControl`, which vpcd does not pass (its IFDHControl
/// answers IFD_ERROR_NOT_SUPPORTED), so the link stands in for it.
public final class VPCDCard: Sendable {
    public let port: UInt16
    /// What the virtual card answers for `FF 00 48 00 00` on behalf of the reader
    /// firmware: plainly not a real reader's.
    public static let firmwareName = "nfcbench virtual 1.0"
    private let bench: PhoneOnBench
    private let controls: BenchControls
    private let worker = BenchWorker(name: "vpcd-card")
    /// The reader's own PN532, driven by Direct Transmit.
    private let chip: Mutex<PN532Chip>

    /// The reader chip's item 0x0A now, as the host left it.
    public var analogSettings: [UInt8] { chip.withLock { $0.analogSettings } }

    public init(bench: PhoneOnBench, controls: BenchControls, port: UInt16) {
        self.bench = bench
        self.controls = controls
        self.port = port
        chip = Mutex(PN532Chip(bench: bench, notesField: false))
    }

    /// Whether the firmware polls by itself (PICC parameter bit 7).
    private var autoPolling: Bool { controls.firmware { $0.piccParameter } & 0x80 != 0 }

    /// The phone as the firmware's own polling sees it: coupled, and reached by the
    /// chip's field as its analog settings make it.
    private func polledTarget() -> SimulatedTarget? {
        guard let target = bench.visibleTarget(), chip.withLock({ $0.fieldReachesPhone() }) else { return nil }
        return target
    }

    /// The reader's chip back to its power-up state, as after a replug.
    public func powerCycle() { chip.withLock { $0 = PN532Chip(bench: bench, notesField: false) } }

    private func trace(_ message: @autoclosure () -> String) { worker.trace(message()) }

    public func start() { worker.start { [self] in run() } }

    public func stop() { worker.stop() }

    private func run() {
        var socket: OwnedFileDescriptor?
        var connectedEntry = -1
        var target: SimulatedTarget?
        while !worker.shouldStop {
            let fault = controls.fault
            let visible = fault == .unplug || fault == .mute ? nil : polledTarget()
            // The host polls for itself: an open link is its way to the reader, not the phone.
            if let link = socket?.descriptor, fault == .none, !autoPolling {
                serve(link, &socket, target: target)
                continue
            }
            // A garbling or slow reader shows even with no phone on it: vpcd then sees a
            // "card" whose answer to reset is broken or late, as pcscd sees a faulty
            // reader link, so the fault never passes for an empty field.
            let broken = visible == nil && (fault == .garbage || fault == .slow || fault == .mute)
            let entry = bench.snapshot.fieldEntries
            if socket != nil, (visible == nil && !broken) || (visible != nil && (entry != connectedEntry || target == nil)) {
                trace("phone left the field or the fault cleared: disconnecting")
                socket = nil
            }
            if socket == nil, visible != nil || broken {
                socket = try? LoopbackTCP.connect(port: port, timeoutMs: 200)
                connectedEntry = entry
                target = visible
                if socket == nil { usleep(20_000); continue }
                trace(
                    "connected to vpcd on 127.0.0.1:\(port) "
                        + (visible.map { "as UID \(Hex.string($0.uid))" } ?? "as a faulty reader"))
            }
            guard let link = socket?.descriptor else { usleep(5_000); continue }
            serve(link, &socket, target: target)
        }
    }

    /// Answers one message from vpcd, if one arrives within 5 ms.
    private func serve(_ link: FileDescriptor, _ socket: inout OwnedFileDescriptor?, target: SimulatedTarget?) {
        guard (try? link.waitUntilReadable(timeoutMs: 5)) == true else { return }
        guard let message = receive(link) else {
            trace("vpcd closed the connection")
            socket = nil
            return
        }
        trace("<- \(Hex.string(message, separator: " "))")
        LoopbackTCP.acknowledgeQuickly(link)
        if message.count == 1 {
            guard message[0] == 0x04 else { return }
            // With no phone, a slow or garbling reader link shows at once as a card whose
            // answer to reset is cut short (pcscd sees a broken card, never an empty field);
            // with the phone, the reader's own answer to reset stays prompt and the
            // phone's APDU answers come late or garbled (below).
            // Garbage: an ATR cut short after TS, which no card sends.
            send(link, target?.atr ?? [0x3B])
            return
        }
        guard let current = target else { send(link, [0x6F, 0x00]); return }
        if controls.fault == .slow { usleep(600_000) }
        var answer = respond(to: message, target: current)
        if controls.fault == .garbage { answer = [0x6F] }
        send(link, answer)
    }

    /// An R-APDU for one C-APDU.
    func respond(to apdu: [UInt8], target: SimulatedTarget) -> [UInt8] {
        controls.firmware { $0.apduCount += 1 }
        let ok: [UInt8] = [0x90, 0x00]
        guard apdu.count >= 4 else { return [0x67, 0x00] }
        switch (apdu[0], apdu[1], apdu[2], apdu[3]) {
        case (0xFF, 0xCA, 0x00, 0x00):
            return target.uid + ok
        case (0xFF, 0xCA, 0x01, 0x00):
            return target.technology == .iso14443A ? [UInt8(target.ats.count + 1)] + target.ats + ok : [0x6A, 0x81]
        case (0xFF, 0x00, 0x50, 0x00):
            return [0x90, controls.firmware { $0.piccParameter }]
        case (0xFF, 0x00, 0x51, let value):
            controls.firmware {
                $0.piccParameter = value
                $0.piccWrites.append(value)
            }
            return [0x90, value]
        case (0xFF, 0x00, 0x00, 0x00):
            return directTransmit(apdu)
        case (0xFF, 0x00, 0x48, 0x00):
            // The firmware's name, as an ACR122U answers it: ASCII, no status word.
            return Array(Self.firmwareName.utf8)
        case (0xFF, 0x00, 0x40, let led):
            controls.firmware { $0.ledCommands.append(apdu) }
            return [0x90, led & 0x0F]
        case (0x00, 0xA4, 0x04, _):
            return target.answer(toSelect: apdu)
        default:
            return [0x6D, 0x00]
        }
    }

    /// A PN532 command for the reader's chip, answered `D5 (code + 1) ... 90 00`, or
    /// `63 00` (the operation failed) as the ACR122U answers what its chip refused. A
    /// command that waits for a target (InAutoPoll) is held until it answers or ends, as
    /// the firmware holds the APDU; one that would wait forever gives up after 5 s.
    private func directTransmit(_ apdu: [UInt8]) -> [UInt8] {
        let failed: [UInt8] = [0x63, 0x00]
        guard apdu.count >= 7, Int(apdu[4]) == apdu.count - 5, apdu[5] == 0xD4 else { return failed }
        let command = Array(apdu[6...])
        var reply = chip.withLock { $0.receive(command, now: bench.clock.now) }
        let giveUp = bench.clock.now + .seconds(5)
        while case .pending(let waiting) = reply {
            if let answer = chip.withLock({ $0.poll(waiting, now: bench.clock.now) }) {
                reply = .respond(answer)
            } else if bench.clock.now >= giveUp {
                return failed
            } else {
                usleep(5_000)
            }
        }
        guard case .respond(let data) = reply else { return failed }
        return [0xD5, command[0] &+ 1] + data + [0x90, 0x00]
    }

    /// One vpcd message: a 2-byte big-endian length, then that many bytes.
    private func receive(_ link: FileDescriptor) -> [UInt8]? {
        guard let header = try? link.receiveExactly(2) else { return nil }
        let length = Int(header[0]) << 8 | Int(header[1])
        return length == 0 ? [] : (try? link.receiveExactly(length)) ?? nil
    }

    private func send(_ link: FileDescriptor, _ payload: [UInt8]) {
        try? link.send([UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload)
    }
}
