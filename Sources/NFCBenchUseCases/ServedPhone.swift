import NFCBench
import NFCPhysics
import NFCReaders
import NFCVirtualBench

/// The world `sim serve` simulates: which phone lies on the virtual bench and how it couples.
///
/// By default the phone couples as two loops do (docs/physics.md), under the antenna of the
/// reader the bench emulates: a PN532 module's, the figures a session on its pty records
/// from `ReaderAntennaProfile.pn532Module`. So what `show` fits to such a session is fitted
/// in the world that made it. The linear model stays, by name, for comparison.
public struct ServedPhoneRequest: Sendable {
    public typealias Rect = (x: Double, y: Double, width: Double, height: Double)

    public enum Coupling: String, Sendable, CaseIterable {
        /// Two loops' mutual inductance (`SimulatedCoupling.mutualInductance`).
        case loops
        /// The project's first model (`SimulatedCoupling.linear`), for comparison only.
        case linear
    }

    /// The coil in fractions of the back, or `coilMm` in mm on `body`; at most one.
    public var antenna: Rect?
    public var coilMm: Rect?
    public var body: (width: Double, height: Double)?
    /// Only in the linear world without a machine: elsewhere the body sets it.
    public var aspectRatio: Double?
    public var technology: TargetTechnology?
    public var missRate: Double?
    public var saturation: Double?
    public var readHeightMm: Double?
    /// `nil`: loops.
    public var coupling: Coupling?
    public var readerAntenna: (width: Double, height: Double)?
    public var gapMm: Double?
    public var rungFieldExponent: Double?
    public var gantry: GantryConfiguration?

    public init() {}

    /// Samsung's published body of the Galaxy S24 (SM-S921B): 70.6 x 147.0 mm.
    public static let defaultBody = (width: 70.6, height: 147.0)
    /// Fractions of the back, as `sim serve` has always defaulted to.
    public static let defaultAntenna: Rect = (0.1, 0.3, 0.8, 0.4)
    /// The reader the virtual bench emulates, and whose figures its sessions record.
    public static let emulatedReader = ReaderAntennaProfile.pn532Module

    public var effectiveCoupling: Coupling { coupling ?? .loops }
    /// The phone's body: as given, else the machine's jig's, else the Galaxy S24's.
    var effectiveBody: (width: Double, height: Double) {
        body ?? gantry.map { ($0.bodyWidthMm, $0.bodyHeightMm) } ?? Self.defaultBody
    }
}

/// A `sim serve` request that contradicts itself; `option` names the option to change.
public struct ServedPhoneRefusal: Error, Sendable, CustomStringConvertible {
    public let description: String
}

extension ServedPhoneRequest {
    /// The simulated phone this request describes, or why it describes none.
    public func phone() throws(ServedPhoneRefusal) -> SimulatedPhone {
        if let refusal { throw refusal }
        let body = effectiveBody
        var fractions = antenna ?? Self.defaultAntenna
        if let c = coilMm {
            fractions = (c.x / body.width, c.y / body.height, c.width / body.width, c.height / body.height)
        }
        let loops = effectiveCoupling == .loops
        let aspect = gantry != nil || loops || self.body != nil ? body.width / body.height : aspectRatio ?? 0.48
        var phone = SimulatedPhone(
            antenna: fractions, aspectRatio: aspect, technology: technology ?? .iso14443A, missRate: missRate ?? 0.03)
        if let readHeightMm { phone.readHeightMm = readHeightMm }
        if loops {
            let reader = readerAntenna ?? (Self.emulatedReader.antennaWidthMm, Self.emulatedReader.antennaHeightMm)
            phone.couplingModel = .mutualInductance(
                PhysicalBench(
                    reader: ReaderAntenna(widthMm: reader.width, heightMm: reader.height), bodyHeightMm: body.height,
                    gapMm: gapMm ?? (readerAntenna == nil ? Self.emulatedReader.gapMm : 3),
                    rungFieldExponent: rungFieldExponent ?? 1))
        }
        phone.saturation = saturation
        return phone
    }

    private var refusal: ServedPhoneRefusal? {
        if antenna != nil, coilMm != nil {
            return .init(description: "--antenna and --coil cannot be given together: one coil, in fractions or in mm.")
        }
        if effectiveCoupling == .linear {
            let physical: [(String, Bool)] = [
                ("--reader-antenna", readerAntenna != nil), ("--gap-mm", gapMm != nil), ("--coil", coilMm != nil),
                ("--rung-law", rungFieldExponent != nil),
            ]
            if let (name, _) = physical.first(where: \.1) {
                return .init(
                    description: "\(name) describes two coupled loops; the linear model has no reader or coil "
                        + "to size. Leave out --coupling-model linear, or \(name).")
            }
        }
        if aspectRatio != nil, effectiveCoupling == .loops || gantry != nil || body != nil {
            let why = gantry != nil ? "with --gantry" : body != nil ? "with --body" : "in the two-loop world"
            return .init(
                description: "--aspect-ratio cannot be given \(why): the --body size sets it. Give --body WxH, "
                    + "or --coupling-model linear without a body.")
        }
        if let c = coilMm {
            let body = effectiveBody
            let mm = PhysicalBench.millimetres
            guard c.x + c.width <= body.width + 1e-9, c.y + c.height <= body.height + 1e-9 else {
                return .init(
                    description: "--coil \(mm(c.x)),\(mm(c.y)),\(mm(c.width)),\(mm(c.height)) does not fit a body of "
                        + "\(mm(body.width)) x \(mm(body.height)) mm; give --body WxH or a coil inside it.")
            }
        }
        return nil
    }
}
