import NFCBenchRecords

/// Where the reader's centre goes, in words a technician's hands can follow: millimetres
/// from the two nearest edges of the back when the body size is published ("reader centre
/// 23 mm below the top edge, 35 mm from the left edge"), fractions otherwise, saying so.
///
/// Positions are measured on the back of the phone, facing the technician, top edge up:
/// the catalog's own view, so left here is the back's left.
public struct PositionWords: Sendable {
    public let body: BodyMillimetres?

    public init(body: BodyMillimetres?) { self.body = body }

    /// Said once before the first position.
    public var orientation: String {
        guard body != nil else {
            return "Positions are fractions of the back's width and height (this model has no published body size),"
                + " measured on the back of the phone facing you, top edge up."
        }
        return "Positions are the reader's centre in millimetres, measured on the back of the phone facing you, top edge up."
    }

    public func words(_ p: Probe) -> String {
        guard let body else {
            let across =
                p.x <= 0.5
                ? "\(fraction(p.x)) of the width from the left edge" : "\(fraction(1 - p.x)) of the width from the right edge"
            let down =
                p.y <= 0.5
                ? "\(fraction(p.y)) of the height below the top edge" : "\(fraction(1 - p.y)) of the height above the bottom edge"
            return "reader centre \(down), \(across)"
        }
        let mm = body.position(p)
        let down =
            p.y <= 0.5
            ? "\(millimetres(mm.fromTop)) below the top edge" : "\(millimetres(body.height - mm.fromTop)) above the bottom edge"
        let across: String
        if abs(p.x - 0.5) * body.width < 0.5 {
            across = "centred (\(millimetres(mm.fromLeft)) from either side)"
        } else if p.x < 0.5 {
            across = "\(millimetres(mm.fromLeft)) from the left edge"
        } else {
            across = "\(millimetres(body.width - mm.fromLeft)) from the right edge"
        }
        return "reader centre \(down), \(across)"
    }

    /// Whole millimetres; half millimetres below 10 mm, where a ruler's half step matters.
    private func millimetres(_ v: Double) -> String {
        let halves = (v * 2).rounded()
        guard v < 10, halves.truncatingRemainder(dividingBy: 2) != 0 else { return FixedPoint.format(v, 0) + " mm" }
        return FixedPoint.format(halves / 2, 1) + " mm"
    }

    private func fraction(_ v: Double) -> String { FixedPoint.format(v, 2) }
}
