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
            zoneProvenance: try f.optionalString("zoneProvenance"))
    }
}
