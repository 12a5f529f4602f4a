import Foundation

/// A bench's own store seen from the lab store's sync: which sessions changed since a
/// lab store last received them, a consistent copy of one, and the receipt.
///
/// Sessions are pushed whole (the row and every tap, in one transaction on the lab
/// side), so a push repeated after a kill or a lost link gives exactly one copy, and a
/// later change (a resume, an undo, a void) moves the session's revision on and pushes
/// it again.
public protocol LabSyncSource: Sendable {
    var location: String { get }
    /// Sessions whose revision is newer than what lab store `lab` last received, oldest first.
    func pendingSync(lab: String) async throws -> [PendingSync]
    /// The session, its taps, its events and its revision, read in one transaction.
    func syncSnapshot(_ id: String) async throws -> SyncSnapshot?
    /// Records that lab store `lab` holds `revision` of session `id` (never moves back),
    /// and forgets any refusal of it.
    func markSynced(_ id: String, lab: String, revision: Int64, at: Date) async throws
    /// Records that lab store `lab` refused `revision` of session `id`, and why: the session
    /// stays pending (it is offered again at every sync) and is named until it is taken.
    func markRefused(_ id: String, lab: String, revision: Int64, reason: String, at: Date) async throws
    /// Sessions lab store `lab` refused and has not taken since, oldest first.
    func refusedSync(lab: String) async throws -> [RefusedSync]
}

/// A session a lab store refused, and its reason as the store gave it.
public struct RefusedSync: Sendable, Equatable {
    public let id: String
    public let revision: Int64
    public let reason: String

    public init(id: String, revision: Int64, reason: String) {
        self.id = id
        self.revision = revision
        self.reason = reason
    }
}

public struct PendingSync: Sendable, Equatable {
    public let id: String
    public let revision: Int64

    public init(id: String, revision: Int64) {
        self.id = id
        self.revision = revision
    }
}

public struct SyncSnapshot: Sendable {
    public let session: SessionRecord
    public let taps: [TapRecord]
    public let events: [SessionEvent]
    public let revision: Int64

    public init(session: SessionRecord, taps: [TapRecord], events: [SessionEvent] = [], revision: Int64) {
        self.session = session
        self.taps = taps
        self.events = events
        self.revision = revision
    }
}
