/// A point on the phone's back (catalog convention) where the reader's antenna goes, and
/// how high above the back it is held: 0 (on the back) for every tap by hand; a motion
/// stage can tap the same point at several heights (`--heights`), the operating volume.
public struct Probe: Sendable, Hashable, Codable {
    public let x: Double
    public let y: Double
    /// Millimetres above the back (the rig's tap height is 0).
    public let heightMm: Double

    public init(x: Double, y: Double, heightMm: Double = 0) {
        self.x = x
        self.y = y
        self.heightMm = heightMm
    }

    /// The same point on the back at another height.
    public func at(heightMm: Double) -> Probe { Probe(x: x, y: y, heightMm: heightMm) }

    /// On the back: the taps a verdict, a refinement and the tap map are made of.
    public var isAtTapHeight: Bool { heightMm == 0 }

    enum CodingKeys: String, CodingKey { case x, y, heightMm }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        x = try c.decode(Double.self, forKey: .x)
        y = try c.decode(Double.self, forKey: .y)
        heightMm = try c.decodeIfPresent(Double.self, forKey: .heightMm) ?? 0
    }
}

/// The heights a session taps each position at (`--heights`): from 0, rising, in mm.
public enum ProbeHeights {
    public static let range: ClosedRange<Double> = 0...200
    public static let maximumCount = 8
}
