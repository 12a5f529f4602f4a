import Foundation
import NFCReaders
import NFCSystem
import NFCTestSupport
import Testing

@testable import NFCVirtualBench

/// The emulated chip over its real pty, driven byte by byte as libnfc's pn532_uart
/// driver would, including the case that made libnfc tests flaky under load: the host
/// gives up on a command (its own timeout) and sends the next before the emulator
/// thread got to the first. A stale ACK and answer would then precede the new reply,
/// and libnfc reports "Command Code verification failed".
@Suite("Emulated PN532 over its pty")
struct PN532EmulatorTimingTests {
    /// The host side of the pty, raw, as libnfc configures it.
    final class Host {
        let fd: Int32
        init(_ path: String) throws {
            fd = open(path, O_RDWR | O_NOCTTY)
            guard fd >= 0 else { throw Errno.current }
            var tio = termios()
            tcgetattr(fd, &tio)
            cfmakeraw(&tio)
            tcsetattr(fd, TCSANOW, &tio)
        }
        deinit { close(fd) }

        func send(_ data: [UInt8]) {
            let frame = PN532Frame.information(tfi: PN532Frame.hostToChip, data: data).encoded()
            _ = frame.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }

        /// Everything the chip sends: at least `frames` whole frames (waited for up to 20 s:
        /// on a loaded machine the emulator's thread may answer late), then whatever else
        /// comes until it has been quiet for `quiet` (a stale answer would come right away).
        func drain(frames expected: Int, quiet: Duration = .milliseconds(300)) -> [UInt8] {
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 256)
            let deadline = ContinuousClock.now + .seconds(20)
            func milliseconds(_ d: Duration) -> Int32 {
                Int32(max(0, d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000))
            }
            while true {
                var decoder = PN532FrameDecoder()
                decoder.append(out)
                var complete = 0
                while let event = decoder.next() { if case .frame = event { complete += 1 } }
                let wait = complete < expected ? deadline - ContinuousClock.now : quiet
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard wait > .zero, poll(&pfd, 1, milliseconds(wait)) == 1 else { return out }
                let n = read(fd, &buffer, buffer.count)
                guard n > 0 else { return out }
                out += buffer.prefix(n)
            }
        }
    }

    func frames(_ bytes: [UInt8]) -> [PN532Frame] {
        var decoder = PN532FrameDecoder()
        decoder.append(bytes)
        var out: [PN532Frame] = []
        while let event = decoder.next() { if case .frame(let f) = event { out.append(f) } }
        return out
    }

    @Test func answersACommandWithAnACKThenItsReply() throws {
        let bench = try TestBench()
        let host = try Host(bench.bench.pn532Link!)
        host.send([0x02])  // GetFirmwareVersion
        #expect(frames(host.drain(frames: 2)) == [.ack, .information(tfi: 0xD5, data: [0x03, 0x32, 0x01, 0x06, 0x07])])
    }

    /// Two commands waiting when the emulator reads: only the second is answered.
    @Test func aCommandTheHostAbandonedIsNeverAnswered() throws {
        let bench = try TestBench()
        let host = try Host(bench.bench.pn532Link!)
        let firmware: [UInt8] = [0x02], status: [UInt8] = [0x04]
        // Both frames in one write: the emulator cannot have read the first alone.
        let both =
            PN532Frame.information(tfi: PN532Frame.hostToChip, data: firmware).encoded()
            + PN532Frame.information(tfi: PN532Frame.hostToChip, data: status).encoded()
        _ = both.withUnsafeBytes { write(host.fd, $0.baseAddress, $0.count) }
        let reply = frames(host.drain(frames: 2))
        #expect(reply.count == 2 && reply.first == .ack, "\(reply)")
        guard case .information(_, let data)? = reply.last else { Issue.record("no reply"); return }
        #expect(data.first == 0x05, "the reply must be GetGeneralStatus's (0x05), not the abandoned command's")
    }

    /// A poll the host aborts with an ACK is never answered, even if the phone arrives.
    @Test func anAbortedPollStaysSilent() throws {
        let bench = try TestBench()
        let host = try Host(bench.bench.pn532Link!)
        host.send([0x60, 0xFF, 0x01, 0x20])  // InAutoPoll forever
        #expect(frames(host.drain(frames: 1)) == [.ack])
        _ = PN532Frame.ack.encoded().withUnsafeBytes { write(host.fd, $0.baseAddress, $0.count) }
        #expect(host.drain(frames: 0, quiet: .milliseconds(100)).isEmpty)
        try bench.placeOverCoil()
        #expect(host.drain(frames: 0).isEmpty, "an aborted poll answered")
    }
}
