/// How far a predicted antenna zone can be trusted.
///
/// `exact` means non-heuristic, model-specific data: a catalog entry marked
/// `verified: true`. It is *not* an OS measurement; there is no such source on
/// this platform (see `DataSource`).
public enum Confidence: String, Sendable, Codable, CaseIterable {
    /// A verified catalog entry.
    case exact
    /// An unverified catalog entry. May be stale (`DeviceAntennaProfile.isStale(now:)`).
    case approximate
    /// No entry for this model; a form-factor heuristic.
    case generic
    /// Not even the form factor is known: sweep the whole back.
    case unknown

    /// Only catalog-backed confidences may be drawn as a solid marker.
    public var isCatalogBacked: Bool { self == .exact || self == .approximate }
}
