/// Which layer of the resolver chain produced a result.
///
/// There is deliberately no case for an OS-measured antenna position (Android 14's
/// `NfcAntennaInfo`): the design targets platforms that have no such API, and a case
/// that can never be produced would be dead weight in every `switch`. Imported
/// `NfcAntennaInfo` data enters as ordinary (unverified) catalog rows instead.
public enum DataSource: String, Sendable, Codable, CaseIterable {
    case remoteCatalog
    case seedCatalog
    case heuristic
}
