import Foundation
import NFCTestSupport
import Testing

/// SQLite and libpq are loaded by the first command that opens a database or a lab store,
/// and libsodium by the first that signs or checks a catalog, not at start-up (docs/performance.md): the loader's own trace (`LD_DEBUG=files`) of the
/// built binary says which libraries each command mapped.
@Suite("Libraries loaded when first used")
struct LibraryLoadingTests {
    /// The shared libraries the dynamic loader mapped for one run of `arguments`.
    static func loaded(_ arguments: [String]) async throws -> (status: Int32, libraries: Set<String>) {
        let r = try await BuiltBinary.run(arguments, environment: ["LD_DEBUG": "files"])
        // Lines such as "  12345:\tfile=libsqlite3.so.0 [0];  dynamically loaded by ...".
        let names = r.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " && $0 != "\t" && $0 != ";" })
        }
        return (r.status, Set(names))
    }

    @Test(arguments: [["--version"], ["resolve", "--model", "SM-S921B", "--json"]])
    func aCommandWithoutAStoreLoadsNeitherSQLiteNorLibpq(_ arguments: [String]) async throws {
        let (status, libraries) = try await Self.loaded(arguments)
        #expect(status == 0)
        #expect(libraries.contains { $0.hasPrefix("libnfc") }, "the trace was read: \(libraries.sorted())")
        #expect(
            !libraries.contains { $0.hasPrefix("libsqlite3") || $0.hasPrefix("libpq") || $0.hasPrefix("libsodium") },
            "\(libraries.sorted())")
    }

    @Test func makingACatalogKeyLoadsLibsodium() async throws {
        let scratch = try TemporaryDirectory("library-loading")
        let (status, libraries) = try await Self.loaded(["catalog", "keygen", "-o", scratch.file("k")])
        #expect(status == 0)
        #expect(libraries.contains("libsodium.so.23"), "\(libraries.sorted())")
    }

    @Test func aCommandThatOpensTheStoreLoadsSQLite() async throws {
        let scratch = try TemporaryDirectory("library-loading")
        let db = scratch.file("bench.sqlite")
        let (status, libraries) = try await Self.loaded([
            "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid", "--tap-timeout", "0.1", "--db", db,
        ])
        #expect(status == 0)
        #expect(libraries.contains("libsqlite3.so.0"), "\(libraries.sorted())")
        #expect(!libraries.contains { $0.hasPrefix("libpq") }, "no lab store was named: \(libraries.sorted())")
        // What it stored reads back through the library it loaded.
        let listed = try await BuiltBinary.run(["sessions", "--db", db])
        #expect(listed.status == 0 && listed.stdout.contains("SM-S921B"), "\(listed.stdout)\(listed.stderr)")
    }
}
