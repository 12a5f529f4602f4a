import Foundation
import NFCBenchRecords
import NFCLocatorCore
import NFCPhysics
import NFCReaders

/// The phone's coil as one session's taps say it, under the physics of two loops
/// (`CoilFit`, docs/physics.md): in millimetres, each figure with its 95 % interval. What
/// `show` and the reports give beside the measured read region, which is not the coil.
public struct SessionCoil: Sendable {
    public let estimate: CoilEstimate
    public let geometry: ReaderGeometry

    /// Why a session has no coil estimate.
    public enum Unavailable: Error, Sendable, Equatable {
        /// The session does not record its reader's antenna (it predates migration 018, or
        /// its reader has no profile and the operator gave none).
        case readerAntennaUnknown
        /// The catalog gave no body size, so positions have no millimetres.
        case bodyUnknown
        /// Nothing read.
        case noReads

        public var words: String {
            switch self {
            case .readerAntennaUnknown:
                "reader's antenna unknown (a session from before it was recorded, or a reader without a profile: "
                    + "run --reader-antenna WxH)"
            case .bodyUnknown: "the catalog publishes no body size for this model"
            case .noReads: "no tap read"
            }
        }
    }

    /// Fits the coil to `taps` of `session`: hits and misses on the back and above it, and
    /// the grades of reads graded on the standard ladder.
    public static func estimate(_ session: SessionRecord, taps: [TapRecord]) -> Result<SessionCoil, Unavailable> {
        guard let geometry = session.readerGeometry else { return .failure(.readerAntennaUnknown) }
        guard let bodyHeight = session.bodyHeightMm else { return .failure(.bodyUnknown) }
        return pooled([(session, taps)], bodyWidthMm: bodyHeight * session.aspectRatio, bodyHeightMm: bodyHeight)
            .map { SessionCoil(estimate: $0, geometry: geometry) }
    }

    /// One coil from several sessions, each with its own reader's antenna and gap (a
    /// threshold per bench): what `catalog publish` writes. Sessions that do not record
    /// their reader's antenna cannot say where the coil is and are left out.
    public static func pooled(
        _ sessions: [(session: SessionRecord, taps: [TapRecord])], bodyWidthMm: Double, bodyHeightMm: Double
    ) -> Result<CoilEstimate, Unavailable> {
        fitted(sessions, bodyWidthMm: bodyWidthMm, bodyHeightMm: bodyHeightMm) { $0.estimate($1, seeds: $2) }
    }

    /// `pooled`, with `alongside` (work that needs only the pooled coil and its rung law)
    /// done beside the intervals (`CoilFit.estimate(_:seeds:alongside:)`).
    public static func pooled<T: Sendable>(
        _ sessions: [(session: SessionRecord, taps: [TapRecord])], bodyWidthMm: Double, bodyHeightMm: Double,
        alongside: @escaping @Sendable (_ coil: CoilRectangle, _ exponent: Double) -> T
    ) -> Result<(estimate: CoilEstimate, alongside: T), Unavailable> {
        fitted(sessions, bodyWidthMm: bodyWidthMm, bodyHeightMm: bodyHeightMm) {
            $0.estimate($1, seeds: $2, alongside: alongside)
        }
    }

    /// Each session's own coil centre, with its intervals (`CoilFit.centres`): the sessions
    /// fitted side by side, each under `exponent`, the rung law the pooled fit found, and
    /// each started from the pooled coil too, so a session that agrees with it is not put
    /// elsewhere by a hill its few taps left. `nil` for a session that records no reader
    /// antenna or has no read.
    public static func sessionCentres(
        _ sessions: [(session: SessionRecord, taps: [TapRecord])], bodyWidthMm: Double, bodyHeightMm: Double,
        exponent: Double, from pooled: CoilRectangle
    ) -> [(x: CoilEstimate.Interval, y: CoilEstimate.Interval)?] {
        let groups = sessions.map { coilTaps([$0], bodyWidthMm: bodyWidthMm, bodyHeightMm: bodyHeightMm) }
        let fit = CoilFit.bench(bodyWidthMm: bodyWidthMm, bodyHeightMm: bodyHeightMm)
        let fitted = fit.centres(groups.filter { !$0.isEmpty }, exponent: exponent, seeds: [pooled])
        var next = fitted.makeIterator()
        return groups.map { $0.isEmpty ? nil : next.next()! }
    }

    private static func fitted<T>(
        _ sessions: [(session: SessionRecord, taps: [TapRecord])], bodyWidthMm: Double, bodyHeightMm: Double,
        _ fitting: (CoilFit, [CoilTap], [CoilRectangle]) -> T?
    ) -> Result<T, Unavailable> {
        guard sessions.contains(where: { $0.session.readerGeometry != nil }) else { return .failure(.readerAntennaUnknown) }
        let fit = CoilFit.bench(bodyWidthMm: bodyWidthMm, bodyHeightMm: bodyHeightMm)
        let perSession = sessions.map { coilTaps([$0], bodyWidthMm: bodyWidthMm, bodyHeightMm: bodyHeightMm) }
        let taps = Array(perSession.joined())
        // Seeded only where the fit itself has few taps: sessions pooled into many leave one hill.
        let seeds =
            taps.count <= seededUpTo
            ? zip(sessions, perSession).compactMap { session, own in
                seed(own, design: seedingDesign(own, predicted: session.session.predicted, fit: fit))
            } : []
        guard let result = fitting(fit, taps, seeds) else {
            return .failure(.noReads)
        }
        return .success(result)
    }

