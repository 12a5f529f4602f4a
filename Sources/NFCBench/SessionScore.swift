import NFCBenchRecords
import NFCLocatorCore

/// How a session's hits compare with the prediction.
public struct SessionScore: Sendable, Equatable {
    public typealias Verdict = SessionVerdict

    public let taps: Int
    public let hits: Int
    /// Whether the probe nearest the predicted centre hit; `nil` without a prediction.
    public let centreHit: Bool?
    public let measured: NormalizedRect?
    public let iou: Double?
    /// Distance between predicted and measured centres, in body heights.
    public let centreOffset: Double?
    public let verdict: Verdict

    public static let minimumTaps = 3

    public init(
        predicted: NormalizedRect?, history: [(probe: Probe, hit: Bool)], strategy: any ProbeStrategy,
        aspectRatio: Double
    ) {
        taps = history.count
        hits = history.filter(\.hit).count
        measured = strategy.measuredZone(from: history)
        if let predicted,
            let nearest = history.min(by: {
                Self.distance($0.probe, predicted, aspectRatio) < Self.distance($1.probe, predicted, aspectRatio)
            }), predicted.contains(x: nearest.probe.x, y: nearest.probe.y)
        {
            centreHit = nearest.hit
        } else {
            centreHit = predicted == nil ? nil : false
        }
        if let predicted, let measured {
            iou = predicted.iou(with: measured)
            centreOffset = predicted.centreDistance(to: measured, aspectRatio: aspectRatio)
        } else {
            iou = nil
            centreOffset = nil
        }
        if taps < Self.minimumTaps {
            verdict = .inconclusive
        } else if hits == 0 {
            verdict = .noField
        } else if predicted == nil {
            verdict = .inconclusive
        } else if centreHit == true, (iou ?? 0) >= 0.5 {
            verdict = .confirmed
        } else {
            verdict = .shifted
        }
    }

    static func distance(_ p: Probe, _ zone: NormalizedRect, _ aspect: Double) -> Double {
        let dx = (p.x - zone.midX) * aspect, dy = p.y - zone.midY
        return dx * dx + dy * dy
    }
}
