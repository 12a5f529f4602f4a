import Foundation

/// The first resolver layer: a catalog served from elsewhere.
///
/// This protocol and the DTOs are the wire contract; see `docs/catalog-api.md`.
/// Conformers throw when there is no usable catalog (unreachable, not a catalog);
/// bad rows inside a catalog are not errors, they arrive in `undecodableRows`.
public protocol CatalogRemoteAPI: Sendable {
    func fetchCatalog() async throws -> CatalogResponseDTO
}

/// A failure to obtain a catalog document at all.
public struct CatalogDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable { case unreadable, notJSON, notACatalog }
    public let kind: Kind
    public let origin: String
    public let detail: String

    public var description: String {
        switch kind {
        case .unreadable: "Cannot read catalog '\(origin)': \(detail)"
        case .notJSON: "Catalog '\(origin)' is not JSON: \(detail)"
        case .notACatalog: "'\(origin)' is JSON but not a catalog: \(detail)"
        }
    }
}

/// Decodes catalog documents with the options every layer shares.
public enum CatalogDocumentDecoder {
    /// `NaN`/`Infinity` written as strings decode, so such rows reach validation and
    /// are skipped with a reason rather than failing the whole document.
    ///
    /// Strict JSON, which every catalog nfcbench writes or ships is, is read as a tree
    /// and its fields picked by hand (`CatalogResponseDTO(tree:)`), which costs a
    /// `resolve` far less start-up than `JSONDecoder` (docs/performance.md). Anything
    /// else goes to Foundation's reader as it always did: it also takes a trailing comma.
    public static func decode(_ data: Data, origin: String) throws(CatalogDocumentError) -> CatalogResponseDTO {
        let tree: JSONTree
        do {
            tree = try JSONTree.parse(data)
        } catch {
            switch JSONText(data).strictReading() {
            case .duplicateMember(let duplicate):
                throw CatalogDocumentError(kind: .notACatalog, origin: origin, detail: duplicate.description)
            case .tooDeep(let depth):
                throw CatalogDocumentError(kind: .notJSON, origin: origin, detail: depth)
            case .syntaxError(let syntax):
                return try decodeWithFoundation(data, origin: origin, syntaxError: syntax)
            case .valid:
                // The two strict readers agree (JSONTreeTests); were they not to, Foundation decides.
                return try decodeWithFoundation(
                    data, origin: origin, syntaxError: JSONText.SyntaxError(line: 1, column: 1, problem: error.problem))
            }
        }
        do {
            return try CatalogResponseDTO(tree: tree)
        } catch {
            throw CatalogDocumentError(kind: .notACatalog, origin: origin, detail: DecodingErrorWords.describe(error))
        }
    }

    /// The two readers `decode` chooses between, one at a time, so the differential fuzz
    /// target and `bench/json-path` can set them side by side (issue 51: a fast path stays
    /// only while it is linear, agrees with `JSONDecoder` on every input and saves time).
    @_spi(JSONPaths) public enum Reader: Sendable { case tree, foundation }

    /// `data` read by one reader only: `.tree` refuses what is not strict JSON instead of
    /// handing it on; `.foundation` is `JSONDecoder` with the options `decode` gives it.
    @_spi(JSONPaths) public static func decode(
        _ data: Data, origin: String, reader: Reader
    ) throws(CatalogDocumentError) -> CatalogResponseDTO {
        switch reader {
        case .foundation:
            return try decodeWithFoundation(
                data, origin: origin, syntaxError: JSONText.SyntaxError(line: 1, column: 1, problem: "not JSON"))
        case .tree:
            let tree: JSONTree
            do { tree = try JSONTree.parse(data) } catch {
                throw CatalogDocumentError(kind: .notJSON, origin: origin, detail: error.description)
            }
            do { return try CatalogResponseDTO(tree: tree) } catch {
                throw CatalogDocumentError(kind: .notACatalog, origin: origin, detail: DecodingErrorWords.describe(error))
            }
        }
    }

    private static func decodeWithFoundation(
        _ data: Data, origin: String, syntaxError: JSONText.SyntaxError
    ) throws(CatalogDocumentError) -> CatalogResponseDTO {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        do {
            return try decoder.decode(CatalogResponseDTO.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                // Where, in the file's own lines, rather than Foundation's error dump.
                throw CatalogDocumentError(kind: .notJSON, origin: origin, detail: syntaxError.description)
            }
            throw CatalogDocumentError(
                kind: .notACatalog, origin: origin,
                detail: DecodingErrorWords.describe(error))
        } catch {
            throw CatalogDocumentError(kind: .notACatalog, origin: origin, detail: DecodingErrorWords.describe(error))
        }
    }

    /// Catalog documents larger than this are refused before they are read: the seed is
    /// 20 KB and a catalog of every phone ever sold would be a few MB.
    public static let maximumBytes = 64 << 20

    /// The bound counts the bytes read, one past the limit at most, whatever the file is:
    /// a device (`/dev/zero`), a pipe (`<(...)`) or a FIFO has no size to ask for first
    /// (issue 49, F8: `stat` let those read 2 GB before failing).
    public static func load(contentsOf url: URL) throws(CatalogDocumentError) -> CatalogResponseDTO {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
            if data.count > maximumBytes {
                throw CatalogDocumentError(
                    kind: .unreadable, origin: url.path,
                    detail: "it is larger than \(maximumBytes >> 20) MiB, the limit for catalogs; it was not used")
            }
        } catch let error as CatalogDocumentError {
            throw error
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            throw CatalogDocumentError(
                kind: .unreadable, origin: url.path,
                detail: (error as NSError).localizedFailureReason ?? underlying?.localizedDescription ?? "\(error)")
        }
        return try decode(data, origin: url.path)
    }
}

/// `--catalog FILE`: a catalog document on disk standing in for the remote layer.
public struct FileCatalogRemote: CatalogRemoteAPI {
    public let url: URL
    public init(url: URL) { self.url = url }
    public func fetchCatalog() async throws -> CatalogResponseDTO {
        try CatalogDocumentDecoder.load(contentsOf: url)
    }
}
