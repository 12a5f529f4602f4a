/// Hooks a host app can report to its analytics backend. Every method has a no-op
/// default, so a host implements only what it records.
public protocol NFCLocatorAnalytics: Sendable {
    /// A catalog row was left out; the catalog as a whole still loaded.
    func catalogRowSkipped(source: DataSource, row: SkippedCatalogRow)
    /// A catalog layer could not be used at all (unreachable, not a catalog).
    func catalogLayerFailed(source: DataSource, reason: String)
    func antennaResolved(lookupKey: String, source: DataSource, confidence: Confidence, stale: Bool)
    /// Kept and never called here. Android 14's `NfcAntennaInfo` can report measured
    /// antennas; no platform this library runs on can. The method stays so a host that
    /// reports to one analytics backend shared with the Android client implements a
    /// single handler set, without special-casing per platform.
    func android14AntennaDetected(antennaCount: Int)
}

extension NFCLocatorAnalytics {
    public func catalogRowSkipped(source: DataSource, row: SkippedCatalogRow) {}
    public func catalogLayerFailed(source: DataSource, reason: String) {}
    public func antennaResolved(lookupKey: String, source: DataSource, confidence: Confidence, stale: Bool) {}
    public func android14AntennaDetected(antennaCount: Int) {}
}

/// The default: records nothing.
public struct NoOpAnalytics: NFCLocatorAnalytics {
    public init() {}
}
