import Foundation

/// Checks that a catalog document was signed by the key a client trusts. A protocol so each
/// platform plugs in its own Ed25519: libsodium on Linux (`MinisignVerifier` in
/// NFCCatalogRemote), CryptoKit's `Curve25519.Signing` in an Apple app. The signature is
/// minisign's file (docs/catalog-api.md), so outside tools verify the same bytes.
public protocol CatalogSignatureVerifying: Sendable {
    /// The trusted comment the signature vouches for, or why the document is refused.
    func verify(document: Data, signature: Data) throws(CatalogSignatureError) -> String
}

/// Why a signed catalog was refused. Each case says what a lab can do about it.
public enum CatalogSignatureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `catalog.minisig` beside the document.
    case missing
    /// The signature file is not minisign's format.
    case malformed(String)
    /// Signed, but by another key (its id, and the id trusted).
    case otherKey(signedBy: String, trusted: String)
    /// The bytes are not what was signed: changed in transit, or the signature is another document's.
    case invalid
    /// The signature is good but the comment under it was changed.
    case commentAltered
    /// A signed document must carry `catalogVersion`.
    case unversioned
    /// Older than the version the client already holds: a replay of an old document.
    case rolledBack(offered: Int, held: Int)
    /// The verifier itself could not run (a missing library).
    case unavailable(String)

    public var description: String {
        switch self {
        case .missing: "the catalog has no signature beside it (catalog.minisig)"
        case .malformed(let why): "its signature is not a minisign signature: \(why)"
        case .otherKey(let signer, let trusted):
            "it is signed by key \(signer), not by the trusted key \(trusted)"
        case .invalid: "its signature does not match its bytes (altered, or the signature of another document)"
        case .commentAltered: "the trusted comment under its signature was altered"
        case .unversioned: "a signed catalog must carry catalogVersion, and this one does not"
        case .rolledBack(let offered, let held):
            "it is version \(offered), older than version \(held) already held (a replayed document)"
        case .unavailable(let why): "its signature cannot be checked: \(why)"
        }
    }
}

/// The one rule every client applies to a signed catalog, whatever verifies the signature:
/// the signature first, then the document, then its version against the one held.
public enum SignedCatalog {
    /// The signature and the version alone, with the document's header (`CatalogHeader`)
    /// and not its entries: what `catalog verify` checks. `open` adds the decode.
    public static func verify(
        _ body: Data, signature: Data?, verifier: any CatalogSignatureVerifying, origin: String, heldVersion: Int?
    ) throws(SignedCatalogRefusal) -> CatalogHeader {
        guard let signature else { throw .signature(.missing) }
        do {
            _ = try verifier.verify(document: body, signature: signature)
        } catch {
            throw .signature(error)
        }
        let header: CatalogHeader
        do { header = try CatalogHeader.read(body) } catch {
            throw .document(CatalogDocumentError(kind: .notACatalog, origin: origin, detail: error.description))
        }
        guard let version = header.catalogVersion else { throw .signature(.unversioned) }
        if let heldVersion, version < heldVersion { throw .signature(.rolledBack(offered: version, held: heldVersion)) }
        return header
    }

    /// `verify`, then the whole document decoded: what a client that uses the entries takes.
    public static func open(
        _ body: Data, signature: Data?, verifier: any CatalogSignatureVerifying, origin: String, heldVersion: Int?
    ) throws(SignedCatalogRefusal) -> CatalogResponseDTO {
        _ = try verify(body, signature: signature, verifier: verifier, origin: origin, heldVersion: heldVersion)
        do { return try CatalogDocumentDecoder.decode(body, origin: origin) } catch { throw .document(error) }
    }
}

/// A signed document refused: for its signature or version, or because it is no catalog.
public enum SignedCatalogRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    case signature(CatalogSignatureError)
    case document(CatalogDocumentError)

    public var description: String {
        switch self {
        case .signature(let error): error.description
        case .document(let error): error.description
        }
    }
}
