import NFCBenchRecords

/// Where the reader's centre goes, in words a technician's hands can follow: millimetres
/// below the top edge and from the left edge of the back when the body size is published
/// ("reader centre 23 mm below the top edge, 35 mm from the left edge"), fractions
/// otherwise, saying so.
///
/// One reference corner everywhere (prompts, template, plan, report and JUnit): the top
/// left of the back, as the phone lies facing the technician, top edge up, the catalog's
/// own view. A ruler laid from one corner needs no arithmetic between positions.
public struct PositionWords: Sendable {
    public let body: BodyMillimetres?

    public init(body: BodyMillimetres?) { self.body = body }

    /// Said once before the first position.
    public var orientation: String {
        guard body != nil else {
            return "Positions are fractions of the back's height below its top edge and of its width from its left edge"
                + " (this model has no published body size), measured on the back of the phone facing you, top edge up."
        }
        return "Positions are the reader's centre in millimetres below the top edge and from the left edge, measured on"
            + " the back of the phone facing you, top edge up."
    }

    public func words(_ p: Probe) -> String {
        guard let body else {
            return
                "reader centre \(fraction(p.y)) of the height below the top edge, \(fraction(p.x)) of the width from the left edge"
        }
        let mm = body.position(p)
        let centred = abs(p.x - 0.5) * body.width < 0.5 ? " (centred)" : ""
        return
            "reader centre \(millimetres(mm.fromTop)) below the top edge, \(millimetres(mm.fromLeft)) from the left edge\(centred)"
    }

    /// Whole millimetres; half millimetres below 10 mm, where a ruler's half step matters.
    private func millimetres(_ v: Double) -> String {
        let halves = (v * 2).rounded()
        guard v < 10, halves.truncatingRemainder(dividingBy: 2) != 0 else { return FixedPoint.format(v, 0) + " mm" }
        return FixedPoint.format(halves / 2, 1) + " mm"
    }

    private func fraction(_ v: Double) -> String { FixedPoint.format(v, 2) }
}