    /// A fit of at most this many taps is seeded from each session's cloud: a hand session's
    /// sixteen leave the likelihood several hills, where a dense raster's, or several sessions
    /// pooled, leave one (and the cloud's cost grows with the taps).
    static let seededUpTo = 48

    /// Where the coils one session's taps allow overlap the coil most
    /// (`CoilDesign.likeliestOverlap`): a start for the fit. `nil` for a session of many taps
    /// or without a read. The coil plan asks it of its own design, whose cloud has read the
    /// same taps under the same prior, so a run and `show` give one coil.
    static func seed(_ taps: [CoilTap], design: CoilDesign?) -> CoilRectangle? {
        guard let design, taps.count <= seededUpTo, taps.contains(where: \.hit) else { return nil }
        return design.likeliestOverlap(after: taps)
    }

    /// A design that believes what `run --plan coil` believes before its first tap, around
    /// the session's prediction; it is asked for no position, so one candidate stands in.
    /// `nil` without a tap (no bench to read by).
    private static func seedingDesign(_ taps: [CoilTap], predicted: NormalizedRect?, fit: CoilFit) -> CoilDesign? {
        guard let bench = taps.first?.bench else { return nil }
        let anywhere = CoilDesign.Position(x: fit.bodyWidthMm / 2, y: fit.bodyHeightMm / 2)
        return CoilDesign(
            fit: fit, bench: bench, candidates: [anywhere], prior: CoilDesign.Prior(around: predicted, fit: fit),
            graded: taps.contains { $0.rungsRead != nil }, budget: taps.count + 1)
    }

    /// The sessions' hits and misses as the coil fit reads them, in millimetres on the back;
    /// a session that records no reader antenna gives none.
    private static func coilTaps(
        _ sessions: [(session: SessionRecord, taps: [TapRecord])], bodyWidthMm: Double, bodyHeightMm: Double
    ) -> [CoilTap] {
        let ladder = CouplingLadder.standard
        var coilTaps: [CoilTap] = []
        for (session, taps) in sessions {
            guard let geometry = session.readerGeometry else { continue }
            let bench = CoilTap.Bench(geometry)
            coilTaps += taps.compactMap { t -> CoilTap? in
                guard t.result == .hit || t.result == .miss else { return nil }
                let graded = t.result == .hit && t.couplingLadder == ladder.name ? t.coupling : nil
                return CoilTap(
                    x: t.probe.x * bodyWidthMm, y: t.probe.y * bodyHeightMm, heightMm: max(0, t.probe.heightMm),
                    hit: t.result == .hit, rungsRead: graded.map { ladder.rungsRead(coupling: $0) }, bench: bench)
            }
        }
        return coilTaps
    }

    /// "centre 35.3 mm from the left (33.1-37.0), 40.2 mm from the top (39.0-41.5); 40 x 30 mm
    /// (width 35-44, height 26-33); open: width".
    public var words: String { Self.words(estimate) }

    /// The same words for any coil estimate (a pooled one: `refine`).
    public static func words(_ e: CoilEstimate) -> String {
        func mm(_ v: Double) -> String { String(format: "%.1f", v) }
        func range(_ i: CoilEstimate.Interval) -> String { mm(i.low) + "-" + mm(i.high) }
        let open = [("centre x", e.centreX), ("centre y", e.centreY), ("width", e.width), ("height", e.height)]
            .filter { $0.1.open }.map(\.0)
        return "centre \(mm(e.centreX.value)) mm from the left (\(range(e.centreX))), \(mm(e.centreY.value)) mm from the top "
            + "(\(range(e.centreY))); \(mm(e.width.value)) x \(mm(e.height.value)) mm (width \(range(e.width)), "
            + "height \(range(e.height)))" + (open.isEmpty ? "" : "; open: " + open.joined(separator: ", "))
    }
}

extension CatalogCoilDTO {
    /// A coil estimate to a tenth of a millimetre, as `refine` and `catalog publish` write
    /// it; `open` only on a figure the taps did not bound.
    public init(_ e: CoilEstimate) {
        func interval(_ i: CoilEstimate.Interval) -> CatalogIntervalDTO {
            func r(_ v: Double) -> Double { (v * 10).rounded() / 10 }
            return CatalogIntervalDTO(value: r(i.value), low: r(i.low), high: r(i.high), open: i.open ? true : nil)
        }
        self.init(
            centreXMm: interval(e.centreX), centreYMm: interval(e.centreY), widthMm: interval(e.width),
            heightMm: interval(e.height))
    }
}

extension CoilTap.Bench {
    /// The bench a session's recorded reader geometry describes.
    public init(_ geometry: ReaderGeometry) {
        self.init(
            reader: ReaderAntenna(widthMm: geometry.antennaWidthMm, heightMm: geometry.antennaHeightMm),
            gapMm: geometry.gapMm)
    }
}
