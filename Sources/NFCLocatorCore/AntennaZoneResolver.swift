import Foundation

/// The resolver chain: remote catalog -> seed catalog -> heuristic.
///
/// Catalogs are loaded and indexed before resolving (`ResolverChainLoader`), so
/// `resolve` is synchronous, allocation-light and safe to call per keystroke.
public struct AntennaZoneResolver: Sendable {
    public let remote: Catalog?
    public let seed: Catalog?
    public let fallback: GenericFallbackSource
    public let analytics: any NFCLocatorAnalytics

    public init(
        remote: Catalog?, seed: Catalog?, fallback: GenericFallbackSource = GenericFallbackSource(),
        analytics: any NFCLocatorAnalytics = NoOpAnalytics()
    ) {
        self.remote = remote
        self.seed = seed
        self.fallback = fallback
        self.analytics = analytics
    }

    /// Layer order beats key order: a remote family match wins over a seed exact match,
    /// because the remote catalog is the curated, newer one.
    public func resolve(
        _ fingerprint: DeviceFingerprint, signals: DeviceIdentitySignals,
        now: Date = Date()
    ) -> AntennaResolution {
        let candidates = fingerprint.lookupKeys()
        for (source, catalog) in [(DataSource.remoteCatalog, remote), (.seedCatalog, seed)] {
            guard let catalog else { continue }
            for candidate in candidates {
                guard let profile = catalog.profile(for: candidate) else { continue }
                let marker = ResolvedMarker(zone: profile.zone, confidence: profile.confidence)
                let guidance: AntennaResolution.Guidance =
                    profile.isStale(now: now)
                    ? .staleMarker(marker, sweep: fallback.sweep(around: profile.zone))
                    : .marker(marker)
                return report(
                    AntennaResolution(
                        lookupKey: fingerprint.model, matchedKey: profile.lookupKey, matchedBy: candidate.matchedBy,
                        source: source, profile: profile, guidance: guidance, catalogVersion: catalog.version))
            }
        }
        return report(
            AntennaResolution(
                lookupKey: fingerprint.model, matchedKey: nil, matchedBy: .none, source: .heuristic,
                profile: nil, guidance: .fallback(fallback.guidance(for: signals)), catalogVersion: nil))
    }

    private func report(_ resolution: AntennaResolution) -> AntennaResolution {
        analytics.antennaResolved(
            lookupKey: resolution.lookupKey, source: resolution.source,
            confidence: resolution.confidence, stale: resolution.isStale)
        return resolution
    }
}

/// What happened to each catalog layer while the chain was loaded.
public struct CatalogLayerStatus: Sendable {
    public enum State: Sendable {
        case notConfigured
        case loaded(entries: Int, skipped: [SkippedCatalogRow])
        case failed(reason: String)
    }
    public let source: DataSource
    public let origin: String?
    public let state: State
}

/// Builds a resolver from its layer sources, letting a failing layer fall through.
public enum ResolverChainLoader {
    public static func load(
        remote: (any CatalogRemoteAPI)?, remoteOrigin: String? = nil, seedURL: URL?,
        analytics: any NFCLocatorAnalytics = NoOpAnalytics()
    ) async -> (resolver: AntennaZoneResolver, layers: [CatalogLayerStatus]) {
        var layers: [CatalogLayerStatus] = []
        var remoteCatalog: Catalog?
        if let remote {
            do {
                let catalog = Catalog(document: try await remote.fetchCatalog())
                remoteCatalog = catalog
                layers.append(loaded(catalog, source: .remoteCatalog, origin: remoteOrigin, analytics: analytics))
            } catch {
                let reason = String(describing: error)
                analytics.catalogLayerFailed(source: .remoteCatalog, reason: reason)
                layers.append(CatalogLayerStatus(source: .remoteCatalog, origin: remoteOrigin, state: .failed(reason: reason)))
            }
        } else {
            layers.append(CatalogLayerStatus(source: .remoteCatalog, origin: nil, state: .notConfigured))
        }
        var seedCatalog: Catalog?
        if let seedURL {
            do {
                let catalog = Catalog(document: try CatalogDocumentDecoder.load(contentsOf: seedURL))
                seedCatalog = catalog
                layers.append(loaded(catalog, source: .seedCatalog, origin: seedURL.path, analytics: analytics))
            } catch {
                analytics.catalogLayerFailed(source: .seedCatalog, reason: error.description)
                layers.append(
                    CatalogLayerStatus(
                        source: .seedCatalog, origin: seedURL.path,
                        state: .failed(reason: error.description)))
            }
        } else {
            layers.append(CatalogLayerStatus(source: .seedCatalog, origin: nil, state: .notConfigured))
        }
        let resolver = AntennaZoneResolver(remote: remoteCatalog, seed: seedCatalog, analytics: analytics)
        return (resolver, layers)
    }

    private static func loaded(
        _ catalog: Catalog, source: DataSource, origin: String?,
        analytics: any NFCLocatorAnalytics
    ) -> CatalogLayerStatus {
        for row in catalog.skippedRows { analytics.catalogRowSkipped(source: source, row: row) }
        return CatalogLayerStatus(
            source: source, origin: origin,
            state: .loaded(entries: catalog.profiles.count, skipped: catalog.skippedRows))
    }
}

extension DeviceIdentitySignals {
    /// Signals for a typed-in model when the operator gave no form factor: known phone
    /// makers' identifiers are phones, Samsung `SM-F9xx`/`SM-F7xx` are book/flip
    /// foldables; anything else stays unknown so the heuristic says so.
    public static func inferred(
        from fingerprint: DeviceFingerprint, model: String,
        formFactor: FormFactor? = nil, foldState: FoldState? = nil
    ) -> DeviceIdentitySignals {
        var shape = formFactor
        if shape == nil {
            if fingerprint.model.hasPrefix("sm_f9") {
                shape = .foldBook
            } else if fingerprint.model.hasPrefix("sm_f7") {
                shape = .foldFlip
            } else if fingerprint.model.hasPrefix("ipad") {
                shape = .tablet
            } else if !fingerprint.manufacturer.isEmpty {
                shape = .phone
            }
        }
        return DeviceIdentitySignals(
            manufacturer: fingerprint.manufacturer.isEmpty ? nil : fingerprint.manufacturer,
            model: model, formFactor: shape, foldState: foldState)
    }
}
