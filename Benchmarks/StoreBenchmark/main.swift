// Store benchmark, part 1 (bench/store runs part 2, the export, as whole processes):
// commit latency per tap through SQLiteBenchStore (WAL, synchronous=FULL), with NORMAL measured
// alongside on the same insert as the baseline; then, with `--fill PATH N`, a database of
// N taps for the export comparison.
import Foundation
import NFCBenchRecords
import NFCBenchStoreSQLite
import NFCLocatorCore
import NFCStore

func percentile(_ sorted: [Double], _ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }

let args = CommandLine.arguments
if args.count >= 4, args[1] == "--fill", let n = Int(args[3]) {
    // Taps per session (default 20, as a lab's would be); `bench/report` asks for 100.
    let perSession = args.count >= 5 ? Int(args[4]) ?? 20 : 20
    let store = try await SQLiteBenchStore.open(path: args[2])
    try await store.insert(
        SessionRecord(
            id: "S-bench", modelInput: "SM-S921B", lookupKey: "sm_s921b", displayName: "Galaxy S24",
            predicted: try NormalizedRect(x: 0.1, y: 0.36, width: 0.8, height: 0.38), confidence: .approximate,
            source: .seedCatalog, stale: true, catalogVersion: "seed", aspectRatio: 0.4803, reader: .sim, readerFirmware: nil,
            unit: "u1", operatorName: "bench", plan: .grid, repeats: 1, tapTimeout: 5,
            status: .completed, startedAt: Date(), endedAt: Date(), verdict: .shifted))
    let db = try SQLiteDatabase(path: args[2])
    // Copies of S-bench under new ids, spread over ten real catalog models. Copies carry
    // no row checksum (as rows from before migration 007), since their values changed.
    let info = try db.prepare("PRAGMA table_info(session)")
    var columns: [String] = []
    while try info.step() { columns.append(info.text(1)!) }
    let models = [
        ("iPhone15,2", "iphone15_2", "iPhone 14 Pro"), ("iPhone15,3", "iphone15_3", "iPhone 14 Pro Max"),
        ("iPhone14,7", "iphone14_7", "iPhone 14"), ("iPhone14,5", "iphone14_5", "iPhone 13"),
        ("SM-S911B", "sm_s911b", "Galaxy S23"), ("SM-S916B", "sm_s916b", "Galaxy S23+"),
        ("SM-S918B", "sm_s918b", "Galaxy S23 Ultra"), ("SM-G991B", "sm_g991b", "Galaxy S21"),
        ("SM-A546B", "sm_a546b", "Galaxy A54 5G"), ("SM-S921B", "sm_s921b", "Galaxy S24"),
    ]
    func pick(_ index: Int) -> String {
        "CASE k % 10 "
            + models.enumerated().map { i, m in
                "WHEN \(i) THEN '\([m.0, m.1, m.2][index])'"
            }.joined(separator: " ") + " END"
    }
    let copied = columns.map {
        switch $0 {
        case "id": "'S-bench-' || printf('%06d', k)"
        case "checksum": "NULL"
        case "model_input": pick(0)
        case "lookup_key": pick(1)
        case "display_name": pick(2)
        default: $0
        }
    }.joined(separator: ", ")
    try db.execute(
        """
        WITH RECURSIVE s(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM s WHERE k < \((n - 1) / perSession))
        INSERT INTO session (\(columns.joined(separator: ", "))) SELECT \(copied) FROM session, s WHERE id = 'S-bench';
        DELETE FROM session WHERE id = 'S-bench';
        """)
    try db.execute(
        """
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(n - 1))
        INSERT INTO tap (session_id, step, attempt, probe_x, probe_y, inside_predicted, result, latency_ms, technology,
                         uid, atqa, sak, ats, atr, timestamp)
        SELECT 'S-bench-' || printf('%06d', i / \(perSession)), i % \(perSession), 0, (i % 3) / 3.0 + 0.1667, (i % 5) / 5.0 + 0.1, i % 2, CASE WHEN i % 3 = 0 THEN 'HIT' ELSE 'MISS' END,
               CASE WHEN i % 3 = 0 THEN 42.5 END, CASE WHEN i % 3 = 0 THEN 'ISO14443A' END,
               CASE WHEN i % 3 = 0 THEN printf('08%06X', i % 16777216) END, '0004', '20', '78807002', '3B80800101',
               1764000000 + i FROM n
        """)
    print("filled \(n) taps")
    exit(0)
}

