// swift-tools-version:6.0
import PackageDescription

// Arrows point down only: nfcbench -> NFCBenchCLI -> NFCLocatorCore.
// NFCLocatorCore imports Foundation and nothing else, so it stays portable.
let package = Package(
    name: "nfcbench",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "NFCLocatorCore", targets: ["NFCLocatorCore"]),
        .executable(name: "nfcbench", targets: ["nfcbench"]),
        .executable(name: "nfcbench-fetch", targets: ["nfcbench-fetch"]),
    ],
    targets: [
        .target(name: "NFCLocatorCore"),
        // One thin system-library target per C library: a module map and a shim header.
        .systemLibrary(name: "CLibNFC", pkgConfig: "libnfc", providers: [.apt(["libnfc-dev"])]),
        .systemLibrary(name: "CPCSCLite", pkgConfig: "libpcsclite", providers: [.apt(["libpcsclite-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The only importer of CSQLite: connections, statements, the catalog cache.
        .target(name: "NFCStore", dependencies: ["CSQLite"]),
        // The remote catalog over HTTP, and the chain remote -> cache -> seed.
        .target(name: "NFCCatalogRemote", dependencies: ["NFCLocatorCore", "NFCStore"]),
        // URLSession (FoundationNetworking), linked only into the nfcbench-fetch helper.
        .target(name: "NFCCatalogHTTP", dependencies: ["NFCCatalogRemote"]),
        .executableTarget(name: "nfcbench-fetch", dependencies: ["NFCCatalogHTTP", "NFCCatalogRemote"]),
        // Reader model and the in-process simulated phone; knows no C library.
        .target(name: "NFCReaders"),
        // The only importer of CLibNFC / CPCSCLite.
        .target(name: "NFCReaderLibNFC", dependencies: ["CLibNFC", "NFCReaders"]),
        .target(name: "NFCReaderPCSC", dependencies: ["CPCSCLite", "NFCReaders"]),
        // Emulated PN532 on a pty and a virtual card for vpcd, driving the real stacks.
        .target(name: "NFCVirtualBench", dependencies: ["NFCReaders"]),
        // The bench runner: reader selection, guided runs, plans, scoring.
        .target(name: "NFCBench", dependencies: [
            "NFCLocatorCore", "NFCReaders", "NFCReaderLibNFC", "NFCReaderPCSC", "NFCVirtualBench", "NFCStore",
        ]),
        // Argument parsing, help and printing only; a library so tests call it.
        .target(name: "NFCBenchCLI", dependencies: [
            "NFCBench", "NFCLocatorCore", "NFCReaders", "NFCVirtualBench", "NFCCatalogRemote", "NFCStore",
        ]),
        .executableTarget(name: "nfcbench", dependencies: ["NFCBenchCLI"]),
        .executableTarget(name: "ResolveBenchmark", dependencies: ["NFCLocatorCore"], path: "Benchmarks/ResolveBenchmark"),
        .executableTarget(name: "RefineStudy", dependencies: ["NFCBench", "NFCLocatorCore", "NFCReaders"], path: "Benchmarks/RefineStudy"),
        .executableTarget(name: "StoreBenchmark", dependencies: ["NFCStore"], path: "Benchmarks/StoreBenchmark"),
        .executableTarget(name: "PollBenchmark", dependencies: ["CLibNFC", "NFCReaderLibNFC", "NFCReaders", "NFCVirtualBench"],
                          path: "Benchmarks/PollBenchmark"),
        .testTarget(name: "NFCLocatorCoreTests", dependencies: ["NFCLocatorCore"]),
        .testTarget(name: "NFCBenchCLITests", dependencies: ["NFCBenchCLI"]),
        .testTarget(name: "NFCReadersTests", dependencies: ["NFCReaders", "NFCVirtualBench"]),
        .testTarget(name: "EndToEndTests", dependencies: [
            "nfcbench", "NFCLocatorCore", "NFCReaders", "NFCReaderLibNFC", "NFCReaderPCSC", "NFCVirtualBench",
            "NFCStore", "NFCCatalogRemote", "nfcbench-fetch", "NFCBench",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
