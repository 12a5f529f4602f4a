// Publication benchmark's fixtures (bench/publish times the commands as whole processes):
//   --fill DB CATALOG ENTRIES SESSIONS
//       a synthetic catalog of ENTRIES phones (the Galaxy S24's published body under new
//       identifiers) and a bench database with SESSIONS bench sessions per entry, on two
//       units and two readers (20 and 40 mm), each a 5 x 7 raster whose reads come from the
//       physics of two loops around a 40 x 30 mm coil, graded as `run --coupling` grades;
//       two sessions are recorded through the store and the rest copied from them in SQL.
//   --extra DB ENTRY
//       one more session for entry ENTRY, a dense 10 x 21 raster ending a day later: new
//       evidence, so the next publish refits that entry's coil and signs a new version.
//   --previous DB CATALOG KEY DIR
//       version 1 in DIR as if every entry had been published from exactly these sessions,
//       signed with KEY: the next publish then refits nothing, which is what it costs a lab
//       to publish when little changed.
import Foundation
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCCatalogRemote
import NFCLocatorCore
import NFCPhysics
import NFCReaders
import NFCStore

let arguments = CommandLine.arguments
let bodyWidth = 70.6, bodyHeight = 147.0
let coil = RectangularLoop(centreX: 35.3, centreY: 45, widthMm: 40, heightMm: 30, turns: 4, pitchMm: 0.6)
let start = Date(timeIntervalSince1970: 1_790_000_000)

func model(_ e: Int) -> String { String(format: "SM-T%06d", e) }
func sessionID(_ e: Int, _ j: Int) -> String { String(format: "P-%06d-%d", e, j) }

func catalog(entries: Int) throws -> CatalogResponseDTO {
    let seed = try CatalogDocumentDecoder.load(contentsOf: URL(fileURLWithPath: "Resources/seed_catalog.json"))
    let s24 = seed.entries.first { $0.modelIdentifier == "SM-S921B" }!
    return CatalogResponseDTO(
        version: "publish-bench-\(entries)",
        entries: (0..<entries).map { e in
            var entry = s24
            entry.modelIdentifier = model(e)
            entry.displayName = "Test phone \(e)"
            return entry
        })
}

/// One session through the store, a raster of `columns` x `rows`: reads by the physics.
func record(
    _ store: SQLiteBenchStore, id: String, model: String = "SM-S921B", antennaMm: Double, unit: String,
    columns: Int = 5, rows: Int = 7, at start: Date = start
) async throws {
    var session = SessionRecord(
        id: id, modelInput: model, lookupKey: CatalogKey.normalize(model), displayName: "Galaxy S24",
        predicted: try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38), confidence: .approximate,
        source: .seedCatalog, stale: false, catalogVersion: "seed", aspectRatio: 0.4803, reader: .sim,
        readerFirmware: "PN532 v1.6", unit: unit, operatorName: "bench", plan: .raster, repeats: 1, tapTimeout: 2,
        startedAt: start, bodyHeightMm: bodyHeight, simulated: false)
    session.readerGeometry = ReaderGeometry(antennaWidthMm: antennaMm, antennaHeightMm: antennaMm, gapMm: 3, source: "option")
    try await store.insert(session)
    let physics = BenchPhysics(
        reader: ReaderAntenna(widthMm: antennaMm, heightMm: antennaMm), coil: coil, gapMm: 3, readHeightMm: 18)
    let ladder = CouplingLadder.standard
    var step = 0
    let (dx, dy) = (bodyWidth / Double(columns), bodyHeight / Double(rows))
    for row in 0..<rows {
        for column in 0..<columns {
            let x = dx / 2 + dx * Double(column), y = dy / 2 + dy * Double(row)
            let hit = physics.answers(strength: 1, readerAtX: x, y: y)
            let weakest = ladder.profiles.indices.first {
                physics.answers(strength: 1 - ladder.profiles[$0].threshold, readerAtX: x, y: y)
            }
            let coupling = hit ? weakest.map { ladder.coupling(weakestRead: $0) } : nil
            try await store.record(
                TapRecord(
                    sessionID: id, step: step, attempt: 0, probe: Probe(x: x / bodyWidth, y: y / bodyHeight),
                    insidePredicted: false, result: hit ? .hit : .miss, latencyMs: hit ? 40 : nil,
                    technology: hit ? "ISO14443A" : nil, uid: hit ? "08A1B2C3" : nil,
                    timestamp: start.addingTimeInterval(Double(step)), coupling: coupling,
                    couplingTried: coupling == nil ? nil : "bench", couplingLadder: coupling == nil ? nil : ladder.name))
            step += 1
        }
    }
    try await store.finish(
        id, status: .completed, at: start.addingTimeInterval(60), verdict: .shifted, verdictReason: "bench", measured: nil,
        iou: nil)
}

func columns(_ db: SQLiteDatabase, _ table: String) throws -> [String] {
    let info = try db.prepare("PRAGMA table_info(\(table))")
    var names: [String] = []
    while try info.step() { names.append(info.text(1)!) }
    return names
}

