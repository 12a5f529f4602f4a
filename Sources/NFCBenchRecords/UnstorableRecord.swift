/// A session or tap a store refused to write because it could not read it back: a value
/// outside `StoredRanges` (a catalog row with a 5 m body, say). Nothing was written, so
/// the database stays readable; before this check, one such row made every reading
/// command refuse the whole database.
public struct UnstorableRecord: Error, Sendable, Equatable, CustomStringConvertible {
    public let problem: RecordDecodingError

    public init(_ problem: RecordDecodingError) { self.problem = problem }

    public var description: String {
        "nfcbench would not be able to read this \(problem.table == "tap" ? "tap" : "session") back "
            + "(\(problem.column) is \(problem.value), expected \(problem.expected)); nothing was written"
    }
}
