import NFCBenchRecords
import NFCLocatorCore

/// A body's size in millimetres, from the published height and the catalog's aspect
/// ratio, so a position is told as distances a ruler can check.
public struct BodyMillimetres: Sendable, Equatable {
    public let width: Double, height: Double

    public init?(_ session: SessionRecord) {
        guard let h = session.bodyHeightMm, h > 0, h.isFinite else { return nil }
        self.init(width: h * session.aspectRatio, height: h)
    }

    /// The published size of a catalog entry: its height, and its width when published
    /// (else from the aspect ratio).
    public init?(profile: DeviceAntennaProfile) {
        guard let h = profile.bodyHeightMm, h > 0, h.isFinite else { return nil }
        let w = profile.entry.bodyWidthMm.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? h * profile.aspectRatio
        self.init(width: w, height: h)
    }

    public init(width: Double, height: Double) {
        precondition(width > 0 && height > 0, "a body has a size")
        self.width = width
        self.height = height
    }

    /// Millimetres from the left and top edges of the back, top edge up.
    public func position(_ p: Probe) -> (fromLeft: Double, fromTop: Double) { (p.x * width, p.y * height) }

    /// "23 mm below the top edge, 37 mm from the left edge": the order and reference
    /// corner the run's prompts use.
    public func words(_ p: Probe) -> String {
        let mm = position(p)
        return
            "\(FixedPoint.format(mm.fromTop, 0)) mm below the top edge, \(FixedPoint.format(mm.fromLeft, 0)) mm from the left edge"
    }
}
