import Foundation

/// One row of the antenna catalog, exactly as it travels on the wire.
///
/// The coding keys are the shared wire format (`zoneX`, `silhouetteTemplateId`, ...),
/// kept verbatim and not Swift-cased, so one backend can serve every client platform
/// without a translation layer. Unknown keys are ignored on decode.
///
/// Numbers decode as given, even when nonsensical (NaN, negative width): validation
/// happens when a profile is built (`DeviceAntennaProfile.init(entry:)`), so a bad row
/// can be skipped with a reason instead of failing the whole catalog.
public struct CatalogEntryDTO: Sendable, Hashable, Codable {
    /// Raw identifier as the platform reports it: Apple `hw.machine` (`iPhone15,2`),
    /// Android `Build.MODEL` (`SM-S921B`, `Pixel 8`).
    public var modelIdentifier: String
    public var manufacturer: String
    public var displayName: String
    /// `phone`, `tablet`, `foldBook`, `foldFlip`.
    public var formFactor: String
    /// `folded`, `unfolded`, or absent for non-foldables.
    public var foldState: String?
    /// `compact`, `regular`, `large`, or absent.
    public var screenSizeClass: String?
    /// Body width / body height, both from published dimensions.
    public var aspectRatio: Double
    public var zoneX: Double
    public var zoneY: Double
    public var zoneWidth: Double
    public var zoneHeight: Double
    public var silhouetteTemplateId: String
    /// `true` only for curated, model-specific data. Absent means unverified.
    public var verified: Bool?
    /// ISO 8601 date-time (or date) of the last verification.
    public var lastVerifiedAt: String?
    /// Published body dimensions in millimetres, the source of `aspectRatio`.
    public var bodyWidthMm: Double?
    public var bodyHeightMm: Double?
    /// Free text: where the zone came from (measured, inferred, imported, refined).
    public var zoneProvenance: String?
    /// A published catalog's record of the zone's origin and uncertainty
    /// (`catalog publish`); absent elsewhere.
    public var provenance: CatalogProvenanceDTO?

    public init(
        modelIdentifier: String, manufacturer: String, displayName: String, formFactor: String,
        foldState: String? = nil, screenSizeClass: String? = nil, aspectRatio: Double,
        zoneX: Double, zoneY: Double, zoneWidth: Double, zoneHeight: Double,
        silhouetteTemplateId: String, verified: Bool? = nil, lastVerifiedAt: String? = nil,
        bodyWidthMm: Double? = nil, bodyHeightMm: Double? = nil, zoneProvenance: String? = nil,
        provenance: CatalogProvenanceDTO? = nil
    ) {
        self.modelIdentifier = modelIdentifier
        self.manufacturer = manufacturer
        self.displayName = displayName
        self.formFactor = formFactor
        self.foldState = foldState
        self.screenSizeClass = screenSizeClass
        self.aspectRatio = aspectRatio
        self.zoneX = zoneX
        self.zoneY = zoneY
        self.zoneWidth = zoneWidth
        self.zoneHeight = zoneHeight
        self.silhouetteTemplateId = silhouetteTemplateId
        self.verified = verified
        self.lastVerifiedAt = lastVerifiedAt
        self.bodyWidthMm = bodyWidthMm
        self.bodyHeightMm = bodyHeightMm
        self.zoneProvenance = zoneProvenance
        self.provenance = provenance
    }

    /// The catalog-side key: `CatalogKey.normalize(modelIdentifier)`.
    public func lookupKey() -> String { CatalogKey.normalize(modelIdentifier) }
}
