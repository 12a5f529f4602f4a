import Foundation
import NFCVirtualBench

@testable import NFCReaderPCSC

/// The one vpcd reader and virtual bench that scripts/test.sh starts for the PC/SC
/// tests. Tests in several targets use it; `exclusive` lets one at a time touch it,
/// whichever suite it belongs to, and resets it to a known state first.
public enum SharedVirtualReader {
    public static let environment = ProcessInfo.processInfo.environment
    public static var isAvailable: Bool { environment["NFCBENCH_TEST_PCSCD"] == "1" }
    public static var readerName: String { environment["NFCBENCH_TEST_PCSC_READER"] ?? "nfcbench virtual 00 00" }
    public static var benchDirectory: String { environment["NFCBENCH_TEST_BENCH_DIR"] ?? "/nonexistent" }
    public static var client: VirtualBenchClient { VirtualBenchClient(socketPath: benchDirectory + "/control.sock") }

    private static let gate = AsyncGate()

    /// Runs `body` alone, with the phone lifted, no fault, type A, the reader's firmware
    /// at its defaults, and pcscd having seen the reader empty.
    public static func exclusive<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await gate.enter()
        do {
            _ = try client.request(.fault(.none))
            _ = try client.request(.lift)
            _ = try client.request(.technology(.iso14443A))
            _ = try client.request(.powerCycle)  // a run before may have left its PICC setting
            try await waitForPCSCD(cardPresent: false)
            let value = try await body()
            await gate.leave()
            return value
        } catch {
            await gate.leave()
            throw error
        }
    }
}

extension SharedVirtualReader {
    /// Waits until pcscd reports the card present (or absent) in the shared reader: the
    /// event itself, polled every 10 ms on a thread of its own, at most `timeout`.
    public static func waitForPCSCD(cardPresent: Bool, timeout: Duration = .seconds(5)) async throws {
        let name = readerName
        let seen = try await offThePool { () throws -> Bool in
            let context = try PCSCContext()
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if try context.isCardPresent(in: name) == cardPresent { return true }
                usleep(10_000)
            }
            return false
        }
        if !seen { throw WaitTimedOut(what: "pcscd to see the card \(cardPresent ? "present" : "absent") in \(name)") }
    }
}

public struct WaitTimedOut: Error, CustomStringConvertible {
    public let what: String
    public init(what: String) { self.what = what }
    public var description: String { "timed out waiting for \(what)" }
}

/// A FIFO mutex for async code.
actor AsyncGate {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func enter() async {
        guard busy else { busy = true; return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func leave() {
        if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
    }
}
