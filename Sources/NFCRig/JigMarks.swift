/// What the operator has marked so far while calibrating (`rig calibrate`), in machine
/// coordinates: two opposite corners of the phone's back and the height the reader
/// touches it at.
public struct JigMarks: Sendable {
    public var topLeft: (x: Double, y: Double)?
    public var bottomRight: (x: Double, y: Double)?
    public var tapZ: Double?

    public init() {}

    /// The rig the marks make: the tap height marked, the head's stroke above it kept
    /// (within the travel), the origin and axes from the corners. Refused while a mark is
    /// missing, or when the corners do not measure the published body (`JigCalibration`).
    public func calibrated(
        _ rig: RigConfiguration, publishedWidthMm width: Double, publishedHeightMm height: Double, model: String
    ) throws(RigFileError) -> RigConfiguration {
        guard let topLeft, let bottomRight, let tapZ else {
            throw RigFileError(line: nil, "mark both corners (a, b) and the tap height (t) first")
        }
        var calibrated = rig
        let stroke = max(rig.safeZ - rig.tapZ, 1)
        calibrated.tapZ = tapZ
        calibrated.safeZ = min(tapZ + stroke, rig.travelZ)
        calibrated.jigMarked = true
        calibrated = try JigCalibration(topLeft: topLeft, bottomRight: bottomRight).applied(
            to: calibrated, publishedWidthMm: width, publishedHeightMm: height, model: model)
        _ = try RigConfiguration.parse(calibrated.text)  // the saved file must read back
        return calibrated
    }
}
