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
