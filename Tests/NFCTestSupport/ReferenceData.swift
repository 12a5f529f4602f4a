import Foundation
import NFCLocatorCore

/// Rows of the committed gematik fixture (Tests/Fixtures/gematik, EUPL-1.2).
public enum ReferenceData {
    public struct Missing: Error, CustomStringConvertible {
        public let model: String
        public var description: String { "no row for \(model) in \(Checkout.gematikPositions.path)" }
    }

    /// gematik's rectangle for `model` (a `modelNames` entry), as fractions of the back.
    public static func gematikZone(_ model: String) throws -> NormalizedRect {
        let rows = try JSONSerialization.jsonObject(with: Data(contentsOf: Checkout.gematikPositions)) as? [[String: Any]] ?? []
        guard let row = rows.first(where: { ($0["modelNames"] as? [String])?.contains(model) == true }),
            let p = row["nfcPos"] as? [String: Double], let x0 = p["x0"], let y0 = p["y0"], let x1 = p["x1"], let y1 = p["y1"]
        else { throw Missing(model: model) }
        return try NormalizedRect(x0: x0, y0: y0, x1: x1, y1: y1)
    }
}

/// gematik's SM-S921B rectangle: where Samsung draws the Galaxy S24's coil.
public func gematikS24() throws -> NormalizedRect { try ReferenceData.gematikZone("SM-S921B") }
