import Foundation
import NFCReaders
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
/// UID/ATS, `FF 00 50/51` for the PICC operating parameter, `FF 00 40` for LED and
/// buzzer) are answered here, on behalf of the reader firmware.
public final class VPCDCard: Sendable {
    public let port: UInt16
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
        var socket: Int32 = -1
        var connectedEntry = -1
        var target: SimulatedTarget?
        defer { if socket >= 0 { close(socket) } }
        while !worker.shouldStop {
            let fault = controls.fault
            let visible = fault == .unplug || fault == .mute ? nil : bench.visibleTarget()
            // A garbling or slow reader shows even with no phone on it: vpcd then sees a
            // "card" whose answer to reset is broken or late, as pcscd sees a faulty
            // reader link, so the fault never passes for an empty field.
            let broken = visible == nil && (fault == .garbage || fault == .slow || fault == .mute)
            let entry = bench.snapshot.fieldEntries
            if socket >= 0, (visible == nil && !broken) || (visible != nil && (entry != connectedEntry || target == nil)) {
                trace("phone left the field or the fault cleared: disconnecting")
                close(socket)
                socket = -1
            }
            if socket < 0, visible != nil || broken {
                socket = connect()
                connectedEntry = entry
                target = visible
                if socket < 0 { usleep(20_000); continue }
                trace(
                    "connected to vpcd on 127.0.0.1:\(port) "
                        + (visible.map { "as UID \(Hex.string($0.uid))" } ?? "as a faulty reader"))
            }
            guard socket >= 0 else { usleep(5_000); continue }
            var pfd = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 5) > 0 else { continue }
            guard let message = receive(socket) else {
                trace("vpcd closed the connection")
                close(socket)
                socket = -1
                continue
            }
            trace("<- \(Hex.string(message, separator: " "))")
            quickAck(socket)
            if message.count == 1 {
                guard message[0] == 0x04 else { continue }
                // With no phone, a slow or garbling reader link shows at once as a card whose
                // answer to reset is cut short (pcscd sees a broken card, never an empty field);
                // with the phone, the reader's own answer to reset stays prompt and the
                // phone's APDU answers come late or garbled (below).
                // Garbage: an ATR cut short after TS, which no card sends.
                send(socket, target?.atr ?? [0x3B])
                continue
            }
            guard let current = target else { send(socket, [0x6F, 0x00]); continue }
            if controls.fault == .slow { usleep(600_000) }
            var answer = respond(to: message, target: current)
            if controls.fault == .garbage { answer = [0x6F] }
            send(socket, answer)
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
        case (0xFF, 0x00, 0x40, let led):
            controls.firmware { $0.ledCommands.append(apdu) }
            return [0x90, led & 0x0F]
        case (0x00, 0xA4, 0x04, _):
            return [0x6A, 0x82]  // SELECT of an AID the phone does not host
        default:
            return [0x6D, 0x00]
        }
    }

    private func connect() -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return -1 }
        // Non-blocking connect with a deadline: vpcd listens with a backlog of 0 and
        // accepts only from its presence poll, so a connect can hang; a hung connect
        // must not keep the bench from stopping.
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian  // 127.0.0.1 only
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            guard errno == EINPROGRESS else { close(fd); return -1 }
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard poll(&pfd, 1, 200) == 1, getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else {
                close(fd)
                return -1
            }
        }
        _ = fcntl(fd, F_SETFL, flags)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        quickAck(fd)
        return fd
    }

    /// Without TCP_QUICKACK each APDU waits for a delayed ACK (~40 ms). Linux clears the
    /// flag after use, so it is set again after every read.
    private func quickAck(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    private func receive(_ fd: Int32) -> [UInt8]? {
        guard let header = readExactly(fd, 2) else { return nil }
        let length = Int(header[0]) << 8 | Int(header[1])
        return length == 0 ? [] : readExactly(fd, length)
    }

    private func readExactly(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let n = buffer[offset...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            offset += n
        }
        return buffer
    }

    private func send(_ fd: Int32, _ payload: [UInt8]) {
        let message = [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
        _ = message.withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
