import Foundation
import NFCLocatorCore
import NFCPhysics

/// `refine`'s output: a catalog document in the wire format (`version`, `generatedAt`,
/// `entries`), so `--catalog PATCH` and every platform's reader take it as is. Each
/// refined row carries its evidence in an extra `refinement` member, which readers that
/// ignore unknown keys (all of them, per the wire contract) skip.
public struct RefinementPatch: Sendable, Codable {
    public var version: String
    public var generatedAt: String?
    public var entries: [Row]

    public struct Row: Sendable, Codable {
        public var entry: CatalogEntryDTO
        public var refinement: Provenance?

        public init(entry: CatalogEntryDTO, refinement: Provenance?) { self.entry = entry; self.refinement = refinement }

        private enum Extra: String, CodingKey { case refinement }

        public init(from decoder: any Decoder) throws {
            entry = try CatalogEntryDTO(from: decoder)
            refinement = try? decoder.container(keyedBy: Extra.self).decodeIfPresent(Provenance.self, forKey: .refinement)
        }

        /// The entry's wire keys and `refinement` side by side in one object.
        public func encode(to encoder: any Encoder) throws {
            try entry.encode(to: encoder)
            var extra = encoder.container(keyedBy: Extra.self)
            try extra.encodeIfPresent(refinement, forKey: .refinement)
        }
    }

    /// The evidence behind one refined row.
    public struct Provenance: Sendable, Codable, Equatable {
        public struct Zone: Sendable, Codable, Equatable {
            public var zoneX, zoneY, zoneWidth, zoneHeight: Double
        }
        public struct Edge: Sendable, Codable, Equatable {
            public var value, low, high: Double
            public var open: Bool
        }
        public var method: String
        public var sessions: [String]
        public var sessionCount: Int
        public var taps: Int
        public var hits: Int
        public var distinctUnits: Int
        public var units: [String]
        public var firstSessionAt: String?
        public var lastSessionAt: String?
        public var previousZone: Zone
        public var iouWithPrevious: Double
        /// Body heights between the previous and refined centres.
        public var centreShift: Double
        /// 95% profile-likelihood interval of each edge.
        public var edges: [String: Edge]
        /// Per session: how much better its own rectangle explains it than the pooled one.
        public var sessionDeviance: [Double]
        public var promoted: Bool
        /// Sessions from a simulated reader or virtual bench among the evidence
        /// (`--include-simulated`): such a row is never promotable. Absent in older patches.
        public var simulatedSessions: Int?
        public var promotionPolicy: String
        public var promotionUnmet: [String]
        /// The coil in millimetres, each figure with its 95 % interval, when the sessions
        /// recorded their reader's antenna: the zone written is then this coil, and `edges`
        /// are the read region's. Absent in older patches and without such sessions.
        public var coil: CatalogCoilDTO? = nil
        public var coilSessions: Int? = nil
    }

    /// The refined rows, after the rows of `base` (the `--catalog` file refined against)
    /// that were not refined again, so the new patch supersedes that file instead of
    /// dropping what it held.
    public init(_ report: RefinementReport, policy: PromotionPolicy, carrying base: RefinementPatch? = nil, now: Date = Date()) {
        var rows: [Row] = []
        for refinement in report.entries {
            guard let entry = refinement.patchedEntry else { continue }
            rows.append(Row(entry: entry, refinement: Self.provenance(refinement, policy: policy)))
        }
        let refined = Set(rows.map { $0.entry.lookupKey() })
        let carried = (base?.entries ?? []).filter { !refined.contains($0.entry.lookupKey()) }
        version = "refined-" + now.formatted(.iso8601.year().month().day())
        generatedAt = now.formatted(.iso8601)
        entries = carried + rows
    }

    /// A patch file as written before: its rows and their refinement blocks. Rows that
    /// do not decode are left out (the catalog decoder reports them).
    public static func read(_ data: Data) throws -> RefinementPatch {
        struct Lenient: Decodable {
            let row: Row?
            init(from decoder: any Decoder) throws { row = try? Row(from: decoder) }
        }
        struct Document: Decodable {
            let entries: [Lenient]
            let version: String?
            let generatedAt: String?
        }
        if let duplicate = JSONText(data).duplicateMember() { throw duplicate }
        let document = try JSONDecoder().decode(Document.self, from: data)
        return RefinementPatch(
            version: document.version ?? "unversioned", generatedAt: document.generatedAt,
            entries: document.entries.compactMap(\.row))
    }

    init(version: String, generatedAt: String?, entries: [Row]) {
        self.version = version
        self.generatedAt = generatedAt
        self.entries = entries
    }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    static func provenance(_ r: EntryRefinement, policy: PromotionPolicy) -> Provenance? {
        guard let estimate = r.estimate, case .refined(let promoted, let unmet) = r.outcome else { return nil }
        let old = r.profile.zone
        func rounded(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }
        var edges: [String: Provenance.Edge] = [:]
        for (edge, e) in estimate.edges {
            edges[edge.rawValue] = Provenance.Edge(value: e.value, low: e.low, high: e.high, open: e.open)
        }
        return Provenance(
            method: r.methodDescription, sessions: r.evidence.sessionIDs, sessionCount: r.evidence.sessionIDs.count,
            taps: r.evidence.taps, hits: r.evidence.hits, distinctUnits: r.evidence.units.count, units: r.evidence.units,
            firstSessionAt: r.evidence.first?.formatted(.iso8601), lastSessionAt: r.evidence.newest?.formatted(.iso8601),
            previousZone: .init(zoneX: old.x, zoneY: old.y, zoneWidth: old.width, zoneHeight: old.height),
            iouWithPrevious: rounded(r.iouWithPrevious ?? 0), centreShift: rounded(r.centreShift ?? 0), edges: edges,
            sessionDeviance: r.sessionDeviance.map(rounded), promoted: promoted,
            simulatedSessions: r.evidence.simulatedSessions, promotionPolicy: policy.summary, promotionUnmet: unmet,
            coil: r.coil.map(CatalogCoilDTO.init), coilSessions: r.coil == nil ? nil : r.coilSessions)
    }
}

extension EntryRefinement {
    /// How the zone was estimated, in words, for the provenance block.
    public var methodDescription: String {
        if coil != nil {
            return "the coil: maximum-likelihood rectangle in mm under the mutual inductance of two rectangular loops "
                + "(Neumann's integral, Grover's closed form), from the \(coilSessions) session(s) that record their "
                + "reader's antenna, a threshold per bench, 95 % profile intervals (docs/physics.md); edges: the read region's fit"
        }
        return "maximum-likelihood rectangle over pooled taps; read chance ramps across a 0.03 body-height band centred "
            + "\(evidence.reachMm) mm outside the zone (reader reach"
            + (evidence.assumedBodyHeight
                ? ", converted with an assumed \(CatalogRefiner.assumedBodyHeightMm) mm body height" : "")
            + "); edges on a 1/400 lattice, flat stretches split in the middle"
    }
}
