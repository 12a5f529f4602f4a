import Foundation

/// Paths into this checkout, found from this file's own location, so tests run from any
/// directory and read nothing outside the repository.
public enum Checkout {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    public static let resources = root.appendingPathComponent("Resources")
    public static let seedCatalog = resources.appendingPathComponent("seed_catalog.json")
    /// Committed test data (Tests/Fixtures), each with its source and licence beside it.
    public static let fixtures = root.appendingPathComponent("Tests/Fixtures")
    /// gematik/NfcLocalization-Android's nfc_positions.json (EUPL-1.2), a committed copy.
    public static let gematikPositions = fixtures.appendingPathComponent("gematik/nfc_positions.json")
}
