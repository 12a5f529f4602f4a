import Foundation
import NFCLocatorCore
import NFCSodium

/// A minisign signature file (`catalog.minisig`): an untrusted comment, base64 of "ED",
/// the key id and the Ed25519 signature of the document's BLAKE2b-512, a trusted comment,
/// and base64 of the signature of (that signature, then the trusted comment's bytes).
/// `minisign -Vm catalog -p KEY.pub` verifies what this writes, and this verifies what
/// minisign writes (legacy "Ed" signatures of the raw bytes included).
public struct MinisignSignature: Sendable, Equatable {
    public let prehashed: Bool
    public let keyID: [UInt8]
    public let signature: [UInt8]
    public let trustedComment: String
    public let globalSignature: [UInt8]

    /// Signs `document` with `key`; `trustedComment` is signed with it (one line, printable).
    public static func sign(_ document: Data, with key: MinisignSecretKey, trustedComment: String) throws(SodiumError)
        -> MinisignSignature
    {
        precondition(!trustedComment.contains(where: \.isNewline), "a trusted comment is one line")
        let digest = try Ed25519.blake2b(document, length: 64)
        let signature = try Ed25519.sign(digest, secretKey: key.secret)
        let global = try Ed25519.sign(signature + Array(trustedComment.utf8), secretKey: key.secret)
        return MinisignSignature(
            prehashed: true, keyID: key.keyID, signature: signature, trustedComment: trustedComment,
            globalSignature: global)
    }

    public var fileText: String {
        "\(MinisignFormat.untrustedPrefix)signature from nfcbench catalog key \(MinisignFormat.keyIDText(keyID))\n"
            + Data(MinisignFormat.edPrehashed + keyID + signature).base64EncodedString() + "\n"
            + MinisignFormat.trustedPrefix + trustedComment + "\n" + Data(globalSignature).base64EncodedString() + "\n"
    }

    init(prehashed: Bool, keyID: [UInt8], signature: [UInt8], trustedComment: String, globalSignature: [UInt8]) {
        self.prehashed = prehashed
        self.keyID = keyID
        self.signature = signature
        self.trustedComment = trustedComment
        self.globalSignature = globalSignature
    }

    /// Reads a `.minisig` file. At most 16 KiB: minisign's own limits are 1 KiB of untrusted
    /// and 8 KiB of trusted comment.
    public init(_ data: Data) throws(MinisignFormatError) {
        guard data.count <= 16_384, let text = String(data: data, encoding: .utf8) else {
            throw .notMinisign("it is not a few lines of text")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        guard lines.count >= 4, lines[0].hasPrefix(MinisignFormat.untrustedPrefix),
            lines[2].hasPrefix(MinisignFormat.trustedPrefix)
        else { throw .notMinisign("it is not an untrusted comment, a signature, a trusted comment and a signature") }
        guard let first = Data(base64Encoded: lines[1].trimmingCharacters(in: .whitespaces)).map(Array.init),
            first.count == 74,
            let global = Data(base64Encoded: lines[3].trimmingCharacters(in: .whitespaces)).map(Array.init),
            global.count == 64
        else { throw .notMinisign("its signature lines are not base64 of minisign's sizes") }
        let algorithm = Array(first[0..<2])
        guard algorithm == MinisignFormat.edPrehashed || algorithm == MinisignFormat.ed else {
            throw .notMinisign("its algorithm is neither ED nor Ed")
        }
        let comment = String(lines[2].dropFirst(MinisignFormat.trustedPrefix.count))
        guard comment.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F || $0 == "\t" }) else {
            throw .notMinisign("its trusted comment holds control characters")
        }
        self.init(
            prehashed: algorithm == MinisignFormat.edPrehashed, keyID: Array(first[2..<10]),
            signature: Array(first[10..<74]), trustedComment: comment, globalSignature: global)
    }
}

/// Verifies catalogs against one minisign public key, with libsodium: the Linux side of
/// `CatalogSignatureVerifying`.
public struct MinisignVerifier: CatalogSignatureVerifying {
    public let key: MinisignPublicKey
    public init(key: MinisignPublicKey) { self.key = key }

    public func verify(document: Data, signature: Data) throws(CatalogSignatureError) -> String {
        let parsed: MinisignSignature
        do { parsed = try MinisignSignature(signature) } catch { throw .malformed(error.description) }
        guard parsed.keyID == key.keyID else {
            throw .otherKey(signedBy: MinisignFormat.keyIDText(parsed.keyID), trusted: key.keyIDText)
        }
        let documentSigned: Bool, commentSigned: Bool
        do throws(SodiumError) {
            let message = parsed.prehashed ? try Ed25519.blake2b(document, length: 64) : Array(document)
            documentSigned = try Ed25519.isValid(parsed.signature, of: message, publicKey: key.key)
            commentSigned = try Ed25519.isValid(
                parsed.globalSignature, of: parsed.signature + Array(parsed.trustedComment.utf8), publicKey: key.key)
        } catch {
            throw .unavailable(error.description)
        }
        guard documentSigned else { throw .invalid }
        guard commentSigned else { throw .commentAltered }
        return parsed.trustedComment
    }
}
