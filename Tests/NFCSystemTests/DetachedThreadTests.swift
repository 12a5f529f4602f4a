import Dispatch
import Glibc
import NFCSystem
import Synchronization
import Testing

@Suite struct DetachedThreadTests {
    /// The body runs once, on a thread that is not the caller's, and what it captured is
    /// released when it ends (the box that carried it is not leaked).
    @Test func theBodyRunsOnceOnAThreadOfItsOwnAndItsCaptureIsReleased() throws {
        final class Witness: Sendable {
            let released: DispatchSemaphore
            init(_ released: DispatchSemaphore) { self.released = released }
            deinit { released.signal() }
        }
        let ran = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        let runs = Atomic<Int>(0)
        let caller = pthread_self()
        let bodyThread = Atomic<UInt>(0)
        do {
            let witness = Witness(released)
            try DetachedThread.start {
                _ = witness
                runs.add(1, ordering: .sequentiallyConsistent)
                bodyThread.store(pthread_self(), ordering: .sequentiallyConsistent)
                ran.signal()
            }
        }
        #expect(ran.wait(timeout: .now() + 5) == .success)
        #expect(released.wait(timeout: .now() + 5) == .success)
        #expect(runs.load(ordering: .sequentiallyConsistent) == 1)
        let thread = bodyThread.load(ordering: .sequentiallyConsistent)
        #expect(thread != 0 && thread != caller)
    }
}
