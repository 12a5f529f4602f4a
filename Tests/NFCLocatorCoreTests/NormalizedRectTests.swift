import Testing

@testable import NFCLocatorCore

@Suite("NormalizedRect validation and geometry")
struct NormalizedRectTests {
    @Test(arguments: [
        (Double.nan, 0.1, 0.2, 0.2, "x"), (0.1, Double.infinity, 0.2, 0.2, "y"),
        (0.1, 0.1, 0, 0.2, "width"), (0.1, 0.1, 0.2, -0.1, "height"),
        (-0.01, 0.1, 0.2, 0.2, "x"), (0.1, 1.2, 0.2, 0.2, "y"),
        (0.9, 0.1, 0.2, 0.2, "width"), (0.1, 0.9, 0.2, 0.5, "height"),
    ])
    func rejectsNamingTheField(x: Double, y: Double, w: Double, h: Double, field: String) {
        #expect(throws: NormalizedRectError.self) { try NormalizedRect(x: x, y: y, width: w, height: h) }
        do {
            _ = try NormalizedRect(x: x, y: y, width: w, height: h)
        } catch {
            #expect(error.field == field)
            #expect(error.description.contains(field))
        }
    }

    @Test func acceptsTheWholeBackAndEdgeNoise() throws {
        let whole = try NormalizedRect(x: 0, y: 0, width: 1, height: 1)
        #expect(whole.area == 1)
        let edge = try NormalizedRect(x: 0.7, y: 0.1, width: 0.3 + 1e-12, height: 0.2)
        #expect(edge.maxX <= 1)
    }

    @Test func iouOfKnownPairs() throws {
        let a = try NormalizedRect(x: 0, y: 0, width: 0.5, height: 0.5)
        let b = try NormalizedRect(x: 0.25, y: 0, width: 0.5, height: 0.5)
        #expect(abs(a.iou(with: a) - 1) < 1e-12)
        #expect(abs(a.iou(with: b) - (0.125 / 0.375)) < 1e-12)
        let far = try NormalizedRect(x: 0.6, y: 0.6, width: 0.2, height: 0.2)
        #expect(a.iou(with: far) == 0)
    }

    @Test func expandedStaysOnTheBack() throws {
        let r = try NormalizedRect(x: 0.05, y: 0.9, width: 0.2, height: 0.1).expanded(by: 0.1)
        #expect(r.x == 0 && r.maxY <= 1 && r.maxX < 0.36)
    }
}
