import NFCBench
import NFCBenchUseCases
import NFCReaders
import Synchronization
import Testing

/// A reader that only counts how often it was closed, and which is the current one.
final class CountingReader: Reader {
    let info: ReaderInfo
    let closes = Mutex(0)
    init(_ name: String) { info = ReaderInfo(backend: .sim, name: name, spec: "sim", firmware: nil) }
    func waitForTarget(timeout: Duration) async throws(ReaderError) -> DetectedTarget? {
        do { try await Task.sleep(for: timeout) } catch { throw .cancelled(info.name) }
        return nil
    }
    func waitForRemoval(timeout: Duration) async throws(ReaderError) -> Bool { true }
    func fieldOccupant() async throws(ReaderError) -> DetectedTarget? { nil }
    func close() async { closes.withLock { $0 += 1 } }
    var closeCount: Int { closes.withLock { $0 } }
}

@Suite("Reader scope")
struct ReaderScopeTests {
    @Test func closesOnReturnAndOnThrow() async throws {
        struct Boom: Error {}
        let reader = CountingReader("a")
        #expect(try await ReaderScope.using(ReaderHolder(reader)) { _ in 7 } == 7)
        #expect(reader.closeCount == 1)
        await #expect(throws: Boom.self) { try await ReaderScope.using(ReaderHolder(reader)) { _ in throw Boom() } }
        #expect(reader.closeCount == 2)
    }

    @Test func aCancelledWaitStillClosesTheReader() async throws {
        let reader = CountingReader("b")
        let task = Task {
            try await ReaderScope.using(ReaderHolder(reader)) { readers in
                try await readers.current.waitForTarget(timeout: .seconds(60))
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        await #expect(throws: ReaderError.self) { try await task.value }
        #expect(reader.closeCount == 1)
    }
}
