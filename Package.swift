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
    ],
    targets: [
        .target(name: "NFCLocatorCore"),
        .target(name: "NFCBenchCLI", dependencies: ["NFCLocatorCore"]),
        .executableTarget(name: "nfcbench", dependencies: ["NFCBenchCLI"]),
        .executableTarget(name: "ResolveBenchmark", dependencies: ["NFCLocatorCore"], path: "Benchmarks/ResolveBenchmark"),
        .testTarget(name: "NFCLocatorCoreTests", dependencies: ["NFCLocatorCore"]),
        .testTarget(name: "NFCBenchCLITests", dependencies: ["NFCBenchCLI"]),
        .testTarget(name: "EndToEndTests", dependencies: ["nfcbench", "NFCLocatorCore"]),
    ],
    swiftLanguageModes: [.v6]
)
