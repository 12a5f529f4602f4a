import CSodium
import NFCSystem

/// libsodium's functions, taken from `libsodium.so.23` the first time a catalog is signed
/// or verified: the one place nfcbench reaches libsodium. Loaded rather than linked so that
/// the commands which never touch a signature (`poll`, `run`, `--version`) do not pay the
/// dynamic loader for it at every start (docs/performance.md).
struct LibSodium: Sendable {
    let memzero: nfcbench_sodium_memzero_f
    let randomBytes: nfcbench_randombytes_buf_f
    let signKeypair: nfcbench_crypto_sign_keypair_f
    let signDetached: nfcbench_crypto_sign_detached_f
    let verifyDetached: nfcbench_crypto_sign_verify_detached_f
    let seedKeypair: nfcbench_crypto_sign_seed_keypair_f
    let genericHash: nfcbench_crypto_generichash_f
    let scrypt: nfcbench_crypto_pwhash_scryptsalsa208sha256_f

    /// The library, loaded and initialised once for the process (`sodium_init` picks the
    /// CPU's fastest implementations and seeds the random source; it must run before any
    /// other call).
    static let loaded: Result<LibSodium, SodiumError> = {
        let library: SharedLibrary
        do throws(SharedLibrary.LoadingError) {
            library = try SharedLibrary.load(anyOf: ["libsodium.so.23", "libsodium.so", "libsodium.dylib"])
        } catch {
            return .failure(.libraryMissing("\(error)"))
        }
        do throws(SharedLibrary.LoadingError) {
            let initialise: nfcbench_sodium_init_f = try library.function("sodium_init")
            // 0: initialised now; 1: already; -1: it could not (no random source).
            guard initialise() >= 0 else { return .failure(.initialisationFailed) }
            return .success(try LibSodium(library))
        } catch {
            return .failure(.libraryMissing("\(error)"))
        }
    }()

    static func api() throws(SodiumError) -> LibSodium { try loaded.get() }

    private init(_ library: SharedLibrary) throws(SharedLibrary.LoadingError) {
        memzero = try library.function("sodium_memzero")
        randomBytes = try library.function("randombytes_buf")
        signKeypair = try library.function("crypto_sign_keypair")
        signDetached = try library.function("crypto_sign_detached")
        verifyDetached = try library.function("crypto_sign_verify_detached")
        seedKeypair = try library.function("crypto_sign_seed_keypair")
        genericHash = try library.function("crypto_generichash")
        scrypt = try library.function("crypto_pwhash_scryptsalsa208sha256")
    }
}

/// Why libsodium could not do what was asked.
public enum SodiumError: Error, Sendable, Equatable, CustomStringConvertible {
    case libraryMissing(String)
    case initialisationFailed
    case wrongLength(what: String, expected: Int, got: Int)
    case operationFailed(String)

    public var description: String {
        switch self {
        case .libraryMissing(let reason):
            "libsodium cannot be loaded (\(reason)): install it (Debian: apt-get install libsodium23)"
        case .initialisationFailed: "libsodium could not initialise (no source of randomness)"
        case .wrongLength(let what, let expected, let got): "\(what) must be \(expected) bytes, not \(got)"
        case .operationFailed(let what): "libsodium could not \(what)"
        }
    }
}
