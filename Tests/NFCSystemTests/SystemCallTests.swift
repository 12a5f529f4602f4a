import Foundation
import Glibc
import NFCSystem
import Synchronization
import Testing

@Suite("System calls")
struct SystemCallTests {
    @Test func anInterruptedCallIsRetriedAndOtherFailuresThrowTheirErrno() throws {
        var attempts = 0
        let result = try retryingOnInterrupt { () -> Int32 in
            attempts += 1
            if attempts < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && attempts == 3)
        do {
            try retryingOnInterrupt { () -> Int32 in
                errno = ENOSPC
                return -1
            }
            Issue.record("a failure was not thrown")
        } catch Errno.noSpace {
            // Caught by value, as callers do.
        } catch {
            Issue.record("threw \(error)")
        }
        #expect(Errno.noSpace.description == String(cString: strerror(ENOSPC)))
    }

    @Test func bytesGoThroughAPipeWholeAndEndOfFileIsEmpty() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let reading = OwnedFileDescriptor(taking: ends[0])
        let payload = [UInt8]((0..<100_000).map { UInt8($0 % 251) })  // more than a pipe holds
        let done = Mutex(false)
        // The write end lives only in the writer: when it has written all, it goes, and closes.
        let writeEnd = ends[1]
        let writer = Thread {
            let writing = OwnedFileDescriptor(taking: writeEnd)
            try? writing.descriptor.writeAll(payload)
            done.withLock { $0 = true }
        }
        writer.start()
        var received: [UInt8] = []
        while true {
            let chunk = try reading.descriptor.read(upTo: 4096)
            if chunk.isEmpty { break }  // end of file: the writer's descriptor was closed
            received += chunk
        }
        #expect(received == payload && done.withLock { $0 })
    }

    @Test func anOwnedDescriptorIsClosedWhenItGoes() throws {
        var raw: Int32 = -1
        do {
            let file = try OwnedFileDescriptor.open("/dev/null", O_RDONLY)
            raw = file.rawValue
            #expect(fcntl(raw, F_GETFD) >= 0)
            #expect(fcntl(raw, F_GETFD) & FD_CLOEXEC != 0, "never inherited by a child")
        }
        #expect(fcntl(raw, F_GETFD) == -1 && errno == EBADF)
        #expect(throws: Errno.noSuchFile) { try OwnedFileDescriptor.open("/nonexistent/nfcbench", O_RDONLY) }
    }

    @Test func aPseudoTerminalCarriesRawBytesBothWaysAndItsLockIsExclusive() throws {
        let (master, slave) = try SerialPort.pseudoTerminal()
        // Bytes a raw line must not touch: CR, LF, XON/XOFF, ^C, NUL.
        let frame: [UInt8] = [0x00, 0x00, 0xFF, 0x0D, 0x0A, 0x11, 0x13, 0x03, 0xD4, 0x02]
        try master.descriptor.writeAll(frame)
        var seen: [UInt8] = []
        while seen.count < frame.count, try slave.descriptor.waitUntilReadable(timeoutMs: 2000) {
            seen += try slave.descriptor.read(upTo: 64)
        }
        #expect(seen == frame)
        try slave.descriptor.writeAll([0xD5, 0x03])
        #expect(try master.descriptor.waitUntilReadable(timeoutMs: 2000))
        #expect(try master.descriptor.read(upTo: 64) == [0xD5, 0x03], "no echo, no translation")
        // A client opening the slave as a serial port takes the lock; a second is refused.
        let port = try SerialPort.open(slave.path)
        #expect(throws: Errno.wouldBlock) { try SerialPort.lock(slave.path) }
        _ = port
        #expect(throws: Errno(rawValue: EINVAL)) { try SerialPort.open(slave.path, baud: 12_345) }
    }

    @Test func blockingWorkRunsOffTheCooperativePoolInOrder() async throws {
        var order: [Int] = []
        for i in 0..<20 { order.append(await BlockingWork.run("nfcbench.test") { i }) }
        #expect(order == Array(0..<20))
        let executor = SerialQueueExecutor(label: "nfcbench.test.executor")
        #expect(try await executor.run { 42 } == 42)
    }
}
