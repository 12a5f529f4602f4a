import NFCBenchRecords
import NFCLocatorCore

/// A session run with `--coupling`: the back shaded by how strongly the phone coupled at
/// each position that read (docs/coupling.md), the grade written in its cell.
extension ReportedSession {
    /// Whether any position on the back was graded.
    public var isGraded: Bool { positions.contains { $0.probe.isAtTapHeight && $0.coupling != nil } }

    public var couplingDrawing: SilhouetteDrawing {
        let heat = positions.filter(\.probe.isAtTapHeight).compactMap { position -> SilhouetteDrawing.HeatCell? in
            guard let grade = position.coupling, let cell = planCell(around: position.probe) else { return nil }
            // A read at the default field alone still read: it is shaded lightly, never blank.
            return .init(cell: cell, readRate: 0.1 + 0.9 * grade, taps: 1, label: FixedPoint.format(grade, 2))
        }
        return heatDrawing(
            heat, legend: "coupling: darker couples more strongly (0 to 1 in the cell)",
            description: "Each shaded cell read, and the number is how far down the analog ladder it still read: 0 at the "
                + "default field only, 1 at the weakest profile. Unshaded cells did not read or were not graded.",
            subject: "graded coupling (run --coupling)")
    }
}
