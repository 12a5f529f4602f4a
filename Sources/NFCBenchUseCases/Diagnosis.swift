import NFCBench

/// `doctor`: every provider's findings, in order, and whether any blocks a run.
public struct Diagnosis: Sendable {
    public let checks: [DoctorCheck]

    /// A FAIL anywhere: the command exits 1.
    public var hasBlocker: Bool { checks.contains { $0.verdict == .fail } }

    public static func run(_ providers: [any DoctorCheckProvider]) async -> Diagnosis {
        var checks: [DoctorCheck] = []
        for provider in providers { checks += await provider.checks() }
        return Diagnosis(checks: checks)
    }
}