if arguments.count == 6, arguments[1] == "--fill", let entries = Int(arguments[4]), let sessions = Int(arguments[5]) {
    let (path, catalogPath) = (arguments[2], arguments[3])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    try encoder.encode(try catalog(entries: entries)).write(to: URL(fileURLWithPath: catalogPath))
    let store = try await SQLiteBenchStore.open(path: path)
    try await record(store, id: "T0", antennaMm: 20, unit: "unit-A")
    try await record(store, id: "T1", antennaMm: 40, unit: "unit-B")
    let db = try SQLiteDatabase(path: path)
    let sessionColumns = try columns(db, "session"), tapColumns = try columns(db, "tap")
    // Session (e, j) copies template j % 2, under entry e's model, ending a second after the last.
    let copiedSession = sessionColumns.map { name -> String in
        switch name {
        case "id": "printf('P-%06d-%d', e, j)"
        case "checksum": "NULL"
        case "model_input": "printf('SM-T%06d', e)"
        case "lookup_key": "printf('sm_t%06d', e)"
        case "display_name": "'Test phone ' || e"
        case "started_at": "started_at + e * 100 + j"
        case "ended_at": "ended_at + e * 100 + j"
        default: name
        }
    }.joined(separator: ", ")
    let copiedTap = tapColumns.map { name -> String in
        switch name {
        case "session_id": "printf('P-%06d-%d', e, j)"
        case "checksum": "NULL"
        default: name
        }
    }.joined(separator: ", ")
    try db.execute(
        """
        CREATE TEMP TABLE pairs AS
            WITH RECURSIVE es(e) AS (SELECT 0 UNION ALL SELECT e + 1 FROM es WHERE e < \(entries - 1)),
                 js(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM js WHERE j < \(sessions - 1))
            SELECT e, j FROM es, js;
        INSERT INTO session (\(sessionColumns.joined(separator: ", ")))
            SELECT \(copiedSession) FROM session JOIN pairs ON session.id = 'T' || (j % 2);
        INSERT INTO tap (\(tapColumns.joined(separator: ", ")))
            SELECT \(copiedTap) FROM tap JOIN pairs ON tap.session_id = 'T' || (j % 2);
        DELETE FROM tap WHERE session_id IN ('T0', 'T1');
        DELETE FROM session WHERE id IN ('T0', 'T1');
        """)
    print("filled \(entries) entries x \(sessions) sessions, \(entries * sessions * 35) taps")
    exit(0)
}

if arguments.count == 4, arguments[1] == "--extra", let entry = Int(arguments[3]) {
    let store = try await SQLiteBenchStore.open(path: arguments[2])
    try await record(
        store, id: sessionID(entry, 99), model: model(entry), antennaMm: 40, unit: "unit-C", columns: 10, rows: 21,
        at: start.addingTimeInterval(86_400 * 30))
    print("one dense session more for \(model(entry))")
    exit(0)
}

if arguments.count == 6, arguments[1] == "--previous" {
    let (path, catalogPath, keyPath, folder) = (arguments[2], arguments[3], arguments[4], arguments[5])
    let key = try MinisignSecretKey(text: String(contentsOfFile: keyPath, encoding: .utf8))
    var document = try CatalogDocumentDecoder.load(contentsOf: URL(fileURLWithPath: catalogPath))
    let db = try SQLiteDatabase(path: path)
    let sessionsPerEntry = try db.prepare("SELECT count(*) FROM session WHERE model_input = 'SM-T000000'")
    _ = try sessionsPerEntry.step()
    let sessions = Int(sessionsPerEntry.int(0))
    let interval = CatalogIntervalDTO(value: 35, low: 34, high: 36)
    document.entries = document.entries.enumerated().map { e, entry in
        var entry = entry
        entry.verified = true
        entry.provenance = CatalogProvenanceDTO(
            method: CatalogProvenanceDTO.benchRefined, sessions: sessions, units: 2,
            readerAntennas: [.init(widthMm: 20, heightMm: 20), .init(widthMm: 40, heightMm: 40)],
            coil: CatalogCoilDTO(centreXMm: interval, centreYMm: interval, widthMm: interval, heightMm: interval),
            lastSession: sessionID(e, sessions - 1))
        return entry
    }
    document.catalogVersion = 1
    document.version = "lab-1"
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let body = try encoder.encode(document) + Data("\n".utf8)
    let signature = try MinisignSignature.sign(body, with: key, trustedComment: "publish-bench version:1")
    try FileManager.default.createDirectory(atPath: folder + "/v1/versions/1", withIntermediateDirectories: true)
    for prefix in [folder + "/v1/", folder + "/v1/versions/1/"] {
        try body.write(to: URL(fileURLWithPath: prefix + "catalog"))
        try Data(signature.fileText.utf8).write(to: URL(fileURLWithPath: prefix + "catalog.minisig"))
    }
    print("version 1 of \(document.entries.count) entries in \(folder)")
    exit(0)
}

FileHandle.standardError.write(
    Data("usage: PublishBenchmark --fill DB CATALOG ENTRIES SESSIONS | --previous DB CATALOG KEY DIR\n".utf8))
exit(64)
