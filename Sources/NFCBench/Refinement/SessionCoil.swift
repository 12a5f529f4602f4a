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
        fitted(sessions, bodyWidthMm: bodyWidthMm, bodyHeightMm: bodyHeightMm) { $0.estimate($1) }
    }

    /// Each session's own coil centre, with its intervals (`CoilFit.centres`): the sessions
    /// fitted side by side, each under `exponent`, the rung law the pooled fit found. `nil`
    /// for a session that records no reader antenna or has no read.
    public static func sessionCentres(
        _ sessions: [(session: SessionRecord, taps: [TapRecord])], bodyWidthMm: Double, bodyHeightMm: Double,
        exponent: Double
    ) -> [(x: CoilEstimate.Interval, y: CoilEstimate.Interval)?] {
        let groups = sessions.map { coilTaps([$0], bodyWidthMm: bodyWidthMm, bodyHeightMm: bodyHeightMm) }
        let fit = CoilFit.bench(bodyWidthMm: bodyWidthMm, bodyHeightMm: bodyHeightMm)
        let fitted = fit.centres(groups.filter { !$0.isEmpty }, exponent: exponent)
        var next = fitted.makeIterator()
        return groups.map { $0.isEmpty ? nil : next.next()! }
    }

    private static func fitted<T>(
        _ sessions: [(session: SessionRecord, taps: [TapRecord])], bodyWidthMm: Double, bodyHeightMm: Double,
        _ fitting: (CoilFit, [CoilTap]) -> T?
    ) -> Result<T, Unavailable> {
        guard sessions.contains(where: { $0.session.readerGeometry != nil }) else { return .failure(.readerAntennaUnknown) }
        let fit = CoilFit.bench(bodyWidthMm: bodyWidthMm, bodyHeightMm: bodyHeightMm)
        guard let result = fitting(fit, coilTaps(sessions, bodyWidthMm: bodyWidthMm, bodyHeightMm: bodyHeightMm)) else {
            return .failure(.noReads)
        }
        return .success(result)
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
