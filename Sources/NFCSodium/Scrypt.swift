import CSodium

/// scrypt (C. Percival, 2009; RFC 7914) as libsodium gives it, with Salsa20/8 and SHA-256:
/// what minisign derives a password-protected secret key's mask with.
public enum Scrypt {
    /// The largest memory a key file may ask for: minisign's own "sensitive" cost is 1 GiB.
    /// A damaged or hostile file asking for more is refused before anything is allocated.
    public static let largestMemory: UInt64 = 2 << 30
    /// The most operations a key file may ask for (minisign's "sensitive" cost is 2^25).
    public static let mostOperations: UInt64 = 1 << 28

    /// `length` bytes derived from `password` and `salt` at the given cost.
    public static func derive(length: Int, password: [UInt8], salt: [UInt8], operations: UInt64, memory: UInt64)
        throws(SodiumError) -> [UInt8]
    {
        guard salt.count == 32 else { throw .wrongLength(what: "an scrypt salt", expected: 32, got: salt.count) }
        guard operations <= mostOperations, memory <= largestMemory else {
            throw .operationFailed("derive a key at the cost the file asks (\(operations) operations, \(memory) bytes)")
        }
        let api = try LibSodium.api()
        var output = [UInt8](repeating: 0, count: length)
        let status = output.withUnsafeMutableBufferPointer { out in
            password.withUnsafeBufferPointer { p in
                salt.withUnsafeBufferPointer { s in
                    // Passwords are bytes to libsodium; its prototype types them as char.
                    p.withMemoryRebound(to: CChar.self) { chars in
                        api.scrypt(
                            out.baseAddress, UInt64(length), chars.baseAddress, UInt64(chars.count), s.baseAddress,
                            operations, Int(memory))
                    }
                }
            }
        }
        // -1: the cost is more than this machine can give (libsodium's own bound, or no memory).
        guard status == 0 else { throw .operationFailed("derive a key from the password (scrypt, \(memory) bytes)") }
        return output
    }
}
