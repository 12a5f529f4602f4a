import Foundation
import NFCLocatorCore
import NFCTestSupport
import Testing

/// Issue 51: NFCLocatorCore exists for apps on other platforms, which take it as a
/// versioned dependency (`.package(url:from:)`). SwiftPM refuses such a dependency when
/// its product carries unsafe flags, so this builds a consumer package against a tagged
/// clone of this checkout through a `file://` URL, as an app's manifest would name it,
/// and resolves a model through the library. A second tag whose NFCLocatorCore carries an
/// unsafe flag shows the check is real: SwiftPM refuses that one.
@Suite("NFCLocatorCore as another package's versioned dependency")
struct ConsumerPackageTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("consumer") }

    @Test func aPackageDependingOnATaggedReleaseResolvesAModelThroughTheLibrary() async throws {
        let library = scratch.file("nfcbench")
        try await shell(
            "mkdir -p \(library) && tar -C \(Checkout.root.path) --exclude=./.build --exclude=./.git --exclude='./.swiftpm' -cf - . "
                + "| tar -C \(library) -xf - && cd \(library) && git init -q && git add -A "
                + "&& git -c user.name=nfcbench -c user.email=nfcbench@localhost commit -qm release && git tag 1.0.0"
                // 0.9.0: the same, with an unsafe flag on the published target.
                + " && sed -i 's|.target(name: \"NFCLocatorCore\"),|.target(name: \"NFCLocatorCore\", "
                + "swiftSettings: [.unsafeFlags([\"-Onone\"])]),|' Package.swift"
                + " && grep -q 'unsafeFlags(\\[\"-Onone' Package.swift"
                + " && git -c user.name=nfcbench -c user.email=nfcbench@localhost commit -qam unsafe && git tag 0.9.0")

        let model = "SM-S921B"
        let consumer = try makeConsumer("app", requirement: "from: \"1.0.0\"", library: library)
        let built = try await swift(["build", "--package-path", consumer, "--scratch-path", consumer + "/.build"])
        #expect(built.status == 0, "\(built.stdout.suffix(2000))")
        let binary = try await swift([
            "build", "--package-path", consumer, "--scratch-path", consumer + "/.build", "--show-bin-path",
        ])
        let ran = try await ChildProcess.run(
            binary.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + "/app", [Checkout.seedCatalog.path, model],
            environment: ProcessInfo.processInfo.environment)
        #expect(ran.status == 0, "\(ran.stderr)")

        // The same answer as this checkout's library gives in process.
        let resolver = AntennaZoneResolver(
            remote: nil, seed: Catalog(document: try CatalogDocumentDecoder.load(contentsOf: Checkout.seedCatalog)))
        let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
        let here = resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: model))
        let zone = try #require(here.zone)
        #expect(here.source == .seedCatalog)
        #expect(
            ran.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "\(here.confidence.rawValue) \(here.source.rawValue) \(here.matchedKey ?? "-") \(zone.x) \(zone.y) \(zone.width) \(zone.height)",
            "\(ran.stdout)")

        // The release whose published target carries an unsafe flag is refused as a dependency.
        let refusing = try makeConsumer("refused", requirement: "exact: \"0.9.0\"", library: library)
        let refused = try await swift(["build", "--package-path", refusing, "--scratch-path", refusing + "/.build"])
        #expect(refused.status != 0)
        #expect(refused.stdout.contains("unsafe"), "\(refused.stdout.suffix(2000))")
    }

    /// A package with one executable target that reads the seed catalog given as its first
    /// argument and prints what the library resolves for the model given second.
    func makeConsumer(_ name: String, requirement: String, library: String) throws -> String {
        let root = scratch.file(name)
        let sources = root + "/Sources/\(name)"
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        try """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "\(name)",
            dependencies: [.package(url: "file://\(library)", \(requirement))],
            targets: [
                .executableTarget(
                    name: "\(name)", dependencies: [.product(name: "NFCLocatorCore", package: "nfcbench")])
            ]
        )
        """.write(toFile: root + "/Package.swift", atomically: true, encoding: .utf8)
        try """
        import Foundation
        import NFCLocatorCore

        let arguments = CommandLine.arguments
        let document = try CatalogDocumentDecoder.load(contentsOf: URL(fileURLWithPath: arguments[1]))
        let resolver = AntennaZoneResolver(remote: nil, seed: Catalog(document: document))
        let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: arguments[2]).fingerprint()
        let answer = resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: arguments[2]))
        let zone = answer.zone!
        print(answer.confidence.rawValue, answer.source.rawValue, answer.matchedKey ?? "-", zone.x, zone.y, zone.width, zone.height)
        """.write(toFile: sources + "/main.swift", atomically: true, encoding: .utf8)
        return root
    }

    /// SwiftPM, its output and errors merged; its caches stay in the scratch folder.
    func swift(_ arguments: [String]) async throws -> (status: Int32, stdout: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = scratch.path
        environment["XDG_CACHE_HOME"] = scratch.file("cache")
        let result = try await ChildProcess.run(
            "/usr/bin/env", ["swift"] + arguments + ["--cache-path", scratch.file("swiftpm-cache")],
            environment: environment, mergeErrors: true, timeout: 900)
        return (result.status, result.stdout)
    }

    func shell(_ script: String) async throws {
        let result = try await ChildProcess.run(
            "/bin/sh", ["-c", script], environment: ProcessInfo.processInfo.environment, mergeErrors: true)
        try #require(result.status == 0, "\(script)\n\(result.stdout)")
    }
}
