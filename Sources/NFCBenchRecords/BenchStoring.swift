import Foundation
import NFCLocatorCore

/// What every store can be asked: sessions and their taps. The `sessions`, `show`,
/// `export`, `refine` and report paths see only this, so a lab's PostgreSQL store, which
/// benches only read, plugs in without touching them. Implementations do their blocking
/// I/O on their own threads, never on Swift's cooperative pool.
public protocol BenchReading: Sendable {
    /// Where the store is, for messages ("no session 'X' in <location>").
    var location: String { get }
    /// The damaged sessions this store's reads have left out so far. Listings
    /// (`sessions()`, pages, tap batches) skip a session whose row or taps do not decode
    /// and note it here; reading one session by id (`session`, `taps`) still throws.
    var damage: DamageLog { get }

    func session(_ id: String) async throws -> SessionRecord?
    /// Every session, oldest first.
    func sessions() async throws -> [SessionRecord]
    /// At most `limit` sessions after `cursor`, oldest first, of the catalog keys
    /// `lookupKeys` only when given: a listing of a whole lab (a report) reads a page at a
    /// time, so its memory does not grow with the number of sessions.
    func sessions(after cursor: SessionCursor?, limit: Int, lookupKeys: Set<String>?) async throws -> [SessionRecord]
    func taps(_ sessionID: String) async throws -> [TapRecord]
    /// Streams the taps of `sessions` (all when `nil`) in session, step, attempt order,
    /// a batch at a time, so exports stay flat in memory however many taps there are.
    func tapBatches(sessions: [String]?) async throws -> any TapBatches
    /// The session's audit trail in the order it happened (`SessionEvent`); empty for
    /// sessions recorded before events were kept. A damaged event throws, as a tap does.
    func events(_ sessionID: String) async throws -> [SessionEvent]
}

/// A store a bench records into: its own database. The runner, `void` and resume need it;
/// a store that is only read (the lab's) never claims it.
public protocol BenchStoring: BenchReading {
    func insert(_ session: SessionRecord) async throws
    /// Ends a session with its outcome.
    func finish(
        _ id: String, status: SessionRecord.Status, at: Date, verdict: SessionVerdict?, verdictReason: String?,
        measured: NormalizedRect?, iou: Double?
    ) async throws
    /// Marks a session void, with the reason: kept, listed, and left out of refine,
    /// reports and exports by default. Voiding again replaces the reason.
    func void(_ id: String, reason: String, at: Date) async throws
    /// A resumed session's new tap window, applied to the positions still to come.
    func setTapTimeout(_ id: String, seconds: Double) async throws
    /// The reader's firmware and serial number, learned after the session started (a
    /// PC/SC reader may name them only once a card is connected); `nil` leaves a value as
    /// it was.
    func setReaderDetails(_ id: String, firmware: String?, serial: String?) async throws
    /// Marks a session resumable again (after Ctrl-C, a positioner failure, a lost reader).
    func suspend(_ id: String) async throws

    /// Durable when it returns. A tap already recorded at the same step and attempt is
    /// an error, never a silent duplicate.
    func record(_ tap: TapRecord) async throws
    /// Removes the most recent tap of a session (operator "undo") and returns it.
    func undoLastTap(_ sessionID: String) async throws -> TapRecord?
    /// Appends `event` to its session's trail, numbered after the last one, durable when
    /// it returns. Returns the event as stored (with its sequence).
    @discardableResult
    func record(_ event: SessionEvent) async throws -> SessionEvent
}

extension BenchReading {
    /// A session's taps, or `nil` (noted in `damage`) when one of them does not decode:
    /// for reads over many sessions, which leave a damaged one out rather than stop.
    public func intactTaps(of session: SessionRecord) async throws -> [TapRecord]? {
        do { return try await taps(session.reference) } catch let problem as RecordDecodingError {
            damage.note(DamagedSession(reference: session.reference, problem: problem, isVoid: session.isVoid))
            return nil
        }
    }
}

/// Where a page of sessions ended: sessions are ordered by start time, then id, then
/// station (a lab store pools stations whose sessions may share both).
public struct SessionCursor: Sendable, Equatable {
    public let startedAt: Date
    public let id: String
    /// The session's station, "" for none.
    public let station: String

    public init(after session: SessionRecord) {
        startedAt = session.startedAt
        id = session.id
        station = session.station ?? ""
    }

    /// Whether `session` comes after this cursor in the listing's order.
    public func precedes(_ session: SessionRecord) -> Bool {
        (session.startedAt, session.id, session.station ?? "") > (startedAt, id, station)
    }
}

/// A forward-only read of many taps, from one consistent snapshot of the store.
public protocol TapBatches: Sendable {
    /// The next batch, or an empty array when there are no more taps.
    func next() async throws -> [TapRecord]
}
