import Foundation

/// The lab store seen from a bench's sync: who it is, whether this bench may push as its
/// station, which other machines did, and the push of one whole session. The PostgreSQL
/// lab store implements it; `LabSync` knows only this.
public protocol LabSyncDestination: Sendable {
    var location: String { get }
    /// The identity a bench's receipts are kept under: another lab store gets everything again.
    func identity() async throws -> String
    /// Throws unless `station` may push here.
    func checkStation(_ station: String) async throws
    /// Notes that `machine` pushes as `station` now.
    func recordMachine(_ machine: String, station: String) async throws
    /// The machines other than `machine` that pushed as `station` lately, newest first.
    func otherMachines(of station: String, than machine: String) async throws -> [StationMachine]
    /// Stores the session and its taps exactly as `snapshot` holds them, in one transaction.
    func push(_ snapshot: SyncSnapshot, station: String) async throws -> PushOutcome
}

/// What a push did with a session.
public enum PushOutcome: Sendable, Equatable {
    case stored
    /// The lab store already holds this revision or a newer one (another sync got there first).
    case alreadyCurrent
}

/// Another machine that pushed as the same station, and when it last did.
public struct StationMachine: Sendable, Equatable, CustomStringConvertible {
    public let machine: String
    public let lastPush: Date

    public init(machine: String, lastPush: Date) {
        self.machine = machine
        self.lastPush = lastPush
    }

    /// As warnings and doctor name it: "lab-pc-2 (last 2026-12-01T03:10:00Z)".
    public var description: String { "\(machine) (last \(lastPush.formatted(.iso8601)))" }
}

/// A failure worth trying again unchanged later (a store that was busy, locked or
/// unreachable), as opposed to one that needs a fix. Commands exit 75 for these.
public protocol TransientFailure: Error, CustomStringConvertible {
    var isTransient: Bool { get }
}

/// A push failure that concerns only the session pushed (a value the lab store's checks
/// refuse, another session already under its station and id), not the store, the link or
/// the station: the sync sets that session aside with its reason and pushes the rest.
public protocol SessionRefusal: Error, CustomStringConvertible {
    var refusesOnlyThisSession: Bool { get }
}

/// A store's error that says its file is damaged (SQLite's `SQLITE_CORRUPT`,
/// `SQLITE_NOTADB`), as opposed to one about the process or the disk: commands word it
/// as a damaged database and exit 65 wherever in a read it was met.
public protocol FileDamageSignal: Error {
    var isDamage: Bool { get }
    /// The store's own words for the damage.
    var damageMessage: String { get }
}
