import Foundation
import NFCBenchRecords

/// The verdict for the technician: which way and how far the antenna sits from the
/// prediction, in millimetres when the body size is known ("the antenna is 24 mm
/// higher than predicted"). IoU and offsets stay in `--json` and the CSV.
public enum VerdictWords {
    /// Shifts smaller than this (body heights) are not worth a direction.
    static let negligible = 0.02

    public static func sentence(_ score: SessionScore, bodyHeightMm: Double?) -> String {
        switch score.verdict {
        case .confirmed:
            return "The antenna is where the catalog predicts: \(score.reason)."
        case .noField:
            return "No field: \(score.reason). The phone is probably not emulating a card."
        case .inconclusive:
            return "Inconclusive: \(score.reason)."
        case .shifted:
            guard let shift = score.shift else { return "Shifted: \(score.reason)." }
            return "Shifted: the antenna is \(direction(shift, bodyHeightMm: bodyHeightMm)) (\(score.reason))."
        }
    }

    /// "24 mm higher and 6 mm further right than predicted", viewed from the back.
    public static func direction(_ shift: (dx: Double, dy: Double), bodyHeightMm: Double?) -> String {
        func amount(_ bodyHeights: Double) -> String {
            guard let mm = bodyHeightMm else { return FixedPoint.format(abs(bodyHeights), 2) + " body heights" }
            return "\(Int((abs(bodyHeights) * mm).rounded())) mm"
        }
        var parts: [String] = []
        if abs(shift.dy) >= negligible { parts.append(amount(shift.dy) + (shift.dy < 0 ? " higher" : " lower")) }
        if abs(shift.dx) >= negligible {
            parts.append(amount(shift.dx) + (shift.dx < 0 ? " further left" : " further right"))
        }
        guard !parts.isEmpty else { return "centred where predicted but of another size" }
        return parts.joined(separator: " and ") + " than predicted (viewed from the back, top edge up)"
    }
}
