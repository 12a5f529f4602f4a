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
    /// Sessions lab store `lab` refused and has not taken since, oldest first (held ones not).
    func refusedSync(lab: String) async throws -> [RefusedSync]
    /// Keeps session `id` off lab store `lab` by the operator's decision, for `reason`: only
    /// a session that store refused, whose refusal moves into the hold. `false` when `id`
    /// is not refused there (so nothing a lab store took can be held back from it).
    func hold(_ id: String, lab: String, reason: String, at: Date) async throws -> Bool
    /// Ends a hold: the session is pending for lab store `lab` again. `false` when none.
    func release(_ id: String, lab: String) async throws -> Bool
    /// Sessions held back from lab store `lab`, oldest first.
    func heldSync(lab: String) async throws -> [HeldSync]
}

/// A session the operator keeps off a lab store that refused it: the store's refusal and
/// the operator's reason, both kept, and when.
public struct HeldSync: Sendable, Equatable {
    public let id: String
    public let reason: String
    public let refusal: String
    public let heldAt: Date

    public init(id: String, reason: String, refusal: String, heldAt: Date) {
        self.id = id
        self.reason = reason
        self.refusal = refusal
        self.heldAt = heldAt
    }
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
