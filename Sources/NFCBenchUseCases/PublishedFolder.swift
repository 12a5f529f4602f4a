import Foundation
import NFCCatalogRemote
import NFCLocatorCore
import NFCSystem

/// The folder a lab publishes its catalog into, laid out as the remote layer fetches it:
/// `v1/catalog` and `v1/catalog.minisig` are the current version, served as static files by
/// any web server (docs/catalog-api.md); `v1/versions/N/` keeps each version as published.
///
/// The document and its signature must change together: a client that fetched the new
/// document beside the old signature would refuse it. So both live only in the version's
/// folder; `v1/current` is a link to that folder, swapped in one rename, and `v1/catalog`
/// and `v1/catalog.minisig` are fixed links through it (`current/catalog`). A web server
/// that follows links (nginx does by default) serves either the old pair or the new one.
struct PublishedFolder {
    let root: URL

    init(_ root: URL) { self.root = root }

    var current: URL { root.appendingPathComponent("v1/catalog") }
    var currentSignature: URL { root.appendingPathComponent("v1/catalog.minisig") }
    func versionFolder(_ n: Int) -> URL { root.appendingPathComponent("v1/versions/\(n)") }

    /// The version being served, checked with the publisher's own key: a folder whose
    /// document was changed, or signed by another key, is not built upon.
    func lastVersion(verifiedWith key: MinisignPublicKey) throws -> CatalogResponseDTO? {
        let manager = FileManager.default
        let hasDocument = manager.fileExists(atPath: current.path)
        let hasSignature = manager.fileExists(atPath: currentSignature.path)
        guard hasDocument || hasSignature else { return nil }
        guard hasDocument else { throw PublishFailure.previousUntrusted("v1/catalog.minisig has no v1/catalog beside it") }
        let body = try BoundedFile.read(current, limit: CatalogDocumentDecoder.maximumBytes)
        let signature = hasSignature ? try BoundedFile.read(currentSignature, limit: 16_384) : nil
        do {
            return try SignedCatalog.open(
                body, signature: signature, verifier: MinisignVerifier(key: key), origin: current.path, heldVersion: nil)
        } catch {
            throw PublishFailure.previousUntrusted(error.description)
        }
    }

    /// Writes version `n`: its own folder first (refused if it exists: another publish got
    /// there), then the current document and its signature, each replaced by a rename.
    func write(_ document: CatalogResponseDTO, version n: Int, key: MinisignSecretKey, reviewer: String, at date: Date)
        throws -> [String]
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(document) + Data("\n".utf8)
        let comment =
            "nfcbench catalog version:\(n) timestamp:\(Int(date.timeIntervalSince1970)) reviewer:\(Self.oneLine(reviewer))"
        let signature = Data(try MinisignSignature.sign(body, with: key, trustedComment: comment).fileText.utf8)
        let manager = FileManager.default
        let folder = versionFolder(n)
        do {
            try manager.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.createDirectory(at: folder, withIntermediateDirectories: false)
        } catch CocoaError.fileWriteFileExists {
            throw PublishFailure.versionTaken(n)
        } catch {
            throw PublishFailure.unwritable("cannot make \(folder.path): \(error.localizedDescription)")
        }
        let files = [
            (folder.appendingPathComponent("catalog"), body), (folder.appendingPathComponent("catalog.minisig"), signature),
        ]
        for (file, data) in files {
            do { try data.write(to: file, options: .atomic) } catch {
                throw PublishFailure.unwritable("cannot write \(file.path): \(error.localizedDescription)")
            }
        }
        try serve(version: n)
        return files.map(\.0.path) + [currentLink.path, current.path, currentSignature.path]
    }

    var currentLink: URL { root.appendingPathComponent("v1/current") }

    /// Makes version `n` the one served: `v1/current` swapped to its folder in one rename,
    /// then `v1/catalog` and `v1/catalog.minisig` made links through it where they are not
    /// yet (a folder from before the links held them as files: replaced, each in one rename).
    func serve(version n: Int) throws {
        let links = [
            (currentLink, "versions/\(n)"), (current, "current/catalog"), (currentSignature, "current/catalog.minisig"),
        ]
        for (link, target) in links {
            if link != currentLink, (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == target {
                continue
            }
            do throws(Errno) { try FileSystemCalls.swapLink(link.path, to: target) } catch {
                throw PublishFailure.unwritable("cannot point \(link.path) at \(target): \(error)")
            }
        }
    }

    /// A trusted comment is one printable line (minisign refuses others).
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }
}
