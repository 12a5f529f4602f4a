import Foundation

/// A whole catalog document: `{"version": ..., "generatedAt": ..., "entries": [...]}`.
///
/// Decoding is lenient per row: an entry that cannot be decoded (missing field, wrong
/// type) is left out of `entries` and recorded in `undecodableRows` with its index and
/// reason, so one bad row never costs the whole catalog. A document without an
/// `entries` array is not a catalog and fails to decode.
public struct CatalogResponseDTO: Sendable, Hashable {
    public var version: String
    /// ISO 8601 date-time the document was produced.
    public var generatedAt: String?
    public var entries: [CatalogEntryDTO]
    /// A published catalog's version: a whole number that only grows, so a client refuses
    /// an older document than the one it holds (`catalog publish`; absent elsewhere).
    public var catalogVersion: Int?
    /// Who approved a published version, when, from which store.
    public var publication: CatalogPublicationDTO?
    /// Rows dropped while decoding. Not part of the wire format; never encoded.
    public var undecodableRows: [SkippedCatalogRow] = []
    /// Position of each kept entry in the original document, so reasons given later
    /// (at validation) name the row the author sees. `nil` when built in code.
    var documentIndices: [Int]?

    /// The index of `entries[position]` in the document it was decoded from.
    public func documentIndex(ofEntryAt position: Int) -> Int { documentIndices?[position] ?? position }

    public init(
        version: String, generatedAt: String? = nil, entries: [CatalogEntryDTO], catalogVersion: Int? = nil,
        publication: CatalogPublicationDTO? = nil
    ) {
        self.version = version
        self.generatedAt = generatedAt
        self.entries = entries
        self.catalogVersion = catalogVersion
        self.publication = publication
    }
}

extension CatalogResponseDTO {
    /// Equal when the wire content is equal; decode bookkeeping does not count.
    public static func == (a: CatalogResponseDTO, b: CatalogResponseDTO) -> Bool {
        a.version == b.version && a.generatedAt == b.generatedAt && a.entries == b.entries
            && a.catalogVersion == b.catalogVersion && a.publication == b.publication
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(generatedAt)
        hasher.combine(entries)
        hasher.combine(catalogVersion)
    }
}

extension CatalogResponseDTO: Codable {
    private enum CodingKeys: String, CodingKey { case version, generatedAt, catalogVersion, publication, entries }

    /// Decodes one array element without failing the array.
    private struct LenientRow: Decodable {
        let result: Result<CatalogEntryDTO, any Error>
        init(from decoder: any Decoder) throws {
            do { result = .success(try CatalogEntryDTO(from: decoder)) } catch {
                result = .failure(DecodingErrorWords.numberOutOfRange(error, in: decoder) ?? error)
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // A numeric version ("version": 3) is accepted and kept as text.
        if let text = try? c.decode(String.self, forKey: .version) {
            version = text
        } else if let number = try? c.decode(Int.self, forKey: .version) {
            version = String(number)
        } else {
            version = "unversioned"
        }
        generatedAt = try c.decodeIfPresent(String.self, forKey: .generatedAt)
        catalogVersion = try c.wholeNumber(forKey: .catalogVersion)
        publication = try c.decodeIfPresent(CatalogPublicationDTO.self, forKey: .publication)
        var rows = try c.nestedUnkeyedContainer(forKey: .entries)
        var decoded: [CatalogEntryDTO] = []
        var indices: [Int] = []
        var skipped: [SkippedCatalogRow] = []
        while !rows.isAtEnd {
            let index = rows.currentIndex
            let row = try rows.decode(LenientRow.self)
            switch row.result {
            case .success(let entry):
                decoded.append(entry)
                indices.append(index)
            case .failure(let error):
                skipped.append(SkippedCatalogRow(index: index, key: nil, reason: DecodingErrorWords.describe(error)))
            }
        }
        entries = decoded
        documentIndices = indices
        undecodableRows = skipped
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encodeIfPresent(generatedAt, forKey: .generatedAt)
        try c.encodeIfPresent(catalogVersion, forKey: .catalogVersion)
        try c.encodeIfPresent(publication, forKey: .publication)
        try c.encode(entries, forKey: .entries)
    }

    /// Turns a `DecodingError` into a sentence naming the field.
}

/// A catalog row that was left out, and why. `index` is its position in `entries`.
public struct SkippedCatalogRow: Sendable, Hashable, Codable {
    public let index: Int
    public let key: String?
    public let reason: String

    public init(index: Int, key: String?, reason: String) {
        self.index = index
        self.key = key
        self.reason = reason
    }
}
