import Foundation

/// Where a published entry's zone came from, and how well it is known: the member
/// `provenance` of an entry in a catalog `nfcbench catalog publish` signed
/// (docs/catalog-api.md). Old clients ignore it; `zoneProvenance` stays the words.
public struct CatalogProvenanceDTO: Sendable, Hashable, Codable {
    /// `bench-refined` (the lab's sessions fitted the coil), `imported` (another source's
    /// figures), `inferred` (from the platform, the form factor or a sibling model).
    public var method: String
    /// Bench sessions and labelled units behind a `bench-refined` zone.
    public var sessions: Int?
    public var units: Int?
    /// The readers' antennas those sessions were taken with.
    public var readerAntennas: [CatalogReaderAntennaDTO]?
    /// The coil as the pooled fit gives it, in mm from the back's top-left corner.
    public var coil: CatalogCoilDTO?
    /// The newest session behind the zone: its id and when it ended (ISO 8601).
    public var lastSession: String?
    public var lastSessionAt: String?

    public init(
        method: String, sessions: Int? = nil, units: Int? = nil, readerAntennas: [CatalogReaderAntennaDTO]? = nil,
        coil: CatalogCoilDTO? = nil, lastSession: String? = nil, lastSessionAt: String? = nil
    ) {
        self.method = method
        self.sessions = sessions
        self.units = units
        self.readerAntennas = readerAntennas
        self.coil = coil
        self.lastSession = lastSession
        self.lastSessionAt = lastSessionAt
    }

    public static let benchRefined = "bench-refined"
    public static let imported = "imported"
    public static let inferred = "inferred"

    private enum CodingKeys: String, CodingKey {
        case method, sessions, units, readerAntennas, coil, lastSession, lastSessionAt
    }

    /// Counts read as numbers, then held to whole ones, so a fractional count ("sessions":
    /// 4.5) is skipped with a reason in the catalog's words rather than Foundation's.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        method = try c.decode(String.self, forKey: .method)
        sessions = try c.wholeNumber(forKey: .sessions)
        units = try c.wholeNumber(forKey: .units)
        readerAntennas = try c.decodeIfPresent([CatalogReaderAntennaDTO].self, forKey: .readerAntennas)
        coil = try c.decodeIfPresent(CatalogCoilDTO.self, forKey: .coil)
        lastSession = try c.decodeIfPresent(String.self, forKey: .lastSession)
        lastSessionAt = try c.decodeIfPresent(String.self, forKey: .lastSessionAt)
    }
}

extension KeyedDecodingContainer {
    /// A whole number written as any JSON number (`4` or `4.0`); a fraction is refused in
    /// the words a number no Double holds gets.
    func wholeNumber(forKey key: Key) throws -> Int? {
        guard let value = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard let whole = Int(exactly: value) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath + [key], debugDescription: "Number \(value) is not representable in Swift."))
        }
        return whole
    }
}

/// A reader's antenna, mm.
public struct CatalogReaderAntennaDTO: Sendable, Hashable, Codable {
    public var widthMm: Double
    public var heightMm: Double
    public init(widthMm: Double, heightMm: Double) {
        self.widthMm = widthMm
        self.heightMm = heightMm
    }
}

/// The coil's centre and size, mm, each with its 95 % interval.
public struct CatalogCoilDTO: Sendable, Hashable, Codable {
    public var centreXMm: CatalogIntervalDTO
    public var centreYMm: CatalogIntervalDTO
    public var widthMm: CatalogIntervalDTO
    public var heightMm: CatalogIntervalDTO
    public init(
        centreXMm: CatalogIntervalDTO, centreYMm: CatalogIntervalDTO, widthMm: CatalogIntervalDTO,
        heightMm: CatalogIntervalDTO
    ) {
        self.centreXMm = centreXMm
        self.centreYMm = centreYMm
        self.widthMm = widthMm
        self.heightMm = heightMm
    }
}

/// A figure and its 95 % interval; `open` when the evidence did not bound it.
public struct CatalogIntervalDTO: Sendable, Hashable, Codable {
    public var value: Double
    public var low: Double
    public var high: Double
    public var open: Bool?
    public init(value: Double, low: Double, high: Double, open: Bool? = nil) {
        self.value = value
        self.low = low
        self.high = high
        self.open = open
    }
}

/// Who approved a published version, when, and from which store: the document's member
/// `publication`.
public struct CatalogPublicationDTO: Sendable, Hashable, Codable {
    public var reviewer: String
    /// ISO 8601 date-time.
    public var approvedAt: String
    /// The store the evidence was read from, without any password.
    public var source: String
    public init(reviewer: String, approvedAt: String, source: String) {
        self.reviewer = reviewer
        self.approvedAt = approvedAt
        self.source = source
    }
}
