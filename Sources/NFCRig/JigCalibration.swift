/// A jig measured by the machine itself: the reader's centre put on two opposite corners
/// of the phone's back. The body so measured must match the catalog's published size
/// within `tolerance`, or the phone is not the one named, or it lies askew in the jig.
public struct JigCalibration: Sendable, Equatable {
    public static let toleranceMm = 2.0

    public let topLeft: (x: Double, y: Double)
    public let bottomRight: (x: Double, y: Double)

    public init(topLeft: (x: Double, y: Double), bottomRight: (x: Double, y: Double)) {
        self.topLeft = topLeft
        self.bottomRight = bottomRight
    }

    public static func == (a: JigCalibration, b: JigCalibration) -> Bool {
        a.topLeft == b.topLeft && a.bottomRight == b.bottomRight
    }

    /// The phone's axes, its measured width and height, and the worst difference from
    /// the published size: the phone's x runs along whichever machine axis makes the
    /// measured body closest to the published one.
    public struct Fit: Sendable {
        public let xAxis: RigConfiguration.AxisDirection
        public let yAxis: RigConfiguration.AxisDirection
        public let widthMm: Double
        public let heightMm: Double
        public let differenceMm: Double
    }

    public func fit(publishedWidthMm width: Double, publishedHeightMm height: Double) -> Fit {
        let dx = bottomRight.x - topLeft.x
        let dy = bottomRight.y - topLeft.y
        func direction(_ axis: RigConfiguration.AxisDirection.Axis, _ delta: Double) -> RigConfiguration.AxisDirection {
            .init(axis: axis, sign: delta < 0 ? -1 : 1)
        }
        let along = Fit(
            xAxis: direction(.x, dx), yAxis: direction(.y, dy), widthMm: abs(dx), heightMm: abs(dy),
            differenceMm: max(abs(abs(dx) - width), abs(abs(dy) - height)))
        let across = Fit(
            xAxis: direction(.y, dy), yAxis: direction(.x, dx), widthMm: abs(dy), heightMm: abs(dx),
            differenceMm: max(abs(abs(dy) - width), abs(abs(dx) - height)))
        return along.differenceMm <= across.differenceMm ? along : across
    }

    /// The rig with this jig: the origin at the top-left corner, the axes as measured.
    /// Refused, with the numbers, when the body differs from the published size by more
    /// than the tolerance.
    public func applied(
        to rig: RigConfiguration, publishedWidthMm width: Double, publishedHeightMm height: Double, model: String
    ) throws(RigFileError) -> RigConfiguration {
        let fit = fit(publishedWidthMm: width, publishedHeightMm: height)
        guard fit.differenceMm <= Self.toleranceMm else {
            let n = RigConfiguration.number
            throw RigFileError(
                line: nil,
                "the corners measure \(n(fit.widthMm)) x \(n(fit.heightMm)) mm, but \(model) is \(n(width)) x \(n(height)) mm: "
                    + "\(n(fit.differenceMm)) mm off, over the \(n(Self.toleranceMm)) mm allowed. Wrong phone, or the jig "
                    + "is misaligned: check the phone lies square and the corners were marked with the reader's centre")
        }
        var calibrated = rig
        calibrated.originX = topLeft.x
        calibrated.originY = topLeft.y
        calibrated.xAxis = fit.xAxis
        calibrated.yAxis = fit.yAxis
        return calibrated
    }
}
