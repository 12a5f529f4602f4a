import Foundation
import NFCBenchRecords

/// What a report covers beyond its sessions, and the facts it prints about itself.
public struct ReportOptions: Sendable {
    /// `model`: a summary of the (one) model first; `all`: one summary row per model,
    /// then each model's summary and sessions.
    public enum Summary: Sendable, Equatable { case none, model, all }

    public var summary: Summary
    /// The nfcbench version that wrote the report.
    public var toolVersion: String
    public var generatedAt: Date
    /// Where the sessions came from, for the header.
    public var storeLocation: String
    /// The catalog as it stands, and how refine would weigh the evidence: a model
    /// summary shows the entry and the refined zone with it. `nil` leaves both out.
    public var refiner: CatalogRefiner?
    /// Local time for the words people read (`TZ`); the data stays UTC.
    public var clock: ReportClock
    /// Printed in each session's sign-off block; `nil` leaves a line to write the name on.
    public var reviewer: String?
    /// A CSS page size (`A4`, `letter`) for a report printed to PDF; `nil` leaves the
    /// paper to whoever prints it.
    public var pageSize: String?

    public init(
        summary: Summary = .none, toolVersion: String, generatedAt: Date = Date(), storeLocation: String,
        refiner: CatalogRefiner? = nil, clock: ReportClock = .fromEnvironment(), reviewer: String? = nil
    ) {
        self.summary = summary
        self.toolVersion = toolVersion
        self.generatedAt = generatedAt
        self.storeLocation = storeLocation
        self.refiner = refiner
        self.clock = clock
        self.reviewer = reviewer
    }
}
