import NFCBenchRecords
import NFCLocatorCore

/// What a plan tells the runner and the printer about itself: how many positions it will
/// take when that is fixed, the most it can take, and the cells it divides the back into.
public struct PlanShape: Sendable, Equatable {
    public struct Cells: Sendable, Equatable {
        public let columns: Int
        public let rows: Int

        public init(columns: Int, rows: Int) {
            precondition(columns > 0 && rows > 0, "a plan's cells need at least one column and one row")
            self.columns = columns
            self.rows = rows
        }
    }

    /// Known before the first tap (a grid); `nil` when the plan adapts to the taps.
    public let plannedLength: Int?
    /// No session of the plan taps more positions than this; the run shows the bound.
    public let maximumPositions: Int
    /// The cells the plan's positions stand for, drawn as such; `nil` for free points.
    public let cells: Cells?
    /// A plan that chooses by the grades in a graded session (`run --coupling`): the most
    /// positions such a session takes. `nil`: a graded session follows the plan's own shape.
    public let gradedPositions: Int?
    /// Whether the plan can say how many positions a right prediction takes (the adaptive
    /// plan: two per edge). A plan that chooses by information cannot: the run shows only
    /// the bound.
    public let countsRightPrediction: Bool

    public init(
        plannedLength: Int?, maximumPositions: Int, cells: Cells?, gradedPositions: Int? = nil,
        countsRightPrediction: Bool = true
    ) {
        precondition(maximumPositions > 0, "a plan takes at least one position")
        precondition(gradedPositions.map { $0 > 0 } ?? true, "a graded session takes at least one position")
        self.plannedLength = plannedLength
        self.maximumPositions = maximumPositions
        self.cells = cells
        self.gradedPositions = gradedPositions
        self.countsRightPrediction = countsRightPrediction
    }
}
