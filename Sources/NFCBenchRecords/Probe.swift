/// A point on the phone's back (catalog convention) where the reader's antenna goes.
public struct Probe: Sendable, Hashable, Codable {
    public let x: Double
    public let y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }

}
