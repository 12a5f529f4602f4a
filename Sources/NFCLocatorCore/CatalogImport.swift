import Foundation

/// Turns third-party antenna data into catalog rows (a patch in the wire format).
/// Imported rows are unverified (`verified` unset, no `lastVerifiedAt`), so they resolve
/// as approximate and stale, and each carries its provenance in `zoneProvenance`.
public enum CatalogImport {
    public struct Result: Sendable {
        public let document: CatalogResponseDTO
        public let skipped: [SkippedCatalogRow]
    }

    // MARK: gematik NfcLocalization-Android

    struct GematikRow: Decodable {
        let manufacturer: String
        let marketingName: String
        let modelNames: [String]
        let nfcPos: Position
        struct Position: Decodable { let x0: Double; let y0: Double; let x1: Double; let y1: Double }
    }

    /// Import inputs larger than this are refused before they are read: the largest
    /// known source (gematik's list) is under 1 MB, and memory stays about twice the input.
    public static let maximumInputBytes = 64 << 20

    /// Why a whole input cannot be imported (as opposed to a row, which is skipped); the
    /// importers throw only this.
    public struct InputError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// `nfc_positions.json` from gematik/NfcLocalization-Android: rectangles as `x0,y0,x1,y1`
    /// fractions of the phone's back (origin top-left), one row per marketing name with its
    /// `Build.MODEL` values. Rows are read one at a time (memory stays proportional to the
    /// input); a bad row, a degenerate rectangle, an empty or repeated model is skipped
    /// with its row number, line and reason, and the rest imports. `aspectRatios` supplies
    /// published ratios by lookup key (e.g. from the seed catalog); other rows get 0.47, a
    /// typical phone, marked as inferred.
    public static func gematik(_ data: Data, source: String, aspectRatios: [String: Double] = [:]) throws
        -> Result
    {
        let rows: [Range<Int>]
        do { rows = try JSONText(data).arrayElements() } catch {
            throw InputError(description: "not a gematik nfc_positions.json list (\(error))")
        }
        let imported = ImportRows<GematikRow>()
        imported.each(in: data, rows: rows) { row in
            let name = row.marketingName.trimmingCharacters(in: .whitespacesAndNewlines)
            let manufacturer = row.manufacturer.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty, !manufacturer.isEmpty else {
                imported.skip(row.marketingName, "empty marketing name or manufacturer; not imported")
                return
            }
            let p = row.nfcPos
            let zone: NormalizedRect
            do { zone = try NormalizedRect(x0: p.x0, y0: p.y0, x1: p.x1, y1: p.y1) } catch {
                imported.skip(name, "degenerate rectangle (\(String(describing: error))); not imported")
                return
            }
            let shape = name.contains("Flip") ? "foldFlip" : name.contains("Fold") ? "foldBook" : "phone"
            for raw in row.modelNames {
                let model = raw.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !model.isEmpty, !CatalogKey.normalize(model).isEmpty else {
                    imported.skip(name, "an empty model name; that model is not imported")
                    continue
                }
                guard imported.claim(model, shownAs: name) else { continue }
                let published = aspectRatios[CatalogKey.normalize(model)]
                imported.append(
                    CatalogEntryDTO(
                        modelIdentifier: model, manufacturer: manufacturer, displayName: name,
                        formFactor: shape, aspectRatio: published ?? 0.47,
                        zoneX: zone.x, zoneY: zone.y, zoneWidth: zone.width, zoneHeight: zone.height,
                        silhouetteTemplateId: "imported.\(manufacturer.lowercased())",
                        zoneProvenance:
                            "imported: gematik NfcLocalization-Android (\(source)), from the manufacturer's illustration; unverified"
                            + (published == nil ? "; aspectRatio inferred (typical phone), not published" : "")))
            }
        }
        let (entries, skipped) = (imported.entries, imported.skipped)
        return Result(
            document: CatalogResponseDTO(
                version: "import-gematik", generatedAt: ISO8601Parsing.string(from: Date()), entries: entries),
            skipped: skipped)
    }

