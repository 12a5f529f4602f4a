import Foundation
import NFCReaders
import Synchronization

/// The reader a run uses now. A reader that was unplugged is replaced by a fresh one
/// (`reopen`) when it comes back, so the caller closes `current` at the end, not the
/// reader it started with.
public final class ReaderHolder: Sendable {
    private let reader: Mutex<any Reader>
    private let reopenReader: (@Sendable () async throws(ReaderError) -> any Reader)?

    public init(_ reader: any Reader, reopen: (@Sendable () async throws(ReaderError) -> any Reader)? = nil) {
        self.reader = Mutex(reader)
        reopenReader = reopen
    }

    public var current: any Reader { reader.withLock { $0 } }

    /// Closes the current reader and opens it again; `false` when it cannot be reopened
    /// (no way to, or it is still gone).
    func reopen() async -> Bool {
        guard let reopenReader else { return false }
        await current.close()
        do {
            let fresh = try await reopenReader()
            reader.withLock { $0 = fresh }
            return true
        } catch {
            return false
        }
    }
}

/// How the run treats a reader that fails during a tap window.
public struct FaultPolicy: Sendable {
    /// How long to wait for the reader to answer again before saving the session and
    /// stopping (it stays resumable).
    public var patience: Duration
    /// How often to look again.
    public var interval: Duration
    /// The window used to check that the reader answers again.
    public var probeWindow: Duration
    /// Faults in a row at one position, each waited out, after which the run stops, saved:
    /// a reader that answers a probe at once but fails every tap there (a command that
    /// position always makes it refuse) would otherwise be retried without end, and a
    /// machine-placed run has nobody to stop it.
    public var faultsPerPosition: Int

    public init(
        patience: Duration = .seconds(600), interval: Duration = .milliseconds(500),
        probeWindow: Duration = .milliseconds(500), faultsPerPosition: Int = 5
    ) {
        precondition(faultsPerPosition >= 1, "a position must be tried at least once")
        self.patience = patience
        self.interval = interval
        self.probeWindow = probeWindow
        self.faultsPerPosition = faultsPerPosition
    }
}

/// The reader stayed faulty for the whole of `FaultPolicy.patience`.
public struct ReaderStayedFaulty: Error, Sendable, CustomStringConvertible {
    public let last: ReaderError
    public let waited: Duration
    public var description: String {
        "the reader did not answer properly for \(Int(waited.seconds)) s (last: \(last.description))"
    }
}
