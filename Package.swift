// swift-tools-version:6.0
import PackageDescription

// The dependency graph; arrows point down only, and nothing below knows the CLI.
// docs/architecture.md names every module, its one job and its arrows.
//
//   nfcbench (main.swift) ──> NFCBenchCLI: arguments, help, prompts, printing; NFCSystem (one malloc arena)
//   NFCBenchCLI ──> NFCBenchUseCases: run, readers, refine, catalogs, stores, lab sync, doctor
//   NFCBenchUseCases ──> NFCVirtualBench, NFCMotion, NFCBench, both store modules, NFCCatalogRemote
//   NFCMotion: G-code machines as positioners ──> NFCRig, NFCBenchSeams, NFCSystem (no reader C library)
//   NFCRig: the rig file, machine coordinates and move timing, no port ──> NFCBenchRecords
//   NFCBench: runner, plans, reader backends by scheme, scoring, exports, refine, doctor
//       ──> NFCBenchSeams, NFCBenchRecords, NFCReaderLibNFC, NFCReaderPCSC, NFCReaderReplay, NFCHost, NFCSystem
//   NFCBenchSeams: Positioner, PositionerError, ProbeStrategy, PlanShape ──> NFCBenchRecords
//   NFCBenchStoreSQLite / NFCBenchStorePostgres ──> NFCBenchRecords, NFCStore / NFCPostgres
//   NFCCatalogRemote ──> NFCSodium ──> CSodium (signed catalogs; libsodium loaded at first use)
//   NFCStore ──> CSQLite    NFCPostgres ──> CLibPQ    NFCReaderLibNFC ──> CLibNFC    NFCReaderPCSC ──> CPCSCLite
//   NFCReaders: the reader model and its backend registration; NFCSystem: the system calls ──> CMalloc
//   NFCLocatorCore: Foundation only, portable    NFCPhysics: the bench's physics, Foundation only (NFCReaders uses it)
//   CLibNFC, CPCSCLite, CSQLite, CLibPQ, CMalloc: module map and shim header each
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
        // The bench's physics: loops, the gap, mutual inductance, the phone's threshold
        // (Foundation only, no I/O; docs/physics.md).
        .target(name: "NFCPhysics"),
        // One thin system-library target per C library: a module map and a shim header.
        .systemLibrary(name: "CLibNFC", pkgConfig: "libnfc", providers: [.apt(["libnfc-dev"])]),
        .systemLibrary(name: "CPCSCLite", pkgConfig: "libpcsclite", providers: [.apt(["libpcsclite-dev"])]),
        // glibc's malloc.h, which the Glibc module leaves out (`MallocArenas`).
        .systemLibrary(name: "CMalloc"),
        // Headers only: libsqlite3 is loaded when a database is first opened (see its shim).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // Headers only: libpq itself is loaded when a lab store is first opened (see its shim).
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),
        // Headers only: libsodium is loaded when a catalog is first signed or verified.
        .systemLibrary(name: "CSodium", providers: [.apt(["libsodium-dev"])]),
        // The only importer of CSodium: Ed25519 signatures and BLAKE2b, bytes in, bytes out.
        .target(name: "NFCSodium", dependencies: ["CSodium", "NFCSystem"]),
        // The only importer of CLibPQ: connections, statements, results, typed errors.
        .target(name: "NFCPostgres", dependencies: ["CLibPQ", "NFCSystem"]),
        // The system calls: typed Errno, one EINTR retry, file descriptors that close
        // themselves, serial ports and pseudo-terminals, one executor for blocking work.
        .target(name: "NFCSystem", dependencies: ["CMalloc"]),
        // The only importer of CSQLite: connections, statements, the catalog cache.
        .target(name: "NFCStore", dependencies: ["CSQLite", "NFCSystem"]),
        // The remote catalog over HTTP, and the chain remote -> cache -> seed.
        .target(name: "NFCCatalogRemote", dependencies: ["NFCLocatorCore", "NFCStore", "NFCSystem", "NFCSodium"]),
        // URLSession (FoundationNetworking), linked only into the nfcbench-fetch helper.
        .target(name: "NFCCatalogHTTP", dependencies: ["NFCCatalogRemote"]),
        .executableTarget(name: "nfcbench-fetch", dependencies: ["NFCCatalogHTTP", "NFCCatalogRemote"]),
        // Facts about the host: accounts and permissions, USB readers in sysfs, system roots.
        .target(name: "NFCHost"),
        // Reader model and the in-process simulated phone; knows no C library (NFCSystem
        // names a reader's device, so every spelling of one reader shares its journals).
        .target(name: "NFCReaders", dependencies: ["NFCSystem", "NFCPhysics"]),
        // The only importer of CLibNFC / CPCSCLite.
        .target(name: "NFCReaderLibNFC", dependencies: ["CLibNFC", "NFCReaders", "NFCHost", "NFCSystem"]),
        .target(name: "NFCReaderPCSC", dependencies: ["CPCSCLite", "NFCReaders"]),
        // A reader that answers as a recorded session's reader did (no C library).
        .target(name: "NFCReaderReplay", dependencies: ["NFCReaders"]),
        // Typed session and tap records, and the store seam every backend implements.
        .target(name: "NFCBenchRecords", dependencies: ["NFCLocatorCore", "NFCReaders"]),
        // The SQLite backend of the bench store, with its ordered migrations.
        .target(
            name: "NFCBenchStoreSQLite",
            dependencies: ["NFCBenchRecords", "NFCStore", "NFCLocatorCore", "NFCReaders", "NFCSystem"]),
        // The lab store several benches share (PostgreSQL), read as a BenchStoring, and the sync that fills it.
        .target(
            name: "NFCBenchStorePostgres",
            dependencies: ["NFCBenchRecords", "NFCPostgres", "NFCStore", "NFCReaders", "NFCLocatorCore", "NFCSystem"]),
        // The seams other modules implement, with no C library below them: the positioner,
        // its error, the probe strategy and the plan's shape. A positioner module (NFCMotion,
        // NFCVirtualBench) depends on these, not on the runner.
        .target(name: "NFCBenchSeams", dependencies: ["NFCBenchRecords", "NFCLocatorCore"]),
        // The bench runner: reader selection, guided runs, plans, scoring, exports, refine, doctor.
        .target(
            name: "NFCBench",
            dependencies: [
                "NFCBenchRecords", "NFCBenchSeams", "NFCLocatorCore", "NFCReaders", "NFCReaderLibNFC", "NFCReaderPCSC",
                "NFCReaderReplay", "NFCHost", "NFCSystem", "NFCPhysics",
            ]),
        // G-code machines (GRBL, Marlin) as positioners: the rig file, the serial
        // conversation, the mapping from the phone's back to machine coordinates.
        .target(name: "NFCMotion", dependencies: ["NFCRig", "NFCBenchSeams", "NFCBenchRecords", "NFCReaders", "NFCSystem"]),
        // The rig file and what it says: where the phone's back lies in machine
        // coordinates, the travel, the feeds, the time a plan's moves take. No port is
        // opened here, so the CLI reads and prints rigs without a machine module.
        .target(name: "NFCRig", dependencies: ["NFCBenchRecords"]),
        // Emulated PN532 on a pty and a virtual card for vpcd, driving the real stacks, and
        // the positioner that moves its phone.
        .target(name: "NFCVirtualBench", dependencies: ["NFCReaders", "NFCBenchSeams", "NFCBenchRecords", "NFCSystem"]),
        // The use cases under the CLI: validated requests in, results out (start or resume a
        // run, run it), readers opened in a scope that closes them, positioners by scheme.
        .target(
            name: "NFCBenchUseCases",
            dependencies: [
                "NFCBench", "NFCBenchRecords", "NFCBenchSeams", "NFCLocatorCore", "NFCReaders", "NFCVirtualBench",
                "NFCBenchStoreSQLite",
                "NFCBenchStorePostgres", "NFCPostgres", "NFCStore", "NFCCatalogRemote", "NFCReaderLibNFC", "NFCMotion", "NFCRig",
                "NFCPhysics", "NFCSodium", "NFCSystem",
            ]),
        // Argument parsing, help and printing only; a library so tests call it.
        .target(
            name: "NFCBenchCLI",
            dependencies: [
                "NFCBenchUseCases", "NFCBench", "NFCBenchRecords", "NFCBenchSeams", "NFCLocatorCore", "NFCReaders",
                "NFCVirtualBench", "NFCCatalogRemote", "NFCHost", "NFCSystem", "NFCRig", "NFCPhysics",
            ],
            plugins: ["BuildInfoPlugin"]),
        // The commit and build date `--version` and every report name.
        .plugin(name: "BuildInfoPlugin", capability: .buildTool()),
        .executableTarget(
            name: "nfcbench", dependencies: ["NFCBenchCLI", "NFCSystem"],
            // A release nfcbench starts in a few milliseconds, so the loader's share
            // counts (docs/performance.md): a position-dependent executable has no
            // 78,000 relative relocations to apply, and exporting no symbols keeps
            // dladdr's linear scan short; libstdc++, which only the Swift runtime uses, is
            // linked statically (scripts/link/libstdc++.so says how), so the loader no
            // longer binds it at every start; so is libgcc (its unwinder, for the same
            // runtime), whose shared library's constructor asks the CPU about itself with
            // CPUID at every start, an exit to the hypervisor each on a virtual machine
            // (0.11 ms of `--version`). Tests and debug builds link as SwiftPM does.
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-Xclang-linker", "-no-pie", "-Xclang-linker", "-static-libgcc", "-Xlinker", "--no-export-dynamic",
                        "-L", Context.packageDirectory + "/scripts/link",
                    ],
                    .when(platforms: [.linux], configuration: .release))
            ]),
        .executableTarget(name: "ResolveBenchmark", dependencies: ["NFCLocatorCore"], path: "Benchmarks/ResolveBenchmark"),
        .executableTarget(
            name: "RefineStudy", dependencies: ["NFCBench", "NFCBenchRecords", "NFCLocatorCore", "NFCPhysics", "NFCReaders"],
            path: "Benchmarks/RefineStudy"),
        .executableTarget(
            name: "PhysicsStudy", dependencies: ["NFCBench", "NFCBenchRecords", "NFCLocatorCore", "NFCPhysics", "NFCReaders"],
            path: "Benchmarks/PhysicsStudy"),
        .executableTarget(
            name: "VerdictStudy",
            dependencies: [
                "NFCBench", "NFCBenchRecords", "NFCBenchSeams", "NFCBenchStoreSQLite", "NFCLocatorCore", "NFCPhysics",
                "NFCReaders",
            ],
            path: "Benchmarks/VerdictStudy"),
        .executableTarget(
            name: "PublishBenchmark",
            dependencies: [
                "NFCBenchRecords", "NFCBenchStoreSQLite", "NFCStore", "NFCLocatorCore", "NFCPhysics", "NFCReaders",
                "NFCCatalogRemote",
            ],
            path: "Benchmarks/PublishBenchmark"),
        .executableTarget(
            name: "StoreBenchmark",
            dependencies: ["NFCBench", "NFCBenchRecords", "NFCBenchStoreSQLite", "NFCStore", "NFCLocatorCore"],
            path: "Benchmarks/StoreBenchmark"),
        // libFuzzer targets (bench/fuzz builds them with -sanitize=fuzzer,address; a
        // plain build makes a binary that only says so).
        .executableTarget(
            name: "NFCBenchFuzz", dependencies: ["NFCBench", "NFCLocatorCore", "NFCReaders", "NFCVirtualBench"],
            path: "Fuzz/NFCBenchFuzz"),
        .executableTarget(
            name: "LabStoreBenchmark",
            dependencies: [
                "NFCBenchStorePostgres", "NFCBenchStoreSQLite", "NFCBenchRecords", "NFCLabTestSupport", "NFCPostgres",
                "NFCReaders", "NFCBenchUseCases",
            ],
            path: "Benchmarks/LabStoreBenchmark"),
        .executableTarget(
            name: "TagModeBenchmark", dependencies: ["NFCReaderLibNFC", "NFCReaders", "NFCVirtualBench"],
            path: "Benchmarks/TagModeBenchmark"),
        .executableTarget(
            name: "PollBenchmark", dependencies: ["CLibNFC", "NFCReaderLibNFC", "NFCReaders", "NFCVirtualBench"],
            path: "Benchmarks/PollBenchmark"),
        // Helpers the test targets share: temporary folders, the checkout's fixtures, a
        // private virtual bench, child processes, the shared PC/SC reader's lock.
        .target(
            name: "NFCTestSupport",
            dependencies: ["NFCVirtualBench", "NFCReaders", "NFCReaderPCSC", "NFCLocatorCore", "NFCSystem"],
            path: "Tests/NFCTestSupport"),
        // A lab store for a test or a benchmark on the private PostgreSQL test.sh starts
        // (no @testable import, so release benchmarks build it too).
        .target(
            name: "NFCLabTestSupport",
            dependencies: ["NFCPostgres", "NFCBenchStorePostgres", "NFCBenchStoreSQLite", "NFCBenchRecords", "NFCLocatorCore"],
            path: "Tests/NFCLabTestSupport"),
        // One test target per module; EndToEndTests keeps what needs the built binary.
        .testTarget(name: "NFCLocatorCoreTests", dependencies: ["NFCLocatorCore"]),
        .testTarget(name: "NFCPhysicsTests", dependencies: ["NFCPhysics"]),
        .testTarget(name: "NFCReadersTests", dependencies: ["NFCReaders", "NFCSystem", "NFCTestSupport"]),
        .testTarget(name: "NFCStoreTests", dependencies: ["NFCStore", "NFCTestSupport"]),
        .testTarget(name: "NFCSystemTests", dependencies: ["NFCSystem", "NFCTestSupport"]),
        .testTarget(name: "NFCPostgresTests", dependencies: ["NFCPostgres"]),
        .testTarget(name: "NFCBenchRecordsTests", dependencies: ["NFCBenchRecords"]),
        .testTarget(
            name: "NFCMotionTests",
            dependencies: [
                "NFCMotion", "NFCRig", "NFCBench", "NFCBenchRecords", "NFCBenchSeams", "NFCSystem", "NFCVirtualBench",
                "NFCTestSupport",
            ]),
        .testTarget(name: "NFCRigTests", dependencies: ["NFCRig", "NFCBenchRecords"]),
        .testTarget(name: "NFCHostTests", dependencies: ["NFCHost", "NFCTestSupport"]),
        .testTarget(name: "NFCReaderReplayTests", dependencies: ["NFCReaderReplay", "NFCReaders", "NFCTestSupport"]),
        .testTarget(
            name: "NFCBenchStoreSQLiteTests",
            dependencies: [
                "NFCBenchStoreSQLite", "NFCBenchRecords", "NFCStore", "NFCLocatorCore", "NFCReaders", "NFCTestSupport",
                "NFCReaderLibNFC",
            ]),
        .testTarget(
            name: "NFCBenchTests",
            dependencies: [
                "NFCBench", "NFCBenchRecords", "NFCBenchSeams", "NFCBenchStoreSQLite", "NFCLocatorCore", "NFCPhysics",
                "NFCReaders",
                "NFCStore", "NFCTestSupport",
                "NFCReaderLibNFC", "NFCReaderPCSC",
            ]),
        .testTarget(
            name: "NFCReaderLibNFCTests",
            dependencies: ["NFCReaderLibNFC", "NFCReaders", "NFCHost", "NFCVirtualBench", "NFCTestSupport"]),
        .testTarget(
            name: "NFCReaderPCSCTests", dependencies: ["NFCReaderPCSC", "NFCReaders", "NFCVirtualBench", "NFCTestSupport"]),
        .testTarget(
            name: "NFCVirtualBenchTests",
            dependencies: [
                "NFCVirtualBench", "NFCBench", "NFCBenchRecords", "NFCBenchSeams", "NFCReaders", "NFCTestSupport", "NFCSystem",
            ]),
        .testTarget(
            name: "NFCCatalogRemoteTests",
            dependencies: ["NFCCatalogRemote", "NFCStore", "NFCLocatorCore", "NFCSodium", "NFCTestSupport"]),
        .testTarget(name: "NFCSodiumTests", dependencies: ["NFCSodium"]),
        .testTarget(name: "NFCCatalogHTTPTests", dependencies: ["NFCCatalogHTTP", "NFCCatalogRemote", "NFCTestSupport"]),
        .testTarget(
            name: "NFCBenchStorePostgresTests",
            dependencies: [
                "NFCBenchStorePostgres", "NFCPostgres", "NFCBenchStoreSQLite", "NFCBenchRecords", "NFCBench", "NFCLocatorCore",
                "NFCReaders", "NFCTestSupport", "NFCLabTestSupport", "NFCBenchUseCases",
            ]),
        .testTarget(
            name: "NFCBenchUseCasesTests",
            dependencies: [
                "NFCBenchUseCases", "NFCBench", "NFCBenchRecords", "NFCBenchStoreSQLite", "NFCLocatorCore", "NFCReaders",
                "NFCTestSupport", "NFCReaderLibNFC",
            ]),
        .testTarget(
            name: "NFCBenchCLITests",
            dependencies: [
                "NFCBenchCLI", "NFCBench", "NFCBenchRecords", "NFCBenchUseCases", "NFCReaders", "NFCTestSupport",
                "NFCReaderLibNFC",
            ]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "nfcbench", "nfcbench-fetch", "NFCLocatorCore", "NFCReaders", "NFCReaderLibNFC", "NFCReaderPCSC",
                "NFCVirtualBench",
                "NFCBenchRecords", "NFCBenchStoreSQLite", "NFCStore", "NFCCatalogRemote", "NFCBench", "NFCBenchSeams",
                "NFCTestSupport",
                "NFCBenchStorePostgres", "NFCPostgres", "NFCLabTestSupport", "NFCHost", "NFCSystem", "NFCPhysics",
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// Release builds on Linux call a concrete generic type's metadata accessor instead of
// looking the type up by its mangled name at run time: the first lookup of each such
// type checked its generic requirements by scanning every protocol conformance in the
// program (5,849 of them, ~80 µs a scan), and `poll` met four of those scans between
// exec and the reader's first answer (docs/performance.md). Code size grows by 0.1 %.
//
// Never on a target a library product publishes: SwiftPM refuses a versioned dependency
// whose product carries unsafe flags, and NFCLocatorCore exists to be one (an app's
// `.package(url:from:)`; ConsumerPackageTests builds such a consumer).
let publishedTargets = Set(package.products.compactMap { $0 as? Product.Library }.flatMap(\.targets))
for target in package.targets
where [.regular, .executable].contains(target.type) && !publishedTargets.contains(target.name) {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .unsafeFlags(
                ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
                .when(platforms: [.linux], configuration: .release))
        ]
}