    /// A row that did not decode, in words: a field's problem, or why valid JSON was still
    /// refused (a number out of range, nesting too deep), at the row's own lines.
    static func rowProblem(_ error: any Error, _ row: Data) -> String {
        if case DecodingError.dataCorrupted(let context) = error, context.codingPath.isEmpty,
            let limit = JSONText(row).foundationLimit()
        {
            // The row's line is already given; its own line and column would mislead.
            return limit.range(of: ": ").map { String(limit[$0.upperBound...]) } ?? limit
        }
        return DecodingErrorWords.describe(error)
    }

    // MARK: Android 14 NfcAntennaInfo

    /// Which corner NfcAntennaInfo's (0, 0) is, facing the screen in portrait. Android 14's
    /// documentation says top-left (the default here); later releases changed it, so the
    /// import asks instead of guessing.
    public enum AndroidOrigin: String, Sendable, CaseIterable { case topLeft = "top-left", bottomLeft = "bottom-left" }

    /// One device as NfcAntennaInfo reports it.
    public struct AndroidAntennaInfo: Codable, Sendable, Equatable {
        public var model: String
        public var manufacturer: String
        public var deviceWidthMm: Double
        public var deviceHeightMm: Double
        public var foldable: Bool
        public var antennas: [Point]

        public init(
            model: String, manufacturer: String, deviceWidthMm: Double, deviceHeightMm: Double,
            foldable: Bool, antennas: [Point]
        ) {
            self.model = model
            self.manufacturer = manufacturer
            self.deviceWidthMm = deviceWidthMm
            self.deviceHeightMm = deviceHeightMm
            self.foldable = foldable
            self.antennas = antennas
        }

        public struct Point: Codable, Sendable, Equatable {
            public var xMm: Double
            public var yMm: Double
            public init(xMm: Double, yMm: Double) { self.xMm = xMm; self.yMm = yMm }
        }
    }

    struct AndroidFile: Decodable { let devices: [AndroidAntennaInfo] }

    /// `{"devices": [{"model", "manufacturer", "deviceWidthMm", "deviceHeightMm", "foldable",
    /// "antennas": [{"xMm", "yMm"}]}]}`. Points are given facing the screen, so they are
    /// mirrored to the back view (x_back = width - x); each becomes a square zone of
    /// `pointSizeMm`, clipped to the body.
    public static func androidAntennaInfo(
        _ data: Data, source: String, origin: AndroidOrigin = .topLeft,
        pointSizeMm: Double = 20
    ) throws -> Result {
        precondition(pointSizeMm.isFinite && pointSizeMm > 0, "the zone's side is a positive length")
        let devices: [Range<Int>]
        do { devices = try JSONText(data).arrayElements(under: "devices") } catch {
            throw InputError(description: "not an android-antenna-info file (\(error))")
        }
        let rows = ImportRows<AndroidAntennaInfo>()
        rows.each(in: data, rows: devices) { device in
            let model = device.model.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !model.isEmpty, !CatalogKey.normalize(model).isEmpty else {
                rows.skip(device.model, "empty model name; not imported")
                return
            }
            let w = device.deviceWidthMm, h = device.deviceHeightMm
            guard w.isFinite, h.isFinite, (20...400).contains(w), (20...400).contains(h) else {
                rows.skip(model, "device size \(w) x \(h) mm is not a phone's (20...400 mm each way); not imported")
                return
            }
            guard let point = device.antennas.first else {
                rows.skip(model, "no antenna point; not imported")
                return
            }
            guard point.xMm.isFinite, point.yMm.isFinite, (0...w).contains(point.xMm), (0...h).contains(point.yMm) else {
                rows.skip(
                    model, "antenna point (\(point.xMm), \(point.yMm)) mm lies outside the \(w) x \(h) mm device; not imported")
                return
            }
            guard rows.claim(model, shownAs: model) else { return }
            let back = backView(point, device: device, origin: origin)
            // The square around the point, clipped to the body (the point itself is inside it).
            let half = (x: pointSizeMm / w / 2, y: pointSizeMm / h / 2)
            let x0 = max(back.x - half.x, 0), x1 = min(back.x + half.x, 1)
            let y0 = max(back.y - half.y, 0), y1 = min(back.y + half.y, 1)
            guard let zone = try? NormalizedRect(x0: x0, y0: y0, x1: x1, y1: y1) else {
                rows.skip(model, "the zone around the point is empty; not imported")
                return
            }
            rows.append(
                CatalogEntryDTO(
                    modelIdentifier: model, manufacturer: device.manufacturer, displayName: model,
                    formFactor: device.foldable ? "foldBook" : "phone",
                    aspectRatio: (w / h * 10_000).rounded() / 10_000,
                    zoneX: zone.x, zoneY: zone.y, zoneWidth: zone.width, zoneHeight: zone.height,
                    silhouetteTemplateId: "imported.android", bodyWidthMm: w, bodyHeightMm: h,
                    zoneProvenance: "imported: Android NfcAntennaInfo (\(source)), origin \(origin.rawValue), "
                        + "\(String(format: "%g", pointSizeMm)) mm square around the reported point, clipped to the body; unverified"
                ))
        }
        let (entries, skipped) = (rows.entries, rows.skipped)
        return Result(
            document: CatalogResponseDTO(
                version: "import-android-antenna-info", generatedAt: ISO8601Parsing.string(from: Date()), entries: entries),
            skipped: skipped)
    }

