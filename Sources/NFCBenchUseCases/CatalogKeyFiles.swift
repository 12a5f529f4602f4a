import Foundation
import NFCCatalogRemote
import NFCSodium
import NFCSystem

/// The lab's catalog signing key on disk, in minisign's formats: `KEY` (secret, mode 0600,
/// created so that no other mode ever exists on disk) and `KEY.pub`.
public enum CatalogKeyFiles {
    /// Makes a new key pair; refuses to replace either file (a lost secret key cannot sign
    /// the next version, so benches that trust it would refuse every later catalog).
    public static func generate(secretPath: URL) throws(CatalogKeyError) -> MinisignPublicKey {
        let publicPath = URL(fileURLWithPath: secretPath.path + ".pub")
        for path in [secretPath, publicPath] where FileManager.default.fileExists(atPath: path.path) {
            throw .exists(path.path)
        }
        let key: MinisignSecretKey
        var text: [UInt8]
        do {
            key = try MinisignSecretKey.generate()
            text = Array(try key.fileText().utf8)
        } catch {
            throw .crypto(error.description)
        }
        defer { Ed25519.wipe(&text) }
        do throws(Errno) {
            // O_EXCL: created here or not at all; the mode is set by the create itself and
            // again by fchmod, which the umask cannot narrow or widen.
            let file = try OwnedFileDescriptor.open(secretPath.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
            guard fchmod(file.rawValue, 0o600) == 0 else { throw Errno.current }
            try file.descriptor.writeAll(text)
            guard fsync(file.rawValue) == 0 else { throw Errno.current }
        } catch {
            try? FileManager.default.removeItem(at: secretPath)
            throw .unwritable(secretPath.path, error.description)
        }
        do { try Data(key.publicKey.fileText.utf8).write(to: publicPath, options: .withoutOverwriting) } catch {
            throw .unwritable(publicPath.path, error.localizedDescription)
        }
        return key.publicKey
    }

    /// The secret key, refused when others may read it (as ssh refuses a private key).
    /// `password` is asked only of a key protected by one (minisign's `-G` makes such keys).
    public static func readSecret(_ url: URL, password: (() -> [UInt8]?)? = nil) throws(CatalogKeyError)
        -> MinisignSecretKey
    {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw .unreadable(url.path, Errno.current.description) }
        guard info.st_mode & 0o077 == 0 else {
            throw .exposed(url.path, String(info.st_mode & 0o777, radix: 8))
        }
        let data: Data
        do { data = try BoundedFile.read(url, limit: 4096) } catch { throw .unreadable(url.path, error.reason) }
        do { return try MinisignSecretKey(text: String(decoding: data, as: UTF8.self), password: password) } catch {
            switch error {
            case .passwordProtected, .wrongPassword, .undecryptable: throw .locked(url.path, error.description)
            default: throw .notAKey(url.path, error.description)
            }
        }
    }

    public static func readPublic(_ url: URL) throws(CatalogKeyError) -> MinisignPublicKey {
        let data: Data
        do { data = try BoundedFile.read(url, limit: 4096) } catch { throw .unreadable(url.path, error.reason) }
        do { return try MinisignPublicKey(text: String(decoding: data, as: UTF8.self)) } catch {
            throw .notAKey(url.path, error.description)
        }
    }
}

/// Why a key file could not be made or used; `hint` says what to do.
public enum CatalogKeyError: Error, Sendable, CustomStringConvertible {
    case exists(String)
    case unwritable(String, String)
    case unreadable(String, String)
    case exposed(String, String)
    case notAKey(String, String)
    case locked(String, String)
    case crypto(String)

    public var description: String {
        switch self {
        case .exists(let path): "'\(path)' exists already; a key is never replaced"
        case .unwritable(let path, let why): "cannot write '\(path)': \(why)"
        case .unreadable(let path, let why): "cannot read the key '\(path)': \(why)"
        case .exposed(let path, let mode): "the secret key '\(path)' has mode \(mode): others may read it"
        case .notAKey(let path, let why): "'\(path)' is not a usable key: \(why)"
        case .locked(let path, let why): "the secret key '\(path)' is locked: \(why)"
        case .crypto(let why): why
        }
    }

    public var hint: String {
        switch self {
        case .exists: "Choose another name, or use the key you have: benches trust its KEY.pub."
        case .unwritable: "Check that the folder exists and is writable."
        case .unreadable: "Check the path; make a key with 'nfcbench catalog keygen -o KEY'."
        case .exposed(let path, _): "Run 'chmod 600 \(path)', and make a new key if others could have copied it."
        case .notAKey: "Give the file 'nfcbench catalog keygen' or 'minisign -G -W' wrote (KEY for publish, KEY.pub to verify)."
        case .locked:
            "Run on a terminal to be asked for its password, or set NFCBENCH_CATALOG_KEY_PASSWORD for a script "
                + "(the environment of a shared machine is not a secret store)."
        case .crypto: "Install libsodium (Debian: apt-get install libsodium23)."
        }
    }
}
