/// Renders items concurrently and writes them in order, with at most `window` rendered
/// and unwritten at once: a report over 10,000 sessions uses both cores for its markup
/// while its memory stays that of a few sessions.
enum OrderedRendering {
    static func run(
        count: Int, window: Int = 6, render: @escaping @Sendable (Int) async throws -> [UInt8],
        write: (Int, [UInt8]) async throws -> Void
    ) async throws {
        precondition(window >= 1, "at least one item in flight")
        try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            var submitted = 0
            var ready: [Int: [UInt8]] = [:]
            var next = 0
            while submitted < min(window, count) {
                let i = submitted
                group.addTask { (i, try await render(i)) }
                submitted += 1
            }
            while next < count, let (index, bytes) = try await group.next() {
                ready[index] = bytes
                while let bytes = ready.removeValue(forKey: next) {
                    try await write(next, bytes)
                    next += 1
                    if submitted < count {
                        let i = submitted
                        group.addTask { (i, try await render(i)) }
                        submitted += 1
                    }
                }
            }
        }
    }
}
