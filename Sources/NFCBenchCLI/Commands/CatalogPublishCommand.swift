import Foundation
import NFCBench
import NFCBenchUseCases
import NFCCatalogRemote
import NFCLocatorCore

/// `nfcbench catalog keygen` and `nfcbench catalog publish`: the lab's verified coils as a
/// signed, versioned catalog that benches and apps fetch (docs/publish.md).
enum CatalogPublishCommand {
    static let keygenSpec = CommandSpec(
        "keygen", abstract: "Make the lab's catalog signing key: KEY (secret, mode 0600) and KEY.pub.",
        discussion: "minisign's formats: 'minisign -Vm catalog -p KEY.pub' verifies what 'catalog publish' signs.",
        options: [keyOutput.spec],
        handler: keygen)

    static let publishSpec = CommandSpec(
        "publish", abstract: "Sign the next catalog version from bench evidence into DIR/v1/catalog.",
        discussion: """
            An entry is published when its bench sessions (never simulated or void) pass the promotion policy \
            (docs/refine.md) and their taps bound the coil: the zone published is the coil, with its 95 % intervals \
            in the entry's provenance. Every other entry is carried from the last version in DIR (for the first, \
            the seed catalog, with --catalog FILE laid over it). --dry-run shows the change and writes nothing.
            Exit codes: 0 published (or nothing changed), 1 the folder or key cannot be used, 64 usage.
            """,
        options: [
            StoreOptions.database.spec, LabOptions.readStore.spec, signingKey.spec, reviewer.spec, folder.spec, dryRun.spec,
            minSessions.spec, minUnits.spec, CatalogOptions.catalogFile.spec, json.spec,
        ],
        handler: publish)

    static let verifySpec = CommandSpec(
        "verify", abstract: "Check a catalog file's signature (FILE.minisig beside it) with a trusted key.",
        discussion: "The signature and version check 'catalog sync --catalog-key' makes, on a file at hand: the whole "
            + "file must be what the key signed, and one JSON object with a catalogVersion. Its entries are not decoded "
            + "(the signature vouches for them); 'nfcbench catalog validate FILE' checks their content. "
            + "Exit codes: 0 the signature verifies and the file is a versioned catalog, 1 it does not (the reason is said).",
        arguments: [ArgumentSpec("file", help: "The catalog document (v1/catalog).")],
        options: [CatalogOptions.catalogKey.spec, signatureFile.spec],
        handler: verify)

    static let signatureFile = Option<String>(
        "--signature", value: "file", help: "The signature, if not FILE.minisig beside the file.")

    static let keyOutput = Option<String>(
        "--output", short: "o", value: "key", help: "Where to write the secret key.", required: true)
    static let signingKey = Option<String>("--key", value: "key", help: "The secret key ('catalog keygen').", required: true)
    static let reviewer = Option<String>.storedText(
        "--reviewer", value: "name", help: "Who approves this version (recorded in it and in its signature).")
    static let folder = Option<String>(
        "--output", short: "o", value: "dir", help: "The folder a web server serves (DIR/v1/catalog).", required: true)
    static let dryRun = Flag("--dry-run", help: "Show what would change against the last version; write nothing.")
    static let minSessions = Option<Int>(
        "--min-sessions", value: "n", help: "Bench sessions an entry needs (default 3).",
        expected: "a whole number in 1...100000", convert: OptionValue.whole(in: 1...100_000))
    static let minUnits = Option<Int>(
        "--min-units", value: "n", help: "Labelled units (run --unit) an entry needs (default 2).",
        expected: "a whole number in 1...100000", convert: OptionValue.whole(in: 1...100_000))
    static let json = Flag("--json", help: "Print the outcome as one JSON object.")

    static func keygen(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let path = context.url(forPath: invocation.required(keyOutput))
        let key: MinisignPublicKey
        do throws(CatalogKeyError) { key = try CatalogKeyFiles.generate(secretPath: path) } catch {
            throw CommandFailure("Cannot make the key: \(error).", hint: error.hint)
        }
        context.output.line("Wrote the secret key \(TerminalSafeText.field(path.path)) (mode 0600: keep it off shared disks).")
        context.output.line("Wrote the public key \(TerminalSafeText.field(path.path)).pub, key ID \(key.keyIDText).")
        context.output.line("Benches trust it with --catalog-key KEY.pub; 'minisign -Vm FILE -p KEY.pub' checks a file by hand.")
        return ExitCode.success
    }

