import NFCBench
import NFCBenchRecords
import NFCBenchUseCases
import NFCLocatorCore

/// `--step-mm`: the raster plan's spacing, for `run`, `plan`, `template` and `rig check`.
enum RasterOptions {
    static let stepMm = Option<Double>(
        "--step-mm", value: "mm", help: "The raster plan's spacing over the back (default 5).",
        expected: "millimetres in \(OptionValue.describe(RasterPlan.steps))", convert: OptionValue.number(in: RasterPlan.steps))

    /// The step for `kind`, refusing `--step-mm` with another plan, and a raster the
    /// model's catalog entry cannot lay out (no published body size) or that is too fine.
    static func request(
        _ invocation: ParsedInvocation, kind: PlanKind, profile: DeviceAntennaProfile?
    ) throws -> RasterRequest? {
        let step = invocation[stepMm]
        guard kind == .raster else {
            if step != nil { throw UsageError("--step-mm needs --plan raster.", path: invocation.path) }
            return nil
        }
        let request = RasterRequest(stepMm: step ?? 5, bodyHeightMm: profile?.bodyHeightMm)
        guard let height = request.bodyHeightMm, height > 0, let aspect = profile?.aspectRatio else {
            throw UsageError(
                "A raster plan is laid out in millimetres, and the catalog has no published body size for this model. "
                    + "Use --plan grid or adaptive, or a catalog entry with bodyWidthMm and bodyHeightMm.",
                path: invocation.path)
        }
        guard RasterPlan(stepMm: request.stepMm, bodyWidthMm: height * aspect, bodyHeightMm: height) != nil else {
            throw UsageError(
                "--step-mm \(OptionValue.format(request.stepMm)) gives more than \(RasterPlan.maximumPositions) positions "
                    + "on this phone; choose a larger step.", path: invocation.path)
        }
        return request
    }
}

/// `--heights 0,5,10,20`: tap each position at these heights above the back (mm), for a
/// motion stage's operating volume.
enum HeightOptions {
    static let heights = Option<[Double]>(
        "--heights", value: "mm,...",
        help: "Tap each position at these heights above the back, from 0 (a machine positioner; grid or raster plan).",
        expected: "rising heights in mm from 0, e.g. 0,5,10,20 (at most \(ProbeHeights.maximumCount), each in "
            + "\(OptionValue.describe(ProbeHeights.range)))",
        convert: parse)

    static func parse(_ text: String) -> [Double]? {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard values.allSatisfy({ $0 != nil }) else { return nil }
        let heights = values.compactMap { $0 }
        guard heights.first == 0, heights.count <= ProbeHeights.maximumCount,
            heights.allSatisfy({ $0.isFinite && ProbeHeights.range.contains($0) }),
            zip(heights, heights.dropFirst()).allSatisfy({ $0 < $1 })
        else { return nil }
        return heights
    }

    /// The heights, refusing them with a plan whose positions are not fixed in advance.
    static func request(_ invocation: ParsedInvocation, kind: PlanKind) throws -> [Double] {
        guard let heights = invocation[heights], heights.count > 1 else { return [0] }
        guard kind != .adaptive && kind != .coil else {
            throw UsageError(
                "--heights needs a plan whose positions are fixed: --plan grid or --plan raster (an \(kind.rawValue) plan "
                    + "chooses each position from the taps on the back).", path: invocation.path)
        }
        return heights
    }
}
