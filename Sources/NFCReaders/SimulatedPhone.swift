import Foundation

/// A phone in card emulation, as the bench sees it: where its coil is, which RF
/// technology it answers with, and how reliably.
///
/// Geometry is in the catalog's convention (fractions of the back, viewed from the
/// back, origin top-left). Distances are measured in fractions of the body *height*
/// (x is scaled by the aspect ratio), so a fall-off means the same millimetres along
/// both axes.
public struct SimulatedPhone: Sendable, Hashable {
    /// The coil, as (x, y, width, height) fractions of the back.
    public var antenna: (x: Double, y: Double, width: Double, height: Double)
    /// Body width / height.
    public var aspectRatio: Double
    public var technology: TargetTechnology
    /// Radius of the reader's sensitive area around the probe point.
    public var readerRadius: Double
    /// Width of the band, around the coil's edge, where detection goes from sure to never.
    public var edgeFalloff: Double
    /// Chance that the phone does not answer even squarely over the coil.
    public var missRate: Double
    /// An Android phone answers the Android HCE SELECT (`AndroidHCEProbe`); an iPhone's
    /// Wallet does not.
    public var answersAndroidHCE = true
    /// How high above the back the phone still couples with the reader over the middle of
    /// its coil, in mm: the top of its operating volume (`readHeight`).
    public var readHeightMm = 20.0
    /// A phone whose front end saturates (`nil`: none does): it answers no field stronger
    /// than it needs by more than this, in coupling units, so a full field misses it deep
    /// over its coil while a weaker one reads. Some real boards do this with a phone too
    /// close (docs/coupling.md, "The measurement").
    public var saturation: Double?
    /// The world the phone couples in: the linear model (the default, for comparison) or
    /// two coupled loops (`SimulatedCoupling`).
    public var couplingModel: SimulatedCoupling = .linear

    public init(
        antenna: (x: Double, y: Double, width: Double, height: Double), aspectRatio: Double = 0.48,
        technology: TargetTechnology = .iso14443A, readerRadius: Double = 0.02,
        edgeFalloff: Double = 0.03, missRate: Double = 0.03
    ) {
        precondition(antenna.width > 0 && antenna.height > 0, "antenna needs a positive size")
        precondition((0...1).contains(missRate), "missRate is a probability")
        self.antenna = antenna
        self.aspectRatio = aspectRatio
        self.technology = technology
        self.readerRadius = readerRadius
        self.edgeFalloff = edgeFalloff
        self.missRate = missRate
    }

    public static func == (a: SimulatedPhone, b: SimulatedPhone) -> Bool {
        a.antenna == b.antenna && a.aspectRatio == b.aspectRatio && a.technology == b.technology
            && a.readerRadius == b.readerRadius && a.edgeFalloff == b.edgeFalloff && a.missRate == b.missRate
            && a.answersAndroidHCE == b.answersAndroidHCE && a.readHeightMm == b.readHeightMm
            && a.saturation == b.saturation && a.couplingModel == b.couplingModel
    }

    public func hash(into hasher: inout Hasher) {
        for v in [antenna.x, antenna.y, antenna.width, antenna.height, aspectRatio, readerRadius, edgeFalloff, missRate] {
            hasher.combine(v)
        }
        hasher.combine(technology)
    }

    /// Signed distance from the probe point to the coil's edge in body heights:
    /// positive inside the coil, negative outside.
    public func signedDistance(x: Double, y: Double) -> Double {
        let a = antenna
        let dxOut = max(a.x - x, 0, x - (a.x + a.width)) * aspectRatio
        let dyOut = max(a.y - y, 0, y - (a.y + a.height))
        if dxOut > 0 || dyOut > 0 { return -((dxOut * dxOut + dyOut * dyOut).squareRoot()) }
        let dxIn = min(x - a.x, a.x + a.width - x) * aspectRatio
        let dyIn = min(y - a.y, a.y + a.height - y)
        return min(dxIn, dyIn)
    }

    /// The coupling model with height (docs/rig.md): the field's reach shrinks linearly
    /// as the reader rises, from the whole sensitive area at the back (the coil grown by
    /// the reader's radius) to nothing at `readHeightMm` over the coil's middle. So the
    /// greatest height at which a point reads is `readHeightMm` times its depth inside the
    /// sensitive area, as a fraction of the deepest point's: `readHeightMm` on the coil's
    /// centre line, falling to 0 at the area's edge.
    public func readHeight(x: Double, y: Double) -> Double {
        let deepest = inradius + readerRadius
        return max(0, readHeightMm * (signedDistance(x: x, y: y) + readerRadius) / deepest)
    }

    /// How strongly the reader couples with the phone at (x, y), `heightMm` above the back,
    /// from 0 (at the edge of the sensitive area, shrunk for the height as `readHeight`
    /// shrinks it) to 1 (on the coil's centre line, on the back): the depth inside that
    /// area as a fraction of the deepest point's. The emulated PN532 answers a weakened
    /// field only where this reaches the field's threshold (`AnalogProfile.threshold`).
    /// In the physical world it is 1 - (1 / margin)^(1 / exponent): a rung of threshold t
    /// gives the field (1 - t)^exponent, so the phone answers it exactly where this reaches t.
    public func coupling(x: Double, y: Double, heightMm: Double = 0) -> Double {
        if case .mutualInductance(let bench) = couplingModel, let physics {
            let margin = physicalMargin(bench, physics, x: x, y: y, heightMm: heightMm)
            return margin <= 1 ? 0 : 1 - pow(1 / margin, 1 / bench.rungFieldExponent)
        }
        let deepest = inradius + readerRadius
        let shrink = readHeightMm > 0 ? max(0, heightMm) / readHeightMm * deepest : 0
        return min(1, max(0, (signedDistance(x: x, y: y) + readerRadius - shrink) / deepest))
    }

