import Synchronization

/// A stored session that a read left out because its row, or one of its taps, does not
/// decode (a value out of range, a row altered after it was written).
public struct DamagedSession: Sendable, Equatable, CustomStringConvertible {
    /// `id`, or `station/id` in a lab store.
    public let reference: String
    public let problem: RecordDecodingError
    /// The row is marked void: left out by default anyway, so not worth a warning.
    public let isVoid: Bool

    public init(reference: String, problem: RecordDecodingError, isVoid: Bool) {
        self.reference = reference
        self.problem = problem
        self.isVoid = isVoid
    }

    public var description: String { "\(reference) (\(problem))" }
}

/// The damaged sessions a store's reads met and left out, so one bad row never makes a
/// listing, an export or refine refuse the rest, and the command can still say what it
/// left out. Shared by a store and the long reads it opens on other connections.
public final class DamageLog: Sendable {
    private let noted = Mutex<[DamagedSession]>([])

    public init() {}

    /// Notes a session once, whichever of its rows was found damaged first.
    public func note(_ damaged: DamagedSession) {
        noted.withLock { list in
            if !list.contains(where: { Self.same($0.reference, damaged.reference) }) { list.append(damaged) }
        }
    }

    /// `key`: a session id, or `station/id`, as the store's taps name their session.
    public func contains(_ key: String) -> Bool { noted.withLock { $0.contains { Self.same($0.reference, key) } } }

    /// A bench's taps name their session by id alone, its listings by `station/id`: the
    /// same session when the ids agree and no two stations are named.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = SessionReference(parsing: a), y = SessionReference(parsing: b)
        return x.id == y.id && (x.station == nil || y.station == nil || x.station == y.station)
    }

    /// In the order they were met.
    public var sessions: [DamagedSession] { noted.withLock { $0 } }
}