    /// A point facing the screen -> fractions of the back (mirrored horizontally).
    public static func backView(_ p: AndroidAntennaInfo.Point, device: AndroidAntennaInfo, origin: AndroidOrigin) -> (
        x: Double, y: Double
    ) {
        let fromTop = origin == .topLeft ? p.yMm : device.deviceHeightMm - p.yMm
        return ((device.deviceWidthMm - p.xMm) / device.deviceWidthMm, fromTop / device.deviceHeightMm)
    }

    /// The inverse of `backView`, for round trips.
    public static func screenView(x: Double, y: Double, device: AndroidAntennaInfo, origin: AndroidOrigin)
        -> AndroidAntennaInfo.Point
    {
        let fromTop = y * device.deviceHeightMm
        return AndroidAntennaInfo.Point(
            xMm: device.deviceWidthMm - x * device.deviceWidthMm,
            yMm: origin == .topLeft ? fromTop : device.deviceHeightMm - fromTop)
    }
}

/// How two catalogs disagree, model by model.
public struct CatalogComparison: Sendable {
    public struct Row: Sendable {
        public let key: String
        public let iou: Double
        /// Distance between zone centres, in body heights (x scaled by the aspect ratio).
        public let centreShift: Double
    }
    public let rows: [Row]
    public let onlyInFirst: [String]
    public let onlyInSecond: [String]
    /// Keys in both whose wire rows differ in any field.
    public let changed: [String]

    public init(_ a: Catalog, _ b: Catalog) {
        let second = Dictionary(uniqueKeysWithValues: b.profiles.map { ($0.lookupKey, $0) })
        var rows: [Row] = []
        var changed: [String] = []
        for p in a.profiles {
            guard let q = second[p.lookupKey] else { continue }
            if p.entry != q.entry { changed.append(p.lookupKey) }
            rows.append(
                Row(
                    key: p.lookupKey, iou: p.zone.iou(with: q.zone),
                    centreShift: p.zone.centreDistance(to: q.zone, aspectRatio: p.aspectRatio)))
        }
        let firstKeys = Set(a.profiles.map(\.lookupKey))
        self.rows = rows.sorted { $0.key < $1.key }
        self.changed = changed.sorted()
        onlyInFirst = a.profiles.map(\.lookupKey).filter { second[$0] == nil }.sorted()
        onlyInSecond = b.profiles.map(\.lookupKey).filter { !firstKeys.contains($0) }.sorted()
    }
}
