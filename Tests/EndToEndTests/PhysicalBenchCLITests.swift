import Foundation
import NFCTestSupport
import Testing

/// The virtual bench in the physical world (`sim serve --reader-antenna --coil`): the
/// emulated PN532, driven through libnfc, answers where two loops couple, and `show` fits
/// the coil in millimetres from a graded session, not the read region.
@Suite("The physical virtual bench through the CLI")
struct PhysicalBenchCLITests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("physical-bench") }

    @Test func aGradedSessionOnThePhysicalBenchFindsTheCoil() async throws {
        // A 40 x 30 mm coil centred 35 mm from the top of a Galaxy S24, a 40 mm reader, 3 mm apart.
        let served = try await ServedBench.start(
            registryIn: scratch, arguments: ["--reader-antenna", "40x40", "--gap-mm", "3", "--coil", "15.3,20,40,30"])
        defer { served.discard() }
        let db = scratch.file("bench.sqlite")
        let r = try await BuiltBinary.run(
            [
                "run", "--model", "SM-S921B", "--reader", "libnfc:pn532_uart:\(served.directory)/pn532", "--positioner", "sim",
                "--sim-bench", served.directory, "--auto", "--tap-timeout", "0.2", "--plan", "raster", "--step-mm", "10",
                "--coupling", "--reader-antenna", "40x40", "--gap-mm", "3", "--db", db, "--json", "--no-report",
            ], environment: served.environment)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let run = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let id = try #require(run["sessionId"] as? String)
        let shown = try await BuiltBinary.run(["show", id, "--db", db, "--json"], environment: served.environment)
        let o = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as! [String: Any]
        let coil = try #require((o["coil"] as? [String: Any])?["estimate"] as? [String: Any], "\(o["coil"] ?? "")")
        func value(_ key: String) throws -> Double { try #require((coil[key] as? [String: Any])?["value"] as? Double) }
        let (x, y, w, h) = (try value("centreXMm"), try value("centreYMm"), try value("widthMm"), try value("heightMm"))
        #expect(hypot(x - 35.3, y - 35) < 3, "centre \(x), \(y) mm")
        #expect(abs(w - 40) < 10 && abs(h - 30) < 10, "size \(w) x \(h) mm")
        // The read region the bench measured is larger than the coil: what the fit undoes.
        let measured = try #require(o["measuredZone"] as? [String: Any])
        let measuredHeightMm = try #require(measured["height"] as? Double) * 147
        #expect(measuredHeightMm > 30 * 1.2, "read region \(measuredHeightMm) mm tall")
        await served.stop()
    }

    /// A run that names no plan, on the virtual bench's emulated PN532 (whose antenna the
    /// session knows from the PN532 module's profile, the world `sim serve` runs), takes
    /// the coil plan and grades each read: it measures the coil in millimetres, not the read
    /// region. With `--no-coupling` the default is the adaptive plan: on binary taps alone
    /// the coil plan's likelihood can have two hills (docs/physics.md).
    @Test func aRunWithoutAPlanMeasuresTheCoilWhereTheReaderIsKnown() async throws {
        // A 40 x 30 mm coil centred 75 mm from the top of a Galaxy S24.
        let served = try await ServedBench.start(registryIn: scratch, arguments: ["--coil", "15.3,60,40,30", "--miss-rate", "0"])
        defer { served.discard() }
        for graded in [true, false] {
            let db = scratch.file("default-\(graded).sqlite")
            let r = try await BuiltBinary.run(
                [
                    "run", "--model", "SM-S921B", "--reader", "libnfc:pn532_uart:\(served.directory)/pn532", "--positioner",
                    "sim", "--sim-bench", served.directory, "--auto", "--tap-timeout", "0.2", "--db", db, "--json", "--no-report",
                ] + (graded ? [] : ["--no-coupling"]), environment: served.environment)
            #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
            let run = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let id = try #require(run["sessionId"] as? String)
            let shown = try await BuiltBinary.run(["show", id, "--db", db, "--json"], environment: served.environment)
            let o = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            #expect(o["plan"] as? String == (graded ? "coil" : "adaptive"))
            let geometry = try #require(o["readerGeometry"] as? [String: Any], "\(o)")
            #expect(geometry["antennaWidthMm"] as? Double == 35 && geometry["gapMm"] as? Double == 1.5, "\(geometry)")
            let taps = try #require(o["tapList"] as? [[String: Any]])
            let reads = taps.filter { $0["result"] as? String == "HIT" }
            // A walk the reader failed during leaves its read ungraded (docs/coupling.md): some, not all.
            let walked = taps.filter { $0["couplingTried"] is String }
            #expect(!reads.isEmpty && walked.isEmpty != graded, "\(reads.first ?? [:])")
            #expect(reads.contains { $0["coupling"] is Double } == graded, "\(reads.first ?? [:])")
            guard graded else { continue }
            let coil = try #require((o["coil"] as? [String: Any])?["estimate"] as? [String: Any], "\(o["coil"] ?? "")")
            func value(_ key: String) throws -> Double { try #require((coil[key] as? [String: Any])?["value"] as? Double) }
            let (x, y, w, h) = (try value("centreXMm"), try value("centreYMm"), try value("widthMm"), try value("heightMm"))
            #expect(hypot(x - 35.3, y - 75) < 3 && abs(w - 40) < 8 && abs(h - 30) < 8, "coil \(x), \(y), \(w) x \(h) mm")
        }
        await served.stop()
    }

    /// `sim serve` alone runs the two-loop world under the emulated PN532 module's antenna,
    /// the figures a session on its pty records; `--coupling-model linear` runs the first
    /// model, kept for comparison. Over a coil larger than the reader (a 56 x 59 mm coil, a
    /// 35 x 30 mm reader) two loops couple most near the coil's edge, not at its centre, and
    /// not at all over the edge itself (the null ring); the linear model peaks at the centre
    /// and still reads over the edge.
    @Test func theVirtualBenchCouplesAsTwoLoopsByDefault() async throws {
        for (arguments, world) in [([], "loops: reader 35 x 30 mm, gap 1.5 mm"), (["--coupling-model", "linear"], "linear")] {
            let served = try await ServedBench.start(
                registryIn: scratch, arguments: arguments + ["--antenna", "0.1,0.3,0.8,0.4", "--miss-rate", "0"])
            defer { served.discard() }
            func coupling(atY y: Double) async throws -> (coupling: Double, world: String?) {
                let placed = try await BuiltBinary.run(
                    ["sim", "ctl", "--dir", served.directory, "place", "0.5", "\(y)"], environment: served.environment)
                #expect(placed.status == 0, "\(placed.stderr)")
                let r = try await BuiltBinary.run(
                    ["sim", "ctl", "--dir", served.directory, "status"], environment: served.environment)
                let reply = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
                let status = try #require(reply["status"] as? [String: Any], "\(r.stdout)")
                return (try #require(status["coupling"] as? Double), status["world"] as? String)
            }
            let centre = try await coupling(atY: 0.5), nearEdge = try await coupling(atY: 0.4),
                edge = try await coupling(atY: 0.3)
            #expect(centre.world == world)
            if arguments.isEmpty {
                #expect(nearEdge.coupling > centre.coupling + 0.05, "centre \(centre), 15 mm inside the edge \(nearEdge)")
                #expect(edge.coupling == 0, "over the coil's edge: \(edge)")
            } else {
                #expect(
                    centre.coupling == 1 && nearEdge.coupling < centre.coupling && edge.coupling > 0,
                    "\(centre) \(nearEdge) \(edge)")
            }
            await served.stop()
        }
    }

    @Test(arguments: [
        ["--coil", "50,20,40,30"], ["--coil", "15,20,40"], ["--coil", "15,20,2,30"],
        ["--coupling-model", "linear", "--gap-mm", "3"], ["--coupling-model", "linear", "--rung-law", "1.5"],
        ["--coupling-model", "linear", "--reader-antenna", "40x40"], ["--coupling-model", "linear", "--coil", "15,20,40,30"],
        ["--coil", "15,20,40,30", "--antenna", "0.1,0.1,0.5,0.2"], ["--reader-antenna", "40x40", "--aspect-ratio", "0.5"],
        ["--aspect-ratio", "0.5"], ["--coupling-model", "linear", "--body", "70x150", "--aspect-ratio", "0.5"],
        ["--coupling-model", "loop"],
    ])
    func inconsistentWorldsAreRefused(arguments: [String]) async throws {
        let r = try await BuiltBinary.run(
            ["sim", "serve", "--dir", scratch.file("never")] + arguments,
            environment: ["NFCBENCH_STATE_DIR": scratch.file("state")])
        #expect(r.status == 64, "\(r.stdout)\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("never") + "/ready"))
    }
}
