/// Renders items concurrently and writes them in order, with at most `window` rendered
/// and unwritten at once, pulling the next item only when there is room: a report over
/// 10,000 sessions uses both cores for its markup while its memory stays that of a few
/// sessions.
enum OrderedRendering {
    static func run<Item: Sendable>(
        window: Int = 6, next: () async throws -> Item?,
        render: @escaping @Sendable (Int, Item) async throws -> [UInt8],
        write: (Int, Item, [UInt8]) async throws -> Void
    ) async throws {
        precondition(window >= 1, "at least one item in flight")
        try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            var items: [Int: Item] = [:]
            var ready: [Int: [UInt8]] = [:]
            var submitted = 0, written = 0
            var finished = false
            func submit() async throws {
                while !finished, submitted - written < window {
                    guard let item = try await next() else {
                        finished = true
                        return
                    }
                    let index = submitted
                    items[index] = item
                    group.addTask { (index, try await render(index, item)) }
                    submitted += 1
                }
            }
            try await submit()
            while written < submitted, let (index, bytes) = try await group.next() {
                ready[index] = bytes
                while let bytes = ready.removeValue(forKey: written) {
                    try await write(written, items.removeValue(forKey: written)!, bytes)
                    written += 1
                }
                try await submit()
            }
        }
    }
}