    static func verify(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        guard let key = try CatalogOptions.trustedKey(invocation, context) else {
            throw UsageError(
                "Give the key to check against: --catalog-key KEY.pub (or NFCBENCH_CATALOG_KEY).", path: invocation.path)
        }
        let file = invocation.positionals[0]
        let document = context.url(forPath: file)
        let signature = context.url(forPath: invocation[signatureFile] ?? file + ".minisig")
        let body = try InputFile.read(document, limit: CatalogDocumentDecoder.maximumBytes, what: "catalog")
        let signed =
            FileManager.default.fileExists(atPath: signature.path)
            ? try InputFile.read(signature, limit: 16_384, what: "signature") : nil
        // The signature and the version, not the entries: 'catalog validate' reads those.
        let verified: CatalogHeader
        do {
            verified = try SignedCatalog.verify(
                body, signature: signed, verifier: MinisignVerifier(key: key), origin: document.path, heldVersion: nil)
        } catch {
            throw CommandFailure(
                "\(TerminalSafeText.field(file)) is refused: \(error).",
                hint: "Nothing in it should be used. Check that the key is the publishing lab's KEY.pub.")
        }
        let approval = verified.publication.map {
            ", approved by \(TerminalSafeText.field($0.reviewer)) on \(TerminalSafeText.field($0.approvedAt))"
        }
        context.output.line(
            "\(TerminalSafeText.field(file)): signature verified with key \(key.keyIDText); catalog version "
                + "\(verified.catalogVersion.map(String.init) ?? "none")\(approval ?? ""), "
                + "\(verified.entryCount.map(String.init) ?? "no") entries (their content: 'nfcbench catalog validate').")
        return ExitCode.success
    }

    static func publish(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let isDryRun = invocation[dryRun]
        let reviewerName = invocation[reviewer]?.trimmingCharacters(in: .whitespacesAndNewlines)
        if !isDryRun, reviewerName?.isEmpty != false {
            throw UsageError(
                "Publishing needs --reviewer NAME: who approved this version (--dry-run needs none).", path: invocation.path)
        }
        let key: MinisignSecretKey
        let keyPath = context.url(forPath: invocation.required(signingKey))
        let password = { () -> [UInt8]? in
            if let given = context.environment["NFCBENCH_CATALOG_KEY_PASSWORD"] { return Array(given.utf8) }
            return PasswordPrompt.read("Password for the catalog key \(keyPath.lastPathComponent): ", to: context.errors)
        }
        do throws(CatalogKeyError) { key = try CatalogKeyFiles.readSecret(keyPath, password: password) } catch {
            throw CommandFailure("Cannot sign with the key: \(error).", hint: error.hint)
        }
        let (store, location) = try await StoreOptions.reading(invocation, context, checked: true)
        var seed = try CatalogDocumentDecoder.load(contentsOf: context.resources().seedCatalogURL)
        if let file = invocation[CatalogOptions.catalogFile] {
            // A lab's own starting point (an import, a patch): its rows over the seed's.
            let own = try InputFile.read(context.url(forPath: file), limit: CatalogDocumentDecoder.maximumBytes, what: "catalog")
            let document: CatalogResponseDTO
            do { document = try CatalogDocumentDecoder.decode(own, origin: file) } catch {
                throw CommandFailure(
                    "Cannot start from '\(file)': \(error).", hint: "Check it with 'nfcbench catalog validate FILE'.")
            }
            seed = Catalog(document: document).laid(over: Catalog(document: seed)).document
        }
        var policy = PromotionPolicy()
        policy.minimumSessions = invocation[minSessions] ?? policy.minimumSessions
        policy.minimumUnits = invocation[minUnits] ?? policy.minimumUnits
        let request = PublishRequest(
            folder: context.url(forPath: invocation.required(folder)), key: key, reviewer: reviewerName, dryRun: isDryRun,
            policy: policy, source: location, base: seed)
        let outcome: PublishOutcome
        do { outcome = try await CatalogPublishing.run(request, store: store) } catch let failure as PublishFailure {
            throw CommandFailure(
                "Nothing was published: \(failure).",
                hint: "Publish into the folder this key published before, or into an empty one; never edit v1/ by hand.")
        }
        let printer = PublishPrinter(outcome: outcome, dryRun: isDryRun)
        if invocation[json] {
            context.output.line(printer.json().serialized(pretty: true))
        } else {
            for line in printer.lines() { context.output.line(line) }
        }
        return ExitCode.success
    }
}
