import Foundation
import NFCLocatorCore
import NFCSodium
import NFCTestSupport
import Testing

@testable import NFCCatalogRemote

/// minisign's formats, read and written: what `catalog publish` signs and what a bench
/// verifies. The end-to-end tests check the same files against minisign itself.
@Suite("minisign keys and signatures")
struct MinisignTests {
    let key: MinisignSecretKey
    let document = Data("{\"version\":\"lab-1\",\"catalogVersion\":1,\"entries\":[]}\n".utf8)

    init() throws { key = try MinisignSecretKey.generate() }

    @Test func aSignatureVerifiesAndItsTrustedCommentComesBack() throws {
        let signature = try MinisignSignature.sign(document, with: key, trustedComment: "version:1 reviewer:Ana")
        let comment = try MinisignVerifier(key: key.publicKey).verify(
            document: document, signature: Data(signature.fileText.utf8))
        #expect(comment == "version:1 reviewer:Ana")
    }

    @Test func keysReadBackFromTheirFiles() throws {
        let secret = try MinisignSecretKey(text: try key.fileText())
        #expect(secret.publicKey == key.publicKey)
        #expect(try MinisignPublicKey(text: key.publicKey.fileText) == key.publicKey)
        // As minisign -P takes it: the base64 line alone.
        let line = String(key.publicKey.fileText.split(separator: "\n")[1])
        #expect(try MinisignPublicKey(text: line) == key.publicKey)
        #expect(key.publicKey.keyIDText.count == 16)
    }

    @Test func everyAlterationIsRefusedForItsOwnReason() throws {
        let signature = try MinisignSignature.sign(document, with: key, trustedComment: "version:1")
        let verifier = MinisignVerifier(key: key.publicKey)
        var altered = document
        altered[altered.count - 3] ^= 0x01
        #expect(throws: CatalogSignatureError.invalid) {
            try verifier.verify(document: altered, signature: Data(signature.fileText.utf8))
        }
        let otherComment = signature.fileText.replacingOccurrences(
            of: "trusted comment: version:1", with: "trusted comment: version:9")
        #expect(throws: CatalogSignatureError.commentAltered) {
            try verifier.verify(document: document, signature: Data(otherComment.utf8))
        }
        let other = try MinisignSecretKey.generate()
        #expect(throws: CatalogSignatureError.otherKey(signedBy: key.publicKey.keyIDText, trusted: other.publicKey.keyIDText)) {
            try MinisignVerifier(key: other.publicKey).verify(document: document, signature: Data(signature.fileText.utf8))
        }
        for junk in ["", "untrusted comment: x\n", "hello\nworld\n", String(repeating: "a", count: 20_000)] {
            #expect(throws: (any Error).self) { try verifier.verify(document: document, signature: Data(junk.utf8)) }
        }
    }

    @Test func aPasswordProtectedOrDamagedSecretKeyIsRefused() throws {
        let text = try key.fileText()
        var bytes = Array(Data(base64Encoded: String(text.split(separator: "\n")[1]))!)
        var encrypted = bytes
        encrypted[2] = UInt8(ascii: "S")
        encrypted[3] = UInt8(ascii: "c")
        #expect(throws: MinisignFormatError.passwordProtected) {
            try MinisignSecretKey(text: "untrusted comment: k\n" + Data(encrypted).base64EncodedString() + "\n")
        }
        // A protected key asking for more memory than any minisign cost is refused before
        // anything is allocated (a hostile file must not take the machine's memory).
        var greedy = encrypted
        greedy[46..<54] = [0, 0, 0, 0, 0, 0, 0, 0x10][...]
        #expect(throws: MinisignFormatError.self) {
            try MinisignSecretKey(
                text: "untrusted comment: k\n" + Data(greedy).base64EncodedString() + "\n", password: { Array("x".utf8) })
        }
        bytes[70] ^= 0x01  // inside the secret: its checksum no longer matches
        #expect(throws: MinisignFormatError.damaged) {
            try MinisignSecretKey(text: "untrusted comment: k\n" + Data(bytes).base64EncodedString() + "\n")
        }
    }

    @Test func theSignedCatalogRuleTakesVersionsInOrderOnly() throws {
        let verifier = MinisignVerifier(key: key.publicKey)
        func signed(_ body: Data) throws -> Data {
            Data(try MinisignSignature.sign(body, with: key, trustedComment: "t").fileText.utf8)
        }
        let seed = try Data(contentsOf: Checkout.seedCatalog)
        #expect(throws: SignedCatalogRefusal.signature(.unversioned)) {
            try SignedCatalog.open(seed, signature: try signed(seed), verifier: verifier, origin: "t", heldVersion: nil)
        }
        var object = try JSONSerialization.jsonObject(with: seed) as! [String: Any]
        object["catalogVersion"] = 4
        let four = try JSONSerialization.data(withJSONObject: object)
        #expect(
            try SignedCatalog.open(four, signature: try signed(four), verifier: verifier, origin: "t", heldVersion: 4)
                .catalogVersion == 4)
        #expect(throws: SignedCatalogRefusal.signature(.rolledBack(offered: 4, held: 5))) {
            try SignedCatalog.open(four, signature: try signed(four), verifier: verifier, origin: "t", heldVersion: 5)
        }
        #expect(throws: SignedCatalogRefusal.signature(.missing)) {
            try SignedCatalog.open(four, signature: nil, verifier: verifier, origin: "t", heldVersion: nil)
        }
    }
}
