import NFCBenchRecords
import NFCLocatorCore

/// What a graded session's verdict still needs from its last positions.
///
/// The graded design taps where the coils still possible disagree, which places the coil
/// well but need not give the evidence a verdict rests on (`SessionScore.judge`): a read in
/// the predicted zone's middle, and two silences around it, or, when nothing read, taps
/// inside and around the zone. Left to itself, the design confirmed a right prediction
/// only 23 % of the time in `bench/verdicts`. So the design keeps as many positions as the
/// verdict still lacks, and spends them on that evidence when the budget runs down to
/// them (or when no position would tell it more about the coil).
struct VerdictReserve {
    enum Need: Equatable {
        /// A read in the zone's middle: the centre missed (a phone misses now and then) and
        /// nothing else there read yet.
        case coreRead
        /// A tap inside the zone: nothing read so far, and NO_FIELD needs two inside.
        case inside
        /// A silence around the zone, which rules out a larger or shifted coil.
        case silenceAround
    }

    let predicted: NormalizedRect
    let aspectRatio: Double
    /// What is missing, most needed first.
    let needs: [Need]
    /// The positions around the zone that stayed silent: a new silence goes to another side.
    let silences: [Probe]

    init(predicted: NormalizedRect, aspectRatio: Double, history: [(probe: Probe, hit: Bool)]) {
        self.predicted = predicted
        self.aspectRatio = aspectRatio
        let e = ZoneEvidence(predicted: predicted, taps: history, aspectRatio: aspectRatio)
        var needs: [Need] = []
        if history.contains(where: \.hit) {
            // A read well outside, or a core that missed more than a phone does, makes the
            // session SHIFTED whatever comes next: the design may spend every position.
            if e.farHits == 0, e.coreMisses <= e.allowedCoreMisses {
                if e.coreHits == 0 { needs.append(.coreRead) }
                needs += Array(repeating: .silenceAround, count: max(0, ZoneEvidence.neededAround - e.outsideMisses))
            }
        } else {
            needs += Array(repeating: .inside, count: max(0, ZoneEvidence.neededInside - e.insideTaps, 1 - e.coreTaps))
            needs += Array(repeating: .silenceAround, count: max(0, ZoneEvidence.neededAround - e.outsideTaps))
        }
        self.needs = needs
        silences = history.filter { tap in
            !tap.hit && ZoneEvidence.signedDistance(tap.probe, to: predicted, aspectRatio: aspectRatio) < 0
        }.map(\.probe)
    }

    /// A position the design considered: the share of the likely coils under which it
    /// would read, and what its outcome would tell about the coil (nats).
    struct Candidate {
        let probe: Probe
        let readChance: Double
        let information: Double
    }

    /// A silence is sought where fewer than this share of the likely coils would read.
    static let silentEnough = 0.05
    /// Positions kept back beyond what the verdict lacks: a sought silence that reads
    /// anyway (one in twenty at most) still leaves a position to seek another.
    static let slack = 1

    /// Whether the positions left are only enough for the evidence the verdict lacks.
    func isDue(positionsLeft: Int) -> Bool { !needs.isEmpty && positionsLeft <= needs.count + Self.slack }

    /// The position that gives the first need a candidate can give, or `nil` when nothing
    /// is missing or no candidate gives it.
    func choose(from candidates: [Candidate]) -> Probe? {
        for need in needs {
            if let probe = choose(need, from: candidates) { return probe }
        }
        return nil
    }

    func choose(_ need: Need, from candidates: [Candidate]) -> Probe? {
        func band(_ c: Candidate) -> ZoneEvidence.Band {
            ZoneEvidence.band(of: c.probe, in: predicted, aspectRatio: aspectRatio)
        }
        func fromCentre(_ p: Probe) -> Double {
            let dx = (p.x - predicted.midX) * aspectRatio, dy = p.y - predicted.midY
            return (dx * dx + dy * dy).squareRoot()
        }
        switch need {
        case .coreRead:
            // The likeliest read; between equals, the nearest the centre.
            return candidates.filter { band($0) == .core }.max {
                ($0.readChance, -fromCentre($0.probe)) < ($1.readChance, -fromCentre($1.probe))
            }?.probe
        case .inside:
            return candidates.filter { band($0) == .core || band($0) == .edge }.min {
                fromCentre($0.probe) < fromCentre($1.probe)
            }?.probe
        case .silenceAround:
            let around = candidates.filter { band($0) == .near || band($0) == .far }
            let quiet = around.filter { $0.readChance < Self.silentEnough }
            guard !quiet.isEmpty else { return around.min { $0.readChance < $1.readChance }?.probe }
            // Among the quiet ones, on a side no silence holds yet where there is one: the
            // silence that tells the most about the coil, then the nearest the zone.
            let otherSide = quiet.filter { c in silences.allSatisfy { !sameSide(c.probe, $0) } }
            return (otherSide.isEmpty ? quiet : otherSide).max {
                ($0.information, -outside($0.probe)) < ($1.information, -outside($1.probe))
            }?.probe
        }
    }

    /// How far outside the zone, in body heights.
    func outside(_ p: Probe) -> Double { -ZoneEvidence.signedDistance(p, to: predicted, aspectRatio: aspectRatio) }

    /// Two positions seen from the zone's centre within 60° of each other.
    func sameSide(_ a: Probe, _ b: Probe) -> Bool {
        let (ax, ay) = ((a.x - predicted.midX) * aspectRatio, a.y - predicted.midY)
        let (bx, by) = ((b.x - predicted.midX) * aspectRatio, b.y - predicted.midY)
        let lengths = (ax * ax + ay * ay).squareRoot() * (bx * bx + by * by).squareRoot()
        return lengths > 0 && (ax * bx + ay * by) / lengths > 0.5
    }
}