let dir = FileManager.default.temporaryDirectory.appendingPathComponent("store-bench-\(getpid())")
try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: dir) }
let taps = 2000

func tap(_ i: Int, session: String) -> TapRecord {
    TapRecord(
        sessionID: session, step: i, attempt: 0, probe: Probe(x: 0.5, y: 0.3), insidePredicted: true, result: .hit,
        latencyMs: 40, technology: "ISO14443A", uid: "08A1B2C3", atqa: "0004", sak: "20", ats: "78807002",
        timestamp: Date())
}

// The store as shipped: synchronous=FULL, on its own queue.
let store = try await SQLiteBenchStore.open(path: dir.appendingPathComponent("full.sqlite").path)
try await store.insert(
    SessionRecord(
        id: "S-1", modelInput: "m", lookupKey: "m", displayName: nil, predicted: nil, confidence: .unknown, source: .heuristic,
        stale: false, catalogVersion: nil, aspectRatio: 0.48, reader: .sim, readerFirmware: nil,
        unit: nil, operatorName: nil, plan: .grid, repeats: 1, tapTimeout: 5, startedAt: Date()))
var full: [Double] = []
for i in 0..<taps {
    let t = tap(i, session: "S-1")
    let start = ContinuousClock.now
    try await store.record(t)
    let d = ContinuousClock.now - start
    full.append(Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000)
}

// Baseline: the same insert with synchronous=NORMAL on a plain connection.
let normalPath = dir.appendingPathComponent("normal.sqlite").path
_ = try await SQLiteBenchStore.open(path: normalPath)  // same schema
let normalDB = try SQLiteDatabase(path: normalPath)
try normalDB.execute("PRAGMA synchronous=NORMAL")
try normalDB.execute(
    "INSERT INTO session (id, model_input, lookup_key, confidence, source, stale, aspect_ratio, reader_backend, reader_name, plan_kind, plan_json, repeats, tap_timeout, status, started_at) VALUES ('S-1','m','m','unknown','heuristic',0,0.48,'sim','sim','grid','[]',1,5,'in_progress',0)"
)
let insert = try normalDB.prepare(
    "INSERT INTO tap (session_id, step, attempt, probe_x, probe_y, inside_predicted, result, latency_ms, technology, uid, atqa, sak, ats, atr, timestamp) VALUES (?1, ?2, 0, 0.5, 0.3, 1, 'HIT', 40, 'ISO14443A', '08A1B2C3', '0004', '20', '78807002', NULL, ?3)"
)
var normal: [Double] = []
for i in 0..<taps {
    let start = ContinuousClock.now
    try insert.run([.text("S-1"), .integer(Int64(i)), .real(Date().timeIntervalSince1970)])
    let d = ContinuousClock.now - start
    normal.append(Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000)
}
full.sort()
normal.sort()
print(
    String(
        format: "commit per tap, store (WAL, synchronous=FULL): p50 %.3f ms, p99 %.3f ms", percentile(full, 0.5),
        percentile(full, 0.99)))
print(
    String(
        format: "baseline, same insert with synchronous=NORMAL:     p50 %.3f ms, p99 %.3f ms", percentile(normal, 0.5),
        percentile(normal, 0.99)))
print(String(format: "ratio FULL/NORMAL at p50: %.1fx", percentile(full, 0.5) / percentile(normal, 0.5)))
