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
public final class VPCDCard: Sendable {
    public let port: UInt16
    /// What the virtual card answers for `FF 00 48 00 00` on behalf of the reader
    /// firmware: plainly not a real reader's.
    public static let firmwareName = "nfcbench virtual 1.0"
    private let bench: PhoneOnBench
    private let controls: BenchControls
    private let worker = BenchWorker(name: "vpcd-card")

    public init(bench: PhoneOnBench, controls: BenchControls, port: UInt16) {
        self.bench = bench
        self.controls = controls
        self.port = port
    }

    private func trace(_ message: @autoclosure () -> String) { worker.trace(message()) }

    public func start() { worker.start { [self] in run() } }

    public func stop() { worker.stop() }

    private func run() {
        var socket: OwnedFileDescriptor?
        var connectedEntry = -1
        var target: SimulatedTarget?
        while !worker.shouldStop {
            let fault = controls.fault
            let visible = fault == .unplug || fault == .mute ? nil : bench.visibleTarget()
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
            guard (try? link.waitUntilReadable(timeoutMs: 5)) == true else { continue }
            guard let message = receive(link) else {
                trace("vpcd closed the connection")
                socket = nil
                continue
            }
            trace("<- \(Hex.string(message, separator: " "))")
            LoopbackTCP.acknowledgeQuickly(link)
            if message.count == 1 {
                guard message[0] == 0x04 else { continue }
                // With no phone, a slow or garbling reader link shows at once as a card whose
                // answer to reset is cut short (pcscd sees a broken card, never an empty field);
                // with the phone, the reader's own answer to reset stays prompt and the
                // phone's APDU answers come late or garbled (below).
                // Garbage: an ATR cut short after TS, which no card sends.
                send(link, target?.atr ?? [0x3B])
                continue
            }
            guard let current = target else { send(link, [0x6F, 0x00]); continue }
            if controls.fault == .slow { usleep(600_000) }
            var answer = respond(to: message, target: current)
            if controls.fault == .garbage { answer = [0x6F] }
            send(link, answer)
        }
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
