import Foundation

/// The resolver's answer for one device.
public struct AntennaResolution: Sendable {
    /// What to show the operator.
    public enum Guidance: Sendable, Hashable {
        /// A trustworthy catalog zone: exact, or approximate and fresh.
        case marker(ResolvedMarker)
        /// An approximate zone too old (or never) verified to stand alone: draw it
        /// hatched and ask for a sweep around it.
        case staleMarker(ResolvedMarker, sweep: FallbackGuidance)
        /// No catalog entry: the heuristic's sweep region.
        case fallback(FallbackGuidance)
    }

    /// The normalized key of the device asked about.
    public let lookupKey: String
    /// The catalog key that answered and how it matched; `.none` for the heuristic.
    public let matchedKey: String?
    public let matchedBy: MatchKind
    public let source: DataSource
    public let profile: DeviceAntennaProfile?
    public let guidance: Guidance
    /// Version of the catalog that answered, if any.
    public let catalogVersion: String?

    public var confidence: Confidence {
        switch guidance {
        case .marker(let m), .staleMarker(let m, _): m.confidence
        case .fallback(let g): g.confidence
        }
    }

    public var isStale: Bool {
        if case .staleMarker = guidance { return true }
        return false
    }

    /// The zone to predict: the catalog zone, or the heuristic's sweep region.
    public var zone: NormalizedRect? {
        switch guidance {
        case .marker(let m), .staleMarker(let m, _): m.zone
        case .fallback(let g): g.sweepRegion
        }
    }

    /// Hint text key for the operator: the stale or fallback hint, or the marker's.
    public var hintKey: String {
        switch guidance {
        case .marker: "nfc_locator.marker.hint"
        case .staleMarker(_, let sweep), .fallback(let sweep): sweep.hintKey
        }
    }
}
