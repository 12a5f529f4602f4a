import NFCBenchRecords
import NFCLocatorCore

/// The sessions an export or report covers: a list named on the command line, or every
/// session of the store (of one model, when asked) read a page at a time, so a report of
/// a whole lab holds a page of sessions, never all of them.
public struct SessionSource: Sendable {
    public enum Selection: Sendable {
        case listed([SessionRecord])
        /// `model`: the model and its regional variants (`SessionSelection`); `nil`: all.
        case stored(model: String?, includeVoid: Bool, includeSimulated: Bool)
    }

    public let selection: Selection
    /// Sessions read from the store at once.
    public let pageSize: Int

    public init(_ selection: Selection, pageSize: Int = 500) {
        precondition(pageSize > 0, "a page holds at least one session")
        self.selection = selection
        self.pageSize = pageSize
    }
    public static func listed(_ sessions: [SessionRecord]) -> SessionSource { SessionSource(.listed(sessions)) }

    /// Calls `body` with each session in order (oldest first for stored sessions), of the
    /// catalog keys `lookupKeys` only when given.
    public func forEach(
        in store: any BenchReading, lookupKeys: Set<String>? = nil, _ body: (SessionRecord) async throws -> Void
    ) async throws {
        var pages = pager(in: store, lookupKeys: lookupKeys)
        while let session = try await pages.next() { try await body(session) }
    }

    /// A pull-style reader of the same sessions, for loops that take one at a time.
    public func pager(in store: any BenchReading, lookupKeys: Set<String>? = nil) -> Pager {
        Pager(source: self, store: store, lookupKeys: lookupKeys)
    }

    public struct Pager {
        let source: SessionSource
        let store: any BenchReading
        let lookupKeys: Set<String>?
        private var page: [SessionRecord] = []
        private var index = 0
        private var cursor: SessionCursor?
        private var exhausted = false
        /// The page after the current one, asked for as soon as the current one arrived:
        /// the store reads it on its own queue while the caller works through this one.
        private var upcoming: Task<[SessionRecord], any Error>?

        init(source: SessionSource, store: any BenchReading, lookupKeys: Set<String>?) {
            self.source = source
            self.store = store
            self.lookupKeys = lookupKeys
            if case .listed(let sessions) = source.selection {
                page = lookupKeys.map { keys in sessions.filter { keys.contains($0.lookupKey) } } ?? sessions
                exhausted = true
            }
        }

        private func fetch(after cursor: SessionCursor?) -> Task<[SessionRecord], any Error> {
            let (store, limit, keys) = (store, source.pageSize, lookupKeys)
            return Task { try await store.sessions(after: cursor, limit: limit, lookupKeys: keys) }
        }

        public mutating func next() async throws -> SessionRecord? {
            while true {
                if index < page.count {
                    index += 1
                    let session = page[index - 1]
                    if source.admits(session) { return session }
                    continue
                }
                guard !exhausted else { return nil }
                page = try await (upcoming ?? fetch(after: cursor)).value
                upcoming = nil
                index = 0
                if page.count < source.pageSize { exhausted = true }
                guard let last = page.last else { return nil }
                cursor = SessionCursor(after: last)
                if !exhausted { upcoming = fetch(after: cursor) }
            }
        }
    }

    /// Whether a stored session belongs: its model (or a regional variant), and void or
    /// simulated only when asked. Listed sessions always do.
    func admits(_ s: SessionRecord) -> Bool {
        guard case .stored(let model, let includeVoid, let includeSimulated) = selection else { return true }
        if s.isVoid && !includeVoid { return false }
        if s.simulated && !includeSimulated { return false }
        guard let model else { return true }
        return !SessionSelection.sessions(of: model, in: [s]).isEmpty
    }
}
