import Foundation
import Testing

@testable import NFCSodium

/// libsodium through the wrapper against published vectors: RFC 8032 section 7.1 for
/// Ed25519 and RFC 7693 appendix A for BLAKE2b-512.
@Suite("Ed25519 and BLAKE2b through libsodium")
struct Ed25519Tests {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    struct Vector: Sendable {
        let seed: String, publicKey: String, message: String, signature: String
    }

    static let rfc8032 = [
        Vector(
            seed: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            publicKey: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", message: "",
            signature:
                "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ),
        Vector(
            seed: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            publicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", message: "72",
            signature:
                "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        ),
    ]

    @Test(arguments: rfc8032) func signsAndVerifiesAsRFC8032Says(_ v: Vector) throws {
        let secret = Self.bytes(v.seed) + Self.bytes(v.publicKey)
        #expect(try Ed25519.publicKey(of: secret) == Self.bytes(v.publicKey))
        let signature = try Ed25519.sign(Self.bytes(v.message), secretKey: secret)
        #expect(signature == Self.bytes(v.signature))
        #expect(try Ed25519.isValid(signature, of: Self.bytes(v.message), publicKey: Self.bytes(v.publicKey)))
        var altered = signature
        altered[10] ^= 0x01
        #expect(try !Ed25519.isValid(altered, of: Self.bytes(v.message), publicKey: Self.bytes(v.publicKey)))
        #expect(try !Ed25519.isValid(signature, of: Self.bytes(v.message) + [0], publicKey: Self.bytes(v.publicKey)))
    }

    @Test func aSecretKeyWhosePublicHalfWasChangedIsFound() throws {
        let pair = try Ed25519.generateKeyPair()
        #expect(try Ed25519.publicKey(of: pair.secretKey) == pair.publicKey)
        var damaged = pair.secretKey
        damaged[40] ^= 0x80
        #expect(try Ed25519.publicKey(of: damaged) != Array(damaged[32..<64]))
    }

    @Test func blake2bOfAbcIsRFC7693s() throws {
        let digest = try Ed25519.blake2b(Array("abc".utf8), length: 64)
        #expect(
            digest
                == Self.bytes(
                    "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923"
                ))
    }

    @Test func wrongLengthsAreRefusedNotRead() throws {
        #expect(throws: SodiumError.wrongLength(what: "an Ed25519 secret key", expected: 64, got: 3)) {
            _ = try Ed25519.sign([1], secretKey: [1, 2, 3])
        }
        #expect(try !Ed25519.isValid([0, 1], of: [], publicKey: [UInt8](repeating: 0, count: 32)))
    }
}
