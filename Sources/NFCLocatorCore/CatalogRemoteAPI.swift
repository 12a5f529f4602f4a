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
    /// `JSONDecoder` reads the wire format, as the seed designs it. A scan first refuses
    /// what it would take but a catalog must not hold: a member named twice (which of
    /// the two counts is not JSON's to say) and nesting past its depth limit; a syntax
    /// error is located in the file's own lines. A hand-written tree reader beside it
    /// saved 0.6 ms a command, under the 2 ms issue 51 asked of a fast path, and went
    /// (docs/performance.md).
    public static func decode(_ data: Data, origin: String) throws(CatalogDocumentError) -> CatalogResponseDTO {
        switch JSONText(data).strictReading() {
        case .duplicateMember(let duplicate):
            throw CatalogDocumentError(kind: .notACatalog, origin: origin, detail: duplicate.description)
        case .tooDeep(let depth):
            throw CatalogDocumentError(kind: .notJSON, origin: origin, detail: depth)
        case .syntaxError(let syntax):
            // Not Foundation's to judge: it takes a control character inside a string, and
            // the strict pass, stopped there, has not looked for a member named twice after it.
            throw CatalogDocumentError(kind: .notJSON, origin: origin, detail: syntax.description)
        case .trailingComma(let syntax):
            return try decodeWithFoundation(data, origin: origin, syntaxError: syntax)
        case .valid:
            return try decodeWithFoundation(
                data, origin: origin, syntaxError: JSONText.SyntaxError(line: 1, column: 1, problem: "not JSON"))
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
