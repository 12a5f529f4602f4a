import Foundation

/// A rectangle on the back of a phone, in fractions of the body's bounding box.
///
/// Coordinate convention, used everywhere in nfcbench: the phone is **viewed from
/// the back**, upright (top edge up), the origin is the **top-left** corner and
/// **y grows downwards**. `x`, `y`, `width` and `height` are fractions of the body
/// width and height, so `(0, 0, 1, 1)` is the whole back.
///
/// The initializer throws rather than traps: a malformed catalog row is a
/// recoverable "skip this entry" condition, not a programmer error.
public struct NormalizedRect: Sendable, Hashable {
    public let x: Double
    public let y: Double
    public let width: Double
    public let height: Double

    /// Float noise from `x + width` must not reject a rectangle touching the edge.
    static let edgeTolerance = 1e-9

    public init(x: Double, y: Double, width: Double, height: Double) throws(NormalizedRectError) {
        for (field, value) in [("x", x), ("y", y), ("width", width), ("height", height)] where !value.isFinite {
            throw NormalizedRectError(field: field, value: value, problem: .notFinite)
        }
        if width <= 0 { throw NormalizedRectError(field: "width", value: width, problem: .notPositive) }
        if height <= 0 { throw NormalizedRectError(field: "height", value: height, problem: .notPositive) }
        if x < 0 || x >= 1 { throw NormalizedRectError(field: "x", value: x, problem: .outsideUnitSquare) }
        if y < 0 || y >= 1 { throw NormalizedRectError(field: "y", value: y, problem: .outsideUnitSquare) }
        if x + width > 1 + Self.edgeTolerance {
            throw NormalizedRectError(field: "width", value: width, problem: .outsideUnitSquare)
        }
        if y + height > 1 + Self.edgeTolerance {
            throw NormalizedRectError(field: "height", value: height, problem: .outsideUnitSquare)
        }
        self.x = x
        self.y = y
        self.width = min(width, 1 - x)
        self.height = min(height, 1 - y)
    }

    /// Builds from corner coordinates, as third-party sources (x0, y0, x1, y1) give them.
    public init(x0: Double, y0: Double, x1: Double, y1: Double) throws(NormalizedRectError) {
        try self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The whole back of the phone.
    public static let wholeBack = try! NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var area: Double { width * height }

    public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px <= maxX && py >= y && py <= maxY
    }

    public func intersectionArea(with other: NormalizedRect) -> Double {
        let w = min(maxX, other.maxX) - max(x, other.x)
        let h = min(maxY, other.maxY) - max(y, other.y)
        return w > 0 && h > 0 ? w * h : 0
    }

    /// Intersection over union, 0 (disjoint) ... 1 (identical).
    public func iou(with other: NormalizedRect) -> Double {
        let inter = intersectionArea(with: other)
        let union = area + other.area - inter
        return union > 0 ? inter / union : 0
    }

    /// Distance between the two centres in body heights (x scaled by width / height),
    /// so a shift means the same millimetres whichever way it points.
    public func centreDistance(to other: NormalizedRect, aspectRatio: Double) -> Double {
        let dx = (midX - other.midX) * aspectRatio, dy = midY - other.midY
        return (dx * dx + dy * dy).squareRoot()
    }

    /// A copy grown by `margin` on every side and clipped to the back.
    public func expanded(by margin: Double) -> NormalizedRect {
        let nx = max(0, x - margin), ny = max(0, y - margin)
        let nw = min(1, maxX + margin) - nx, nh = min(1, maxY + margin) - ny
        // Growing a valid rectangle and clipping it to the unit square stays valid.
        return try! NormalizedRect(x: nx, y: ny, width: nw, height: nh)
    }
}

/// Why a rectangle was rejected, naming the field so a catalog author can fix the row.
public struct NormalizedRectError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        case notFinite, notPositive, outsideUnitSquare
    }
    public let field: String
    public let value: Double
    public let problem: Problem

    public var description: String { describe(field) }

    /// The same sentence under another field name, e.g. `zoneWidth` for a catalog row.
    public func description(wireFieldNames names: [String: String]) -> String {
        describe(names[field] ?? field)
    }

    private func describe(_ field: String) -> String {
        switch problem {
        case .notFinite: "\(field) is \(value), not a finite number"
        case .notPositive: "\(field) is \(value); it must be greater than 0"
        case .outsideUnitSquare: "\(field) = \(value) puts the zone outside the phone's back (0...1)"
        }
    }
}

extension NormalizedRect: Codable {
    private enum CodingKeys: String, CodingKey { case x, y, width, height }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            x: c.decode(Double.self, forKey: .x), y: c.decode(Double.self, forKey: .y),
            width: c.decode(Double.self, forKey: .width), height: c.decode(Double.self, forKey: .height))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
    }
}
