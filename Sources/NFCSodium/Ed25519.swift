import Foundation

/// Ed25519 signatures and BLAKE2b through libsodium, as bytes in and bytes out: the only
/// code that hands libsodium a pointer. Callers above never see one.
public enum Ed25519 {
    public static let publicKeyBytes = 32
    public static let secretKeyBytes = 64
    public static let signatureBytes = 64

    /// A fresh key pair from the system's random source.
    public static func generateKeyPair() throws(SodiumError) -> (publicKey: [UInt8], secretKey: [UInt8]) {
        let api = try LibSodium.api()
        var publicKey = [UInt8](repeating: 0, count: publicKeyBytes)
        var secretKey = [UInt8](repeating: 0, count: secretKeyBytes)
        let status = publicKey.withUnsafeMutableBufferPointer { pk in
            secretKey.withUnsafeMutableBufferPointer { sk in api.signKeypair(pk.baseAddress, sk.baseAddress) }
        }
        guard status == 0 else { throw .operationFailed("make a key pair") }
        return (publicKey, secretKey)
    }

    /// The public half of a secret key, derived again from its seed (the first 32 bytes):
    /// a key whose stored public half (its last 32) differs from this is damaged.
    public static func publicKey(of secretKey: [UInt8]) throws(SodiumError) -> [UInt8] {
        let api = try LibSodium.api()
        try check(secretKey, secretKeyBytes, "an Ed25519 secret key")
        var publicKey = [UInt8](repeating: 0, count: publicKeyBytes)
        var derived = [UInt8](repeating: 0, count: secretKeyBytes)
        defer { wipe(&derived) }
        let seed = Array(secretKey[0..<32])
        let status = publicKey.withUnsafeMutableBufferPointer { pk in
            derived.withUnsafeMutableBufferPointer { sk in
                seed.withUnsafeBufferPointer { s in api.seedKeypair(pk.baseAddress, sk.baseAddress, s.baseAddress) }
            }
        }
        guard status == 0 else { throw .operationFailed("derive a public key") }
        return publicKey
    }

    /// A detached signature of `message`.
    public static func sign(_ message: [UInt8], secretKey: [UInt8]) throws(SodiumError) -> [UInt8] {
        let api = try LibSodium.api()
        try check(secretKey, secretKeyBytes, "an Ed25519 secret key")
        var signature = [UInt8](repeating: 0, count: signatureBytes)
        let status = signature.withUnsafeMutableBufferPointer { sig in
            message.withUnsafeBufferPointer { m in
                secretKey.withUnsafeBufferPointer { sk in
                    api.signDetached(sig.baseAddress, nil, m.baseAddress, UInt64(m.count), sk.baseAddress)
                }
            }
        }
        guard status == 0 else { throw .operationFailed("sign") }
        return signature
    }

    /// Whether `signature` is `publicKey`'s over `message`. Wrong lengths are simply not valid.
    public static func isValid(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) throws(SodiumError) -> Bool {
        let api = try LibSodium.api()
        guard signature.count == signatureBytes, publicKey.count == publicKeyBytes else { return false }
        let status = signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { m in
                publicKey.withUnsafeBufferPointer { pk in
                    api.verifyDetached(sig.baseAddress, m.baseAddress, UInt64(m.count), pk.baseAddress)
                }
            }
        }
        return status == 0
    }

    /// BLAKE2b of `data`, unkeyed, `length` bytes (16 to 64).
    public static func blake2b(_ data: some ContiguousBytes, length: Int) throws(SodiumError) -> [UInt8] {
        precondition((16...64).contains(length), "BLAKE2b gives 16 to 64 bytes")
        let api = try LibSodium.api()
        var digest = [UInt8](repeating: 0, count: length)
        let status = digest.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBytes { input in
                api.genericHash(
                    out.baseAddress, length, input.bindMemory(to: UInt8.self).baseAddress, UInt64(input.count), nil, 0)
            }
        }
        guard status == 0 else { throw .operationFailed("hash") }
        return digest
    }

    /// `count` bytes from libsodium's random source.
    public static func randomBytes(_ count: Int) throws(SodiumError) -> [UInt8] {
        let api = try LibSodium.api()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { api.randomBytes($0.baseAddress, $0.count) }
        return bytes
    }

    /// Overwrites secret bytes in a way the compiler may not drop.
    public static func wipe(_ bytes: inout [UInt8]) {
        guard let api = try? LibSodium.api() else {
            for i in bytes.indices { bytes[i] = 0 }
            return
        }
        bytes.withUnsafeMutableBytes { api.memzero($0.baseAddress, $0.count) }
    }

    private static func check(_ bytes: [UInt8], _ length: Int, _ what: String) throws(SodiumError) {
        guard bytes.count == length else { throw .wrongLength(what: what, expected: length, got: bytes.count) }
    }
}
