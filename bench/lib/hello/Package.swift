// swift-tools-version:6.0
// The start-up baseline bench/resolve builds and runs: a static Foundation program that
// prints one JSON object, the least a `resolve --json` could do.
import PackageDescription

let package = Package(name: "hello", targets: [.executableTarget(name: "hello")])
