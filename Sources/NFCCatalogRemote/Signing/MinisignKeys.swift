import Foundation
import NFCSodium

/// minisign's key files (docs/catalog-api.md, "Signatures"), so a lab's key works with
/// `minisign` itself: a public key is `untrusted comment: ...` then base64 of "Ed", the
/// 8-byte key id and the 32-byte Ed25519 key; a secret key is base64 of "Ed", the KDF
/// ("\0\0": not encrypted with a password), "B2", the KDF's salt and limits (unused, zero),
/// the key id, the 64-byte secret key and a BLAKE2b-256 checksum of the algorithm, id and key.
public struct MinisignPublicKey: Sendable, Equatable {
    public let keyID: [UInt8]
    public let key: [UInt8]

    /// The id as minisign prints it: the 8 bytes as a little-endian number, in hex.
    public var keyIDText: String { MinisignFormat.keyIDText(keyID) }

    public init(keyID: [UInt8], key: [UInt8]) {
        precondition(keyID.count == 8 && key.count == Ed25519.publicKeyBytes, "a minisign public key is an id and 32 bytes")
        self.keyID = keyID
        self.key = key
    }

    /// A `.pub` file's text, or its base64 line alone (as `minisign -P` takes it).
    public init(text: String) throws(MinisignFormatError) {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let line = lines.count >= 2 ? lines[1] : (lines.first ?? "")
        if lines.count >= 2, !lines[0].hasPrefix(MinisignFormat.untrustedPrefix) {
            throw .notMinisign("its first line is not 'untrusted comment: ...'")
        }
        guard let bytes = Data(base64Encoded: line.trimmingCharacters(in: .whitespaces)).map(Array.init),
            bytes.count == 42
        else { throw .notMinisign("its key line is not the base64 of a 42-byte minisign public key") }
        guard bytes[0..<2].elementsEqual(MinisignFormat.ed) else { throw .notMinisign("its algorithm is not Ed25519") }
        self.init(keyID: Array(bytes[2..<10]), key: Array(bytes[10..<42]))
    }

    public var fileText: String {
        "\(MinisignFormat.untrustedPrefix)minisign public key \(keyIDText)\n"
            + Data(MinisignFormat.ed + keyID + key).base64EncodedString() + "\n"
    }
}

/// A secret key: only ever written with mode 0600 (`SecretKeyFile`) and never printed.
public struct MinisignSecretKey: Sendable {
    public let keyID: [UInt8]
    /// libsodium's 64-byte form: the seed, then the public key.
    let secret: [UInt8]

    /// A new key from the system's random source.
    public static func generate() throws(SodiumError) -> MinisignSecretKey {
        let pair = try Ed25519.generateKeyPair()
        return MinisignSecretKey(keyID: try Ed25519.randomBytes(8), secret: pair.secretKey)
    }

    init(keyID: [UInt8], secret: [UInt8]) {
        self.keyID = keyID
        self.secret = secret
    }

    public var publicKey: MinisignPublicKey {
        MinisignPublicKey(keyID: keyID, key: Array(secret[32..<64]))
    }

    /// `password`: asked for only when the key is protected by one (minisign's default);
    /// `nil` from it, or no closure, refuses such a key.
    public init(text: String, password: (() -> [UInt8]?)? = nil) throws(MinisignFormatError) {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard lines.count >= 2, lines[0].hasPrefix(MinisignFormat.untrustedPrefix) else {
            throw .notMinisign("a secret key file is a comment line and a key line")
        }
        guard let bytes = Data(base64Encoded: lines[1].trimmingCharacters(in: .whitespaces)).map(Array.init),
            bytes.count == 158
        else { throw .notMinisign("its key line is not the base64 of a 158-byte minisign secret key") }
        guard bytes[0..<2].elementsEqual(MinisignFormat.ed), bytes[4..<6].elementsEqual(Array("B2".utf8)) else {
            throw .notMinisign("its algorithms are not Ed25519 with a BLAKE2b checksum")
        }
        var keyNumber = Array(bytes[54..<158])  // key id, secret, checksum
        defer { Ed25519.wipe(&keyNumber) }
        let encrypted = !bytes[2..<4].elementsEqual([0, 0])
        if encrypted {
            guard bytes[2..<4].elementsEqual(Array("Sc".utf8)) else {
                throw .notMinisign("its key is protected by an unknown method (not scrypt)")
            }
            guard var typed = password?() else { throw .passwordProtected }
            defer { Ed25519.wipe(&typed) }
            let salt = Array(bytes[6..<38])
            let operations = Self.littleEndian(bytes[38..<46]), memory = Self.littleEndian(bytes[46..<54])
            var mask: [UInt8]
            do {
                mask = try Scrypt.derive(length: 104, password: typed, salt: salt, operations: operations, memory: memory)
            } catch let failure { throw .undecryptable(failure.description) }
            for i in keyNumber.indices { keyNumber[i] ^= mask[i] }
            Ed25519.wipe(&mask)
        }
        let keyID = Array(keyNumber[0..<8]), secret = Array(keyNumber[8..<72]), checksum = Array(keyNumber[72..<104])
        // minisign leaves the checksum of a key without a password zero; nfcbench writes it. A
        // protected key's checksum is what tells a wrong password.
        if encrypted || checksum.contains(where: { $0 != 0 }) {
            guard (try? MinisignFormat.checksum(keyID: keyID, secret: secret)) == checksum else {
                throw encrypted ? .wrongPassword : .damaged
            }
        }
        guard (try? Ed25519.publicKey(of: secret)) == Array(secret[32..<64]) else { throw .damaged }
        self.init(keyID: keyID, secret: secret)
    }

    static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The file's text: the secret in base64. Callers write it with mode 0600 only.
    public func fileText() throws(SodiumError) -> String {
        let zeros = [UInt8](repeating: 0, count: 32 + 8 + 8)
        let body =
            MinisignFormat.ed + [0, 0] + Array("B2".utf8) + zeros + keyID + secret
            + (try MinisignFormat.checksum(keyID: keyID, secret: secret))
        return "\(MinisignFormat.untrustedPrefix)nfcbench catalog signing key \(MinisignFormat.keyIDText(keyID))\n"
            + Data(body).base64EncodedString() + "\n"
    }
}

/// Why a key or signature file was not taken.
public enum MinisignFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    case notMinisign(String)
    case passwordProtected
    case wrongPassword
    case undecryptable(String)
    case damaged

    public var description: String {
        switch self {
        case .notMinisign(let why): "it is not a minisign file: \(why)"
        case .passwordProtected:
            "it is protected by a password and none was given: type it at the prompt on a terminal, or set "
                + "NFCBENCH_CATALOG_KEY_PASSWORD"
        case .wrongPassword: "the password does not open it (its checksum does not match)"
        case .undecryptable(let why): "its password could not be applied: \(why)"
        case .damaged: "its checksum or public half does not match its secret: the file is damaged"
        }
    }
}

enum MinisignFormat {
    static let untrustedPrefix = "untrusted comment: "
    static let trustedPrefix = "trusted comment: "
    static let ed = Array("Ed".utf8)
    /// Signatures of the BLAKE2b-512 of the file, as minisign makes by default.
    static let edPrehashed = Array("ED".utf8)

    static func keyIDText(_ id: [UInt8]) -> String {
        id.reversed().map { String(format: "%02X", $0) }.joined()
    }

    static func checksum(keyID: [UInt8], secret: [UInt8]) throws(SodiumError) -> [UInt8] {
        try Ed25519.blake2b(ed + keyID + secret, length: 32)
    }
}
