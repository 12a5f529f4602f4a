import Foundation

/// Catalog documents read from a `JSONTree` tree, field by field in the order the
/// synthesized `Decodable` reads them, so the first problem in a row is the one reported,
/// in the same words (`CatalogTreeParityTests` checks both readers on the same rows).
extension CatalogResponseDTO {
    init(tree: JSONTree) throws(DecodingError) {
        let document = try JSONFields(tree, at: [])
        // A numeric version ("version": 3) is accepted and kept as text.
        switch document.object["version"] {
        case .string(let text)?: version = text
        case .number(let literal)?: version = Int(literal).map(String.init) ?? "unversioned"
        default: version = "unversioned"
        }
        generatedAt = try document.optionalString("generatedAt")
        catalogVersion = try document.optionalInt("catalogVersion")
        publication = try document.optionalFields("publication").map { (f) throws(DecodingError) in
            CatalogPublicationDTO(
                reviewer: try f.string("reviewer"), approvedAt: try f.string("approvedAt"), source: try f.string("source"))
        }
        var decoded: [CatalogEntryDTO] = []
        var indices: [Int] = []
        var skipped: [SkippedCatalogRow] = []
        for (index, row) in try document.array("entries").enumerated() {
            do {
                decoded.append(try CatalogEntryDTO(fields: try JSONFields(row.value, at: row.path)))
                indices.append(index)
            } catch {
                skipped.append(SkippedCatalogRow(index: index, key: nil, reason: DecodingErrorWords.describe(error)))
            }
        }
        entries = decoded
        documentIndices = indices
        undecodableRows = skipped
    }
}

extension CatalogEntryDTO {
    init(fields f: JSONFields) throws(DecodingError) {
        // Arguments are evaluated left to right: the declaration order of the properties.
        self.init(
            modelIdentifier: try f.string("modelIdentifier"),
            manufacturer: try f.string("manufacturer"),
            displayName: try f.string("displayName"),
            formFactor: try f.string("formFactor"),
            foldState: try f.optionalString("foldState"),
            screenSizeClass: try f.optionalString("screenSizeClass"),
            aspectRatio: try f.double("aspectRatio"),
            zoneX: try f.double("zoneX"),
            zoneY: try f.double("zoneY"),
            zoneWidth: try f.double("zoneWidth"),
            zoneHeight: try f.double("zoneHeight"),
            silhouetteTemplateId: try f.string("silhouetteTemplateId"),
            verified: try f.optionalBool("verified"),
            lastVerifiedAt: try f.optionalString("lastVerifiedAt"),
            bodyWidthMm: try f.optionalDouble("bodyWidthMm"),
            bodyHeightMm: try f.optionalDouble("bodyHeightMm"),
            zoneProvenance: try f.optionalString("zoneProvenance"),
            provenance: try f.optionalFields("provenance").map(CatalogProvenanceDTO.init(fields:)))
    }
}

extension CatalogProvenanceDTO {
    init(fields f: JSONFields) throws(DecodingError) {
        self.init(
            method: try f.string("method"), sessions: try f.optionalInt("sessions"), units: try f.optionalInt("units"),
            readerAntennas: try f.optionalArray("readerAntennas")?.map { (element) throws(DecodingError) in
                let antenna = try JSONFields(element.value, at: element.path)
                return CatalogReaderAntennaDTO(widthMm: try antenna.double("widthMm"), heightMm: try antenna.double("heightMm"))
            },
            coil: try f.optionalFields("coil").map { (c) throws(DecodingError) in
                CatalogCoilDTO(
                    centreXMm: try c.interval("centreXMm"), centreYMm: try c.interval("centreYMm"),
                    widthMm: try c.interval("widthMm"), heightMm: try c.interval("heightMm"))
            },
            lastSession: try f.optionalString("lastSession"), lastSessionAt: try f.optionalString("lastSessionAt"))
    }
}

extension JSONFields {
    fileprivate func interval(_ name: String) throws(DecodingError) -> CatalogIntervalDTO {
        guard let f = try optionalFields(name) else {
            throw .keyNotFound(JSONPathKey(name), DecodingError.Context(codingPath: path, debugDescription: ""))
        }
        return CatalogIntervalDTO(
            value: try f.double("value"), low: try f.double("low"), high: try f.double("high"),
            open: try f.optionalBool("open"))
    }
}
