import Foundation

/// A validated catalog entry: what the resolver hands out.
public struct DeviceAntennaProfile: Sendable, Hashable {
    public let lookupKey: String
    public let modelIdentifier: String
    public let manufacturer: String
    public let displayName: String
    public let formFactor: FormFactor
    public let foldState: FoldState?
    public let screenSizeClass: ScreenSizeClass?
    public let aspectRatio: Double
    public let zone: NormalizedRect
    public let silhouetteTemplateId: String
    public let verified: Bool
    public let lastVerifiedAt: Date?
    public let bodyHeightMm: Double?
    /// The wire row this profile was validated from, kept so catalogs re-export verbatim.
    public let entry: CatalogEntryDTO

    static let zoneWireFields = ["x": "zoneX", "y": "zoneY", "width": "zoneWidth", "height": "zoneHeight"]

    /// Approximate entries older than this, or never verified, are stale.
    public static let staleAfter: TimeInterval = 180 * 86_400

    /// `exact` for verified entries, `approximate` otherwise.
    public var confidence: Confidence { verified ? .exact : .approximate }

    /// Exact entries never go stale: they are curated data, not guesses. Approximate
    /// entries with no `lastVerifiedAt`, or one more than 180 days before `now`, are
    /// stale and are shown with the sweep guidance instead of standing alone.
    public func isStale(now: Date) -> Bool {
        if verified { return false }
        guard let lastVerifiedAt else { return true }
        return now.timeIntervalSince(lastVerifiedAt) > Self.staleAfter
    }

    /// Validates a wire row. Throws with a sentence naming the offending field.
    public init(entry: CatalogEntryDTO) throws(CatalogRowError) {
        let key = entry.lookupKey()
        func fail(_ reason: String) -> CatalogRowError { CatalogRowError(key: key, reason: reason) }
        guard !entry.modelIdentifier.allSatisfy(\.isWhitespace) else {
            throw fail("modelIdentifier is empty")
        }
        guard let formFactor = FormFactor(rawValue: entry.formFactor) else {
            throw fail("formFactor '\(entry.formFactor)' is not one of \(FormFactor.allCases.map(\.rawValue))")
        }
        var foldState: FoldState?
        if let raw = entry.foldState {
            guard let value = FoldState(rawValue: raw) else { throw fail("foldState '\(raw)' is not folded/unfolded") }
            foldState = value
        }
        var sizeClass: ScreenSizeClass?
        if let raw = entry.screenSizeClass {
            guard let value = ScreenSizeClass(rawValue: raw) else {
                throw fail("screenSizeClass '\(raw)' is not compact/regular/large")
            }
            sizeClass = value
        }
        let ratios = PlausibleRanges.catalogAspectRatio
        guard entry.aspectRatio.isFinite, entry.aspectRatio > ratios.lowerBound, entry.aspectRatio < ratios.upperBound else {
            throw fail(
                "aspectRatio \(entry.aspectRatio) is not a plausible width/height (\(ratios.lowerBound)...\(ratios.upperBound))")
        }
        for (name, value) in [("bodyWidthMm", entry.bodyWidthMm), ("bodyHeightMm", entry.bodyHeightMm)] {
            guard let value else { continue }
            guard value.isFinite, PlausibleRanges.bodyMm.contains(value) else {
                throw fail(
                    "\(name) \(value) is not a plausible body size in millimetres "
                        + "(\(PlausibleRanges.bodyMm.lowerBound)...\(PlausibleRanges.bodyMm.upperBound))")
            }
        }
        do {
            zone = try NormalizedRect(
                x: entry.zoneX, y: entry.zoneY, width: entry.zoneWidth, height: entry.zoneHeight)
        } catch {
            throw fail(error.description(wireFieldNames: Self.zoneWireFields))
        }
        var verifiedAt: Date?
        if let raw = entry.lastVerifiedAt {
            guard let date = ISO8601Parsing.date(from: raw) else {
                throw fail("lastVerifiedAt '\(raw)' is not an ISO 8601 date")
            }
            verifiedAt = date
        }
        lookupKey = key
        modelIdentifier = entry.modelIdentifier
        manufacturer = entry.manufacturer
        displayName = entry.displayName
        self.formFactor = formFactor
        self.foldState = foldState
        screenSizeClass = sizeClass
        aspectRatio = entry.aspectRatio
        silhouetteTemplateId = entry.silhouetteTemplateId
        verified = entry.verified ?? false
        lastVerifiedAt = verifiedAt
        bodyHeightMm = entry.bodyHeightMm
        self.entry = entry
    }
}

/// Why one catalog row was rejected.
public struct CatalogRowError: Error, Sendable, Equatable {
    public let key: String
    public let reason: String
}
