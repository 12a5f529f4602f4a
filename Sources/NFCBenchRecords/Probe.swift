/// A point on the phone's back (catalog convention) where the reader's antenna goes.
public struct Probe: Sendable, Hashable, Codable {
    public let x: Double
    public let y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// "upper third, left of centre", for the operator.
    public var words: String {
        let row = y < 1.0 / 3 ? "upper third" : y < 2.0 / 3 ? "middle third" : "lower third"
        let column = x < 0.4 ? "left of centre" : x <= 0.6 ? "centred" : "right of centre"
        return "\(row), \(column)"
    }
}
