import Foundation
import NFCBenchRecords
import NFCBenchStorePostgres
import NFCBenchStoreSQLite
import NFCBenchUseCases
import NFCLabTestSupport
import NFCPostgres
import NFCTestSupport
import Testing

@Suite(
    "Lab store (PostgreSQL)",
    .enabled(if: LabStoreServer.isAvailable, "needs the private PostgreSQL: run scripts/test.sh"))
struct LabStoreTests {
    let scratch = try! TemporaryDirectory()

    @Test func aPushedSessionReadsBackExactlyAndOnce() async throws {
        let lab = try await LabFixture(stations: ["bench-a"])
        let local = try await SQLiteBenchStore.open(path: scratch.database())
        let session = try await LabFixture.session("S-20261130-100000-aaaa", station: "bench-a", in: local)
        // The audit trail goes with the session, milliseconds and details intact.
        try await local.record(
            SessionEvent(
                sessionID: session.id, at: Date(timeIntervalSince1970: 1_790_000_000.125), kind: .started,
                details: ["positioner": "manual", "reader": "sim"]))
        try await local.record(
            SessionEvent(
                sessionID: session.id, at: Date(timeIntervalSince1970: 1_790_000_003.5), kind: .foreign, step: 2,
                details: ["responder": "a MIFARE Classic 1K card (UID 5A1B2C3D)", "reason": "no ISO-DEP", "uid": "5A1B2C3D"]))
        let store = try await PostgresLabStore.open(lab.benches["bench-a"]!)
        for _ in 0..<2 {  // a second sync finds nothing to push
            let report = await LabSync.run(from: local, to: store, station: "bench-a")
            #expect(report.succeeded, "\(String(describing: report.error))")
        }
        let reader = try await PostgresLabStore.open(lab.reader)
        let stored = try #require(try await reader.session("S-20261130-100000-aaaa"))
        #expect(stored == session)
        let taps = try await reader.taps("bench-a/S-20261130-100000-aaaa")
        let original = try await local.taps(session.id)
        #expect(taps.count == original.count && taps.count == 6)
        #expect(taps.map(\.probe.heightMm) == [0, 0, 0, 0, 0, 7.5])
        // The graded hits keep their coupling and the profiles tried (lab migration 010).
        #expect(!original.compactMap(\.coupling).isEmpty)
        #expect(taps.map(\.coupling) == original.map(\.coupling) && taps.map(\.couplingTried) == original.map(\.couplingTried))
        // And the ladder each grade is a share of (lab migration 011).
        #expect(taps.map(\.couplingLadder) == original.map(\.couplingLadder) && original.contains { $0.couplingLadder != nil })
        // Taps come back named by their session's reference; everything else is as recorded.
        #expect(
            taps.map {
                var t = $0; t.sessionID = session.id; return t
            } == original)
        #expect(try await reader.sessions().count == 1)
        #expect(try await local.pendingSync(lab: try await store.identity()).isEmpty)
        let events = try await reader.events("bench-a/S-20261130-100000-aaaa")
        #expect(
            events.map {
                var e = $0; e.sessionID = session.id; return e
            } == (try await local.events(session.id)))
        #expect(events.count == 2 && events[1].details["uid"] == "5A1B2C3D" && events[0].sequence == 0)
    }

    /// A change after a push (a void, an undo and a new tap) moves the session's revision
    /// on: the next sync replaces the lab's copy, still one copy.
    @Test func laterChangesUpdateTheLabCopy() async throws {
        let lab = try await LabFixture(stations: ["bench-a"])
        let local = try await SQLiteBenchStore.open(path: scratch.database())
        let session = try await LabFixture.session("S-20261130-100000-bbbb", station: "bench-a", in: local)
        let store = try await PostgresLabStore.open(lab.benches["bench-a"]!)
        #expect(await LabSync.run(from: local, to: store, station: "bench-a").pushed == ["bench-a/\(session.id)"])
        try await local.void(session.id, reason: "phone case left on", at: Date(timeIntervalSince1970: 1_790_000_100))
        _ = try await local.undoLastTap(session.id)
        let second = await LabSync.run(from: local, to: store, station: "bench-a")
        #expect(second.pushed.count == 1 && second.taps == 5)
        let stored = try #require(try await store.session(session.id))
        #expect(stored.voidReason == "phone case left on")
        #expect(try await store.taps(session.id).count == 5)
    }

    /// Row-level security: bench A's role can neither write nor change bench B's rows,
    /// through nfcbench or with SQL of its own; the reader role writes nothing.
    @Test func aBenchCannotChangeAnotherStationsRows() async throws {
        let lab = try await LabFixture(stations: ["bench-a", "bench-b"])
        let localB = try await SQLiteBenchStore.open(path: scratch.database())
        _ = try await LabFixture.session("S-20261130-100000-cccc", station: "bench-b", in: localB)
        let storeB = try await PostgresLabStore.open(lab.benches["bench-b"]!)
        #expect(await LabSync.run(from: localB, to: storeB, station: "bench-b").succeeded)

        // Bench A pushing a session recorded as bench B's is refused, naming the station.
        let localA = try await SQLiteBenchStore.open(path: scratch.database())
        _ = try await LabFixture.session("S-20261130-100001-dddd", station: "bench-b", in: localA)
        let storeA = try await PostgresLabStore.open(lab.benches["bench-a"]!)
        let refused = await LabSync.run(from: localA, to: storeA, station: "bench-a")
        #expect("\(refused.error.map { "\($0)" } ?? "")".contains("station 'bench-b' is not registered"))
        #expect(refused.pending == 1)

        // Bench A's role with SQL of its own: it may write no table directly (migration 005),
        // nor take the locks that stalled every other bench, nor push as B through the function.
        let a = try PostgresConnection(lab.benches["bench-a"]!)
        for sql in [
            "UPDATE lab_session SET verdict = 'SHIFTED' WHERE station = 'bench-b'",
            "DELETE FROM lab_tap WHERE station = 'bench-b'",
            "DELETE FROM lab_session", "LOCK TABLE lab_session IN ACCESS EXCLUSIVE MODE", "LOCK TABLE lab_tap IN EXCLUSIVE MODE",
            "SELECT * FROM lab_session FOR UPDATE", "TRUNCATE lab_tap",
            "SELECT nfcbench_push('bench-b', '{\"station\": \"bench-b\", \"id\": \"S-x\"}'::jsonb, '[]'::jsonb)",
            "SELECT nfcbench_push('bench-a', '{\"station\": \"bench-b\", \"id\": \"S-x\"}'::jsonb, '[]'::jsonb)",
            "SELECT nfcbench_record_machine('bench-b', 'evil')",
        ] {
            do {
                try a.execute("BEGIN")
                defer { _ = try? a.execute("ROLLBACK") }
                try a.execute(sql)
                Issue.record("bench A ran: \(sql)")
            } catch { #expect(error.isPermissionDenied, "\(sql): \(error)") }
        }
        #expect(throws: PostgresError.self) {
            try a.execute("INSERT INTO lab_station (name, role) VALUES ('bench-c', current_user)")
        }
        let reader = try PostgresConnection(lab.reader)
        do {
            try reader.execute("DELETE FROM lab_session")
            Issue.record("the reader role deleted rows")
        } catch { #expect(error.isPermissionDenied) }
        let still = try await PostgresLabStore.open(lab.reader)
        #expect(try await still.session("bench-b/S-20261130-100000-cccc")?.verdict == .confirmed)
        #expect(try await still.taps("bench-b/S-20261130-100000-cccc").count == 6)
    }

    /// A bench's role writing its own rows by hand can still not store a value no reader
    /// accepts (migration 004's CHECK constraints mirror StoredRanges): the issue's NaN tap
    /// made every export of the lab refuse.
    @Test func theLabTablesRefuseValuesNoReaderAccepts() async throws {
        let lab = try await LabFixture(stations: ["bench-n"])
        let local = try await SQLiteBenchStore.open(path: scratch.database())
        _ = try await LabFixture.session("S-20261130-100000-nnnn", station: "bench-n", in: local)
        let store = try await PostgresLabStore.open(lab.benches["bench-n"]!)
        #expect(await LabSync.run(from: local, to: store, station: "bench-n").succeeded)
        // Even the lab's owner cannot store them by hand; a bench pushing them through its
        // function is refused the same way.
        let admin = try PostgresConnection(lab.admin)
        func tap(probeX: String, latency: String) -> String {
            "INSERT INTO lab_tap (station, session_id, step, attempt, probe_x, probe_y, inside_predicted, result, latency_ms, "
                + "timestamp) VALUES ('bench-n', 'S-20261130-100000-nnnn', 99, 0, \(probeX), 0.5, false, 'MISS', \(latency), "
                + "1790000000)"
        }
        for (sql, constraint) in [
            (tap(probeX: "'NaN'", latency: "NULL"), "lab_tap_probe_range"),
            (tap(probeX: "0.5", latency: "'Infinity'"), "lab_tap_latency_ms_range"),
            ("UPDATE lab_session SET body_height_mm = 5000 WHERE station = 'bench-n'", "lab_session_body_height_mm_range"),
            ("UPDATE lab_session SET zone_x = -0.5 WHERE station = 'bench-n'", "lab_session_zone_range"),
        ] {
            do {
                try admin.execute(sql)
                Issue.record("stored: \(sql)")
            } catch {
                #expect(error.sqlState == "23514" && error.message.contains(constraint), "\(sql): \(error)")
            }
        }
        let bench = try PostgresConnection(lab.benches["bench-n"]!)
        let session = try #require(try admin.execute("SELECT to_jsonb(s) FROM lab_session s").text(0, 0))
        let bumped = session.replacingOccurrences(of: "\"revision\": ", with: "\"revision\": 9")
        let nanTap =
            "[{\"station\": \"bench-n\", \"session_id\": \"S-20261130-100000-nnnn\", \"step\": 0, \"attempt\": 0, "
            + "\"probe_x\": \"NaN\", \"probe_y\": 0.5, \"inside_predicted\": false, \"result\": \"MISS\", \"timestamp\": 1790000000}]"
        do {
            try bench.execute("SELECT nfcbench_push('bench-n', $1::jsonb, $2::jsonb)", [.text(bumped), .text(nanTap)])
            Issue.record("a NaN tap was pushed")
        } catch {
            #expect(error.sqlState == "23514" && error.message.contains("lab_tap_probe_range"), "\(error)")
        }
        let reader = try await PostgresLabStore.open(lab.reader)
        #expect(try await reader.taps("bench-n/S-20261130-100000-nnnn").count == 6)
    }

    /// Two machines pushing as one station (two benches given the same name) are seen by
    /// each other's sync; a bench cannot claim a machine for another station.
    @Test func twoMachinesUnderOneStationAreSeen() async throws {
        let lab = try await LabFixture(stations: ["bench-a", "bench-b"])
        let store = try await PostgresLabStore.open(lab.benches["bench-a"]!)
        let first = try await SQLiteBenchStore.open(path: scratch.database())
        _ = try await LabFixture.session("S-20261130-100000-m001", station: "bench-a", in: first)
        let alone = await LabSync.run(from: first, to: store, station: "bench-a", machine: "lab-pc-1 (0a1b2c3d)")
        #expect(alone.succeeded && alone.sharedWith.isEmpty, "\(String(describing: alone.error))")
        let second = try await SQLiteBenchStore.open(path: scratch.database())
        _ = try await LabFixture.session("S-20261130-110000-m002", station: "bench-a", in: second)
        let shared = await LabSync.run(from: second, to: store, station: "bench-a", machine: "lab-pc-2 (4e5f6a7b)")
        #expect(shared.succeeded && shared.sharedWith.map(\.machine) == ["lab-pc-1 (0a1b2c3d)"])
        #expect(abs(try #require(shared.sharedWith.first).lastPush.timeIntervalSinceNow) < 120)
        // The first machine's next sync (nothing to push) sees the second.
        let again = await LabSync.run(from: first, to: store, station: "bench-a", machine: "lab-pc-1 (0a1b2c3d)")
        #expect(again.pushed.isEmpty && again.sharedWith.map(\.machine) == ["lab-pc-2 (4e5f6a7b)"])
        // Another station's machines are not this one's business, and not its to write.
        let storeB = try await PostgresLabStore.open(lab.benches["bench-b"]!)
        #expect(try await storeB.otherMachines(of: "bench-b", than: "x").isEmpty)
        await #expect(throws: PostgresError.self) { try await storeB.recordMachine("intruder", station: "bench-a") }
    }

    /// Two stations may hold the same session id: both are kept, a bare id that names
    /// both is refused with the stations, and `STATION/ID` names each.
    @Test func theSameIdOnTwoStationsStaysTwoSessions() async throws {
        let lab = try await LabFixture(stations: ["bench-a", "bench-b"])
        for station in ["bench-a", "bench-b"] {
            let local = try await SQLiteBenchStore.open(path: scratch.database())
            _ = try await LabFixture.session(
                "S-20261130-100000-eeee", station: station, in: local, taps: station == "bench-a" ? 3 : 4)
            let store = try await PostgresLabStore.open(lab.benches[station]!)
            #expect(await LabSync.run(from: local, to: store, station: station).succeeded)
        }
        let reader = try await PostgresLabStore.open(lab.reader)
        await #expect(throws: LabStoreError.self) { try await reader.session("S-20261130-100000-eeee") }
        #expect(try await reader.taps("bench-a/S-20261130-100000-eeee").count == 3)
        #expect(try await reader.taps("bench-b/S-20261130-100000-eeee").count == 4)
        let batches = try await reader.tapBatches(sessions: ["bench-b/S-20261130-100000-eeee"])
        #expect(try await batches.next().count == 4)
        // Same id and start time on both: pages of one still list each once, in station order.
        let first = try await reader.sessions(after: nil, limit: 1, lookupKeys: nil)
        let second = try await reader.sessions(after: SessionCursor(after: first[0]), limit: 1, lookupKeys: nil)
        let third = try await reader.sessions(after: SessionCursor(after: second[0]), limit: 1, lookupKeys: nil)
        #expect(first.map(\.station) == ["bench-a"] && second.map(\.station) == ["bench-b"] && third.isEmpty)
    }

    /// A different session under a station and id the lab store already holds (a bench's
    /// database replaced under the same station name) is refused, never overwritten.
    @Test func anotherSessionUnderTheSameIdIsNeverOverwritten() async throws {
        let lab = try await LabFixture(stations: ["bench-a"])
        let store = try await PostgresLabStore.open(lab.benches["bench-a"]!)
        let first = try await SQLiteBenchStore.open(path: scratch.database())
        _ = try await LabFixture.session("S-20261130-100000-same", station: "bench-a", in: first)
        #expect(await LabSync.run(from: first, to: store, station: "bench-a").succeeded)
        let replaced = try await SQLiteBenchStore.open(path: scratch.database())
        _ = try await LabFixture.session(
            "S-20261130-100000-same", station: "bench-a", in: replaced, taps: 2, start: Date(timeIntervalSince1970: 1_800_000_000)
        )
        let refused = await LabSync.run(from: replaced, to: store, station: "bench-a")
        // Set aside with the store's reason, never pushed over the one already there.
        #expect(refused.error == nil && refused.setAside.first?.reason.contains("already holds another session") == true)
        #expect(try await store.taps("bench-a/S-20261130-100000-same").count == 6)
    }

    /// Benches migrating a fresh lab store at once: every one succeeds and each migration
    /// is applied exactly once (the advisory lock).
    @Test func racingMigrationsApplyOnce() async throws {
        let database = try LabStoreServer.freshDatabase()
        let url = LabStoreServer.url(database: database)
        try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<6 { group.addTask { try await PostgresLabStore.open(url, migrate: true).appliedMigrations() } }
            for try await applied in group {
                #expect(
                    applied == [
                        "001-lab-sessions", "002-tag-mode", "003-station-machines", "004-stored-ranges", "005-push-functions",
                        "006-placement-and-events", "007-phone-details", "008-reader-serial", "009-tap-height",
                        "010-tap-coupling", "011-tap-coupling-ladder", "012-definer-search-path",
                        "013-operator-text-bounds", "014-reader-geometry", "015-bench-conditions",
                    ])
            }
        }
        let c = try PostgresConnection(url)
        #expect(try c.execute("SELECT count(*) FROM lab_schema_migration").integer(0, 0) == 15)
        #expect(try c.execute("SELECT count(*) FROM lab_identity").integer(0, 0) == 1)
    }

    /// A lab store set up by a newer nfcbench, or not set up at all, is refused with what to do.
    @Test func unknownOrMissingSchemaIsRefused() async throws {
        let database = try LabStoreServer.freshDatabase()
        let url = LabStoreServer.url(database: database)
        await #expect { try await PostgresLabStore.open(url) } throws: { "\($0)".contains("nfcbench labstore migrate") }
        _ = try await PostgresLabStore.open(url, migrate: true)
        try LabStoreServer.admin(database, "INSERT INTO lab_schema_migration (id) VALUES ('999-from-the-future')")
        await #expect { try await PostgresLabStore.open(url) } throws: { "\($0)".contains("newer nfcbench") }
    }

    /// The lab store down: the sync fails with a message naming where, keeps everything
    /// local, never shows the password, and a later sync pushes it all.
    @Test func aStoreThatIsDownKeepsEverythingLocal() async throws {
        let lab = try await LabFixture(stations: ["bench-a"])
        let local = try await SQLiteBenchStore.open(path: scratch.database())
        _ = try await LabFixture.session("S-20261130-100000-ffff", station: "bench-a", in: local)
        var down = lab.benches["bench-a"]!.replacingOccurrences(of: "port=", with: "port=1")  // nothing listens there
        down = down.replacingOccurrences(of: "host=127.0.0.1", with: "host=127.0.0.1 connect_timeout=2")
        do {
            _ = try await PostgresLabStore.open(down)
            Issue.record("connected to a port where nothing listens")
        } catch let error as PostgresError {
            #expect(error.kind == .connection && error.isTransient)
            let password = down.split(separator: " ").first { $0.hasPrefix("password=") }!.dropFirst(9)
            #expect(!"\(error)".contains(password) && "\(error)".contains("127.0.0.1"))
        }
        let store = try await PostgresLabStore.open(lab.benches["bench-a"]!)
        #expect(try await local.pendingSync(lab: try await store.identity()).count == 1)
        #expect(await LabSync.run(from: local, to: store, station: "bench-a").pushed.count == 1)
    }

    /// Issue 49, F1: a session the lab store refuses (a reader serial past its bound, as a
    /// hostile or broken USB device could give) is set aside with the store's reason, named
    /// again at every sync, and never blocks the sessions after it; once mended it is pushed.
    @Test func aRefusedSessionIsSetAsideAndTheRestArePushed() async throws {
        let lab = try await LabFixture(stations: ["bench-f"])
        let local = try await SQLiteBenchStore.open(path: scratch.database())
        let refused = try await LabFixture.session(
            "S-20261206-090000-long", station: "bench-f", in: local, start: Date(timeIntervalSince1970: 1_790_000_000))
        try await local.setReaderDetails(refused.id, firmware: String?.none, serial: String(repeating: "9", count: 1500))
        let fine = try await LabFixture.session(
            "S-20261206-100000-fine", station: "bench-f", in: local, start: Date(timeIntervalSince1970: 1_790_000_100))
        let store = try await PostgresLabStore.open(lab.benches["bench-f"]!)
        let first = await LabSync.run(from: local, to: store, station: "bench-f")
        #expect(first.error == nil, "\(String(describing: first.error))")
        #expect(first.pushed == ["bench-f/\(fine.id)"] && !first.succeeded)
        #expect(
            first.setAside.map(\.id) == [refused.id] && first.setAside[0].reason.contains("reader_serial"), "\(first.setAside)")
        let identity = try await store.identity()
        #expect(try await local.refusedSync(lab: identity).map(\.id) == [refused.id])
        // Named again, the rest not pushed twice.
        let second = await LabSync.run(from: local, to: store, station: "bench-f")
        #expect(second.pushed.isEmpty && second.setAside.map(\.id) == [refused.id])
        // Mended, it goes, and the refusal is forgotten.
        try await local.setReaderDetails(refused.id, firmware: String?.none, serial: "RR174-002117")
        let third = await LabSync.run(from: local, to: store, station: "bench-f")
        #expect(third.succeeded && third.pushed == ["bench-f/\(refused.id)"], "\(third.setAside)")
        #expect(try await local.refusedSync(lab: identity).isEmpty)
    }

    /// A refused session the lab will never take is held back by decision: the sync then
    /// succeeds and names it, only a refused session can be held, and a release offers it again.
    @Test func aRefusedSessionHeldBackByDecisionNoLongerFailsTheSync() async throws {
        let lab = try await LabFixture(stations: ["bench-h"])
        let local = try await SQLiteBenchStore.open(path: scratch.database())
        let refused = try await LabFixture.session(
            "S-20261206-090000-hold", station: "bench-h", in: local, start: Date(timeIntervalSince1970: 1_790_000_000))
        try await local.setReaderDetails(refused.id, firmware: String?.none, serial: String(repeating: "9", count: 1500))
        let fine = try await LabFixture.session(
            "S-20261206-100000-hold", station: "bench-h", in: local, start: Date(timeIntervalSince1970: 1_790_000_100))
        let store = try await PostgresLabStore.open(lab.benches["bench-h"]!)
        let first = await LabSync.run(from: local, to: store, station: "bench-h")
        #expect(first.setAside.map(\.id) == [refused.id] && first.pushed == ["bench-h/\(fine.id)"])
        // A session the lab store took cannot be held back from it; nothing is pushed then.
        try await local.setTapTimeout(fine.id, seconds: 4)
        let wrong = await LabSync.run(
            from: local, to: store, station: "bench-h", decisions: SyncDecisions(hold: [(fine.id, "tidy")]))
        #expect(wrong.error as? SyncDecisionRefusal == .notRefused(fine.id) && wrong.pushed.isEmpty)
        let at = Date(timeIntervalSince1970: 1_790_000_500)
        let held = await LabSync.run(
            from: local, to: store, station: "bench-h", decisions: SyncDecisions(hold: [(refused.id, "serial garbled")]),
            now: { at })
        #expect(held.succeeded && held.newlyHeld == [refused.id] && held.pushed == ["bench-h/\(fine.id)"], "\(held)")
        let identity = try await store.identity()
        #expect(
            held.held == [HeldSync(id: refused.id, reason: "serial garbled", refusal: first.setAside[0].reason, heldAt: at)])
        #expect(try await local.refusedSync(lab: identity).isEmpty)
        let again = await LabSync.run(from: local, to: store, station: "bench-h")
        #expect(again.succeeded && again.setAside.isEmpty && again.held.map(\.id) == [refused.id])
        // Released, it is offered again and refused again.
        let released = await LabSync.run(
            from: local, to: store, station: "bench-h", decisions: SyncDecisions(release: [refused.id]))
        #expect(released.released == [refused.id] && released.held.isEmpty && released.setAside.map(\.id) == [refused.id])
        let twice = await LabSync.run(
            from: local, to: store, station: "bench-h", decisions: SyncDecisions(release: [refused.id]))
        #expect(twice.error as? SyncDecisionRefusal == .notHeld(refused.id))
    }
}
