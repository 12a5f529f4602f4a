import NFCBenchRecords
import NFCBenchSeams
import NFCLocatorCore

/// One plan in `ProbePlans.registered`.
public struct PlanRegistration: Sendable {
    /// `planned`: the positions the session stored, for a plan whose list is fixed when
    /// it starts (a raster); empty for a plan about to start. `physics`: the session's
    /// reader antenna and body in millimetres, for a plan that reasons in them (`CoilPlan`).
    public typealias Build =
        @Sendable (
            _ zone: NormalizedRect?, _ aspectRatio: Double, _ pass: Int, _ focus: PlanFocus?, _ planned: [Probe],
            _ physics: PlanPhysics?
        ) -> any ProbeStrategy

    public let kind: PlanKind
    /// One line for `--plan`'s help.
    public let summary: String
    /// Whether the plan learns where to look harder from the model's earlier sessions; the
    /// run reads those sessions only for such a plan.
    public let usesFocus: Bool
    let build: Build

    public init(_ kind: PlanKind, summary: String, usesFocus: Bool, build: @escaping Build) {
        self.kind = kind
        self.summary = summary
        self.usesFocus = usesFocus
        self.build = build
    }
}
