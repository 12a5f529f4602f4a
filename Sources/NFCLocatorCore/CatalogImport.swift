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

    /// `nfc_positions.json` from gematik/NfcLocalization-Android: rectangles as `x0,y0,x1,y1`
    /// fractions of the phone's back (origin top-left), one row per marketing name with its
    /// `Build.MODEL` values. Degenerate rectangles (zero width or height) are skipped with a
    /// reason, never turned into a zero-area zone. `aspectRatios` supplies published
    /// ratios by lookup key (e.g. from the seed catalog); other rows get 0.47, a typical
    /// phone, marked as inferred.
    public static func gematik(_ data: Data, source: String, aspectRatios: [String: Double] = [:]) throws -> Result {
        let rows = try JSONDecoder().decode([GematikRow].self, from: data)
        var entries: [CatalogEntryDTO] = []
        var skipped: [SkippedCatalogRow] = []
        var seen = Set<String>()
        for (index, row) in rows.enumerated() {
            let p = row.nfcPos
            let zone: NormalizedRect
            do { zone = try NormalizedRect(x0: p.x0, y0: p.y0, x1: p.x1, y1: p.y1) } catch {
                skipped.append(
                    SkippedCatalogRow(
                        index: index, key: row.marketingName,
                        reason: "degenerate rectangle (\(error.description)); not imported"))
                continue
            }
            let shape =
                row.marketingName.contains("Flip") ? "foldFlip" : row.marketingName.contains("Fold") ? "foldBook" : "phone"
            for model in row.modelNames {
                let key = CatalogKey.normalize(model)
                guard seen.insert(key).inserted else { continue }
                let published = aspectRatios[key]
                entries.append(
                    CatalogEntryDTO(
                        modelIdentifier: model, manufacturer: row.manufacturer, displayName: row.marketingName,
                        formFactor: shape, aspectRatio: published ?? 0.47,
                        zoneX: zone.x, zoneY: zone.y, zoneWidth: zone.width, zoneHeight: zone.height,
                        silhouetteTemplateId: "imported.\(row.manufacturer.lowercased())",
                        zoneProvenance:
                            "imported: gematik NfcLocalization-Android (\(source)), from the manufacturer's illustration; unverified"
                            + (published == nil ? "; aspectRatio inferred (typical phone), not published" : "")))
            }
        }
        return Result(
            document: CatalogResponseDTO(
                version: "import-gematik", generatedAt: ISO8601Parsing.string(from: Date()),
                entries: entries), skipped: skipped)
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
        let file = try JSONDecoder().decode(AndroidFile.self, from: data)
        var entries: [CatalogEntryDTO] = []
        var skipped: [SkippedCatalogRow] = []
        for (index, device) in file.devices.enumerated() {
            guard device.deviceWidthMm > 0, device.deviceHeightMm > 0, let point = device.antennas.first else {
                skipped.append(SkippedCatalogRow(index: index, key: device.model, reason: "no antenna point or no device size"))
                continue
            }
            let back = backView(point, device: device, origin: origin)
            let w = pointSizeMm / device.deviceWidthMm, h = pointSizeMm / device.deviceHeightMm
            let x = min(max(back.x - w / 2, 0), 1 - min(w, 1)), y = min(max(back.y - h / 2, 0), 1 - min(h, 1))
            guard let zone = try? NormalizedRect(x: x, y: y, width: min(w, 1), height: min(h, 1)) else {
                skipped.append(SkippedCatalogRow(index: index, key: device.model, reason: "antenna point outside the device"))
                continue
            }
            entries.append(
                CatalogEntryDTO(
                    modelIdentifier: device.model, manufacturer: device.manufacturer, displayName: device.model,
                    formFactor: device.foldable ? "foldBook" : "phone",
                    aspectRatio: (device.deviceWidthMm / device.deviceHeightMm * 10_000).rounded() / 10_000,
                    zoneX: zone.x, zoneY: zone.y, zoneWidth: zone.width, zoneHeight: zone.height,
                    silhouetteTemplateId: "imported.android", bodyWidthMm: device.deviceWidthMm,
                    bodyHeightMm: device.deviceHeightMm,
                    zoneProvenance: "imported: Android NfcAntennaInfo (\(source)), origin \(origin.rawValue), "
                        + "\(Int(pointSizeMm)) mm square around the reported point; unverified"))
        }
        return Result(
            document: CatalogResponseDTO(
                version: "import-android-antenna-info",
                generatedAt: ISO8601Parsing.string(from: Date()), entries: entries),
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