    /// Whether the phone answers a field of `threshold` (`AnalogProfile.threshold`: 0 for
    /// the full field) at (x, y): its coupling reaches the threshold, and, for a phone
    /// that saturates, does not exceed it by more than `saturation`.
    public func answers(fieldThreshold threshold: Double, x: Double, y: Double, heightMm: Double = 0) -> Bool {
        let c = coupling(x: x, y: y, heightMm: heightMm)
        return c >= threshold && (saturation.map { c - threshold <= $0 } ?? true)
    }

    /// Half the coil's shorter side, in body heights: the depth of its centre line.
    var inradius: Double { min(antenna.width * aspectRatio, antenna.height) / 2 }

    /// Probability that a tap with the reader at (x, y), `heightMm` above the back, is
    /// detected: the edge fall-off of the sensitive area, shrunk for the height (`readHeight`).
    /// In the physical world, the chance that |M| clears a threshold that varies from one
    /// placement to the next (`PhysicalBench.thresholdSpread`).
    public func detectionProbability(x: Double, y: Double, heightMm: Double = 0) -> Double {
        if case .mutualInductance(let bench) = couplingModel, let physics {
            let margin = physicalMargin(bench, physics, x: x, y: y, heightMm: heightMm)
            guard margin > 0 else { return 0 }
            let z = bench.thresholdSpread > 0 ? log(margin) / bench.thresholdSpread : (margin >= 1 ? .infinity : -.infinity)
            return (1 - missRate) * 0.5 * erfc(-z / 2.squareRoot())
        }
        let shrink = readHeightMm > 0 ? max(0, heightMm) / readHeightMm * (inradius + readerRadius) : 0
        let d = signedDistance(x: x, y: y) + readerRadius - shrink
        let sure = 1 - missRate
        if edgeFalloff <= 0 { return d >= 0 ? sure : 0 }
        if d >= edgeFalloff { return sure }
        if d <= -edgeFalloff { return 0 }
        return sure * (d + edgeFalloff) / (2 * edgeFalloff)
    }
}

/// The RF answer a simulated phone gives in one field entry.
public struct SimulatedTarget: Sendable, Hashable {
    public let technology: TargetTechnology
    public let uid: [UInt8]
    public let atqa: [UInt8]
    public let sak: UInt8
    /// ATS without its length byte (type A).
    public let ats: [UInt8]
    /// Full ATQB, starting 0x50 (type B).
    public let atqb: [UInt8]
    /// An Android phone's NFC service answers the Android HCE AID itself (`AndroidHCEProbe`).
    public var answersAndroidHCE = false

    /// The phone's answer to a SELECT by AID: Android's to its HCE AID, `6A 82` (not
    /// found) to any other, as a phone without the app answers.
    public func answer(toSelect apdu: [UInt8]) -> [UInt8] {
        answersAndroidHCE && AndroidHCEProbe.isProbe(apdu) ? AndroidHCEProbe.androidAnswer : [0x6A, 0x82]
    }

    /// Android HCE-like answer: random 4-byte UID starting 0x08, ATQA 00 04, SAK 0x20
    /// (ISO-DEP), an ATS without historical bytes, hence PC/SC ATR 3B 80 80 01 01.
    /// `answersAndroidHCE`: an Android phone's, not an iPhone's (`SimulatedPhone`).
    public static func hce(technology: TargetTechnology, answersAndroidHCE: Bool, using rng: inout SeededGenerator)
        -> SimulatedTarget
    {
        let random = (0..<3).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let uid = [0x08] + random
        return SimulatedTarget(
            technology: technology, uid: uid, atqa: [0x00, 0x04], sak: 0x20,
            ats: [0x78, 0x80, 0x70, 0x02],
            atqb: [0x50] + uid + [0x00, 0x00, 0x00, 0x00] + [0x00, 0x81, 0x71], answersAndroidHCE: answersAndroidHCE)
    }

    /// The ATR a PC/SC reader builds for this target (PC/SC Part 3): a storage card's
    /// (RID, card standard ISO 14443 A part 3, card name) without ISO-DEP, else from the ATS.
    public var atr: [UInt8] {
        switch technology {
        case .iso14443A where sak & 0x20 == 0:
            ATRInfo.atr(
                historicalBytes: [0x80, 0x4F, 0x0C] + ATRInfo.pcscRID + [0x03, 0x00, sak == 0x18 ? 0x02 : 0x01, 0, 0, 0, 0])
        case .iso14443A: ATRInfo.atr(forATS: ats)
        case .iso14443B: ATRInfo.atr(historicalBytes: Array(atqb[5..<12]) + [0x00])
        }
    }
}
