import Foundation

/// A validated, indexed catalog: what one resolver layer looks keys up in.
///
/// Built once from a `CatalogResponseDTO`; lookups are a dictionary probe per key.
public struct Catalog: Sendable {
    public let version: String
    public let generatedAt: String?
    /// A signed publication's number and approval (docs/catalog-api.md), kept so that what
    /// the catalog is printed as (`catalog list --json`) says which version it is.
    public let catalogVersion: Int?
    public let publication: CatalogPublicationDTO?
    /// Valid profiles, in document order.
    public let profiles: [DeviceAntennaProfile]
    /// Every row left out, from decoding and from validation, in document order.
    public let skippedRows: [SkippedCatalogRow]
    private let byKey: [String: Int]
    private let byFamily: [String: Int]

    public init(document: CatalogResponseDTO) {
        var profiles: [DeviceAntennaProfile] = []
        var skipped = document.undecodableRows
        var byKey: [String: Int] = [:]
        var byFamily: [String: Int] = [:]
        for (position, entry) in document.entries.enumerated() {
            let index = document.documentIndex(ofEntryAt: position)
            do {
                let profile = try DeviceAntennaProfile(entry: entry)
                if byKey[profile.lookupKey] != nil {
                    skipped.append(
                        SkippedCatalogRow(
                            index: index, key: profile.lookupKey,
                            reason: "duplicate key '\(profile.lookupKey)'; the first row with it is kept"))
                    continue
                }
                byKey[profile.lookupKey] = profiles.count
                // The first row of a family represents it; rows are usually the "B" variant.
                if let family = DeviceFingerprint.samsungFamily(of: profile.lookupKey), byFamily[family] == nil {
                    byFamily[family] = profiles.count
                }
                profiles.append(profile)
            } catch {
                skipped.append(SkippedCatalogRow(index: index, key: error.key, reason: error.reason))
            }
        }
        self.version = document.version
        self.generatedAt = document.generatedAt
        self.catalogVersion = document.catalogVersion
        self.publication = document.publication
        self.profiles = profiles
        self.skippedRows = skipped.sorted { $0.index < $1.index }
        self.byKey = byKey
        self.byFamily = byFamily
    }

    /// The entry for one candidate key, looked up in the index its kind names.
    public func profile(for candidate: LookupKey) -> DeviceAntennaProfile? {
        let index = candidate.matchedBy == .family ? byFamily[candidate.key] : byKey[candidate.key]
        return index.map { profiles[$0] }
    }

    /// The document form, e.g. for `catalog list --json`. Skipped rows are not in it.
    public var document: CatalogResponseDTO {
        CatalogResponseDTO(
            version: version, generatedAt: generatedAt, entries: profiles.map(\.entry), catalogVersion: catalogVersion,
            publication: publication)
    }

    /// This catalog laid over `base`: its own entries first, then `base`'s entries for
    /// keys it does not name. How a lab's patch becomes a full catalog. The publication
    /// (number and approval) is this layer's: a seed under a signed catalog adds rows, not
    /// a version.
    public func laid(over base: Catalog) -> Catalog {
        let own = Set(profiles.map(\.lookupKey))
        let rest = base.profiles.filter { !own.contains($0.lookupKey) }.map(\.entry)
        return Catalog(
            document: CatalogResponseDTO(
                version: "\(version)+\(base.version)", generatedAt: generatedAt,
                entries: profiles.map(\.entry) + rest, catalogVersion: catalogVersion, publication: publication))
    }
}
