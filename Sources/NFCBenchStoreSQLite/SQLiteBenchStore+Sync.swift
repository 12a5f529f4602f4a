import Foundation
import NFCBenchRecords
import NFCStore

/// The bench database's side of the lab store's sync (migration 008: `session_change`
/// revisions kept by triggers, `lab_sync` receipts per lab store).
extension SQLiteBenchStore: LabSyncSource {
    public func pendingSync(lab: String) throws -> [PendingSync] {
        // A read-only open of a file from before migration 019 has no holds.
        let holds = try hasTable("lab_sync_hold")
        let statement = try database.prepare(
            """
            SELECT s.id, c.revision FROM session s JOIN session_change c ON c.session_id = s.id
            LEFT JOIN lab_sync l ON l.session_id = s.id AND l.lab = ?1
            WHERE (l.revision IS NULL OR l.revision < c.revision)
            """
                + (holds ? " AND NOT EXISTS (SELECT 1 FROM lab_sync_hold h WHERE h.session_id = s.id AND h.lab = ?1)" : "")
                + " ORDER BY s.started_at, s.id")
        try statement.bind([.text(lab)])
        var out: [PendingSync] = []
        while try statement.step() { out.append(PendingSync(id: statement.text(0) ?? "", revision: statement.int(1))) }
        return out
    }

    private func hasTable(_ name: String) throws -> Bool {
        let exists = try database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1")
        try exists.bind([.text(name)])
        return try exists.step()
    }

    public func syncSnapshot(_ id: String) throws -> SyncSnapshot? {
        try database.transaction {
            guard let session = try session(id) else { return nil }
            let revision = try database.prepare("SELECT revision FROM session_change WHERE session_id = ?1")
            try revision.bind([.text(session.id)])
            guard try revision.step() else { return nil }
            let value = revision.int(0)
            return SyncSnapshot(
                session: session, taps: try taps(session.reference), events: try events(session.id), revision: value)
        }
    }

    public func markSynced(_ id: String, lab: String, revision: Int64, at: Date) throws {
        try database.prepare(
            """
            INSERT INTO lab_sync (session_id, lab, revision, pushed_at) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (session_id, lab) DO UPDATE SET revision = max(revision, excluded.revision),
                pushed_at = excluded.pushed_at
            """
        ).run([.text(id), .text(lab), .integer(revision), .real(at.timeIntervalSince1970)])
        try database.prepare("DELETE FROM lab_sync_refusal WHERE session_id = ?1 AND lab = ?2").run([.text(id), .text(lab)])
    }

    public func markRefused(_ id: String, lab: String, revision: Int64, reason: String, at: Date) throws {
        try database.prepare(
            """
            INSERT INTO lab_sync_refusal (session_id, lab, revision, reason, refused_at) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (session_id, lab) DO UPDATE SET revision = excluded.revision, reason = excluded.reason,
                refused_at = excluded.refused_at
            """
        ).run([.text(id), .text(lab), .integer(revision), .text(reason), .real(at.timeIntervalSince1970)])
    }

    /// Read-only opens of a file from before migration 017 have no refusals to show.
    public func refusedSync(lab: String) throws -> [RefusedSync] {
        guard try hasTable("lab_sync_refusal") else { return [] }
        let statement = try database.prepare(
            """
            SELECT r.session_id, r.revision, r.reason FROM lab_sync_refusal r JOIN session s ON s.id = r.session_id
            WHERE r.lab = ?1 ORDER BY s.started_at, s.id
            """)
        try statement.bind([.text(lab)])
        var out: [RefusedSync] = []
        while try statement.step() {
            out.append(RefusedSync(id: statement.text(0) ?? "", revision: statement.int(1), reason: statement.text(2) ?? ""))
        }
        return out
    }

    public func hold(_ id: String, lab: String, reason: String, at: Date) throws -> Bool {
        if let problem = StoredText.problem(reason) { throw StoredText.refusal(column: "lab_sync_hold.reason", row: id, problem) }
        return try database.transaction {
            let refused = try database.prepare("SELECT reason FROM lab_sync_refusal WHERE session_id = ?1 AND lab = ?2")
            try refused.bind([.text(id), .text(lab)])
            guard try refused.step() else { return false }
            let refusal = refused.text(0) ?? ""
            try database.prepare(
                """
                INSERT INTO lab_sync_hold (session_id, lab, reason, refusal, held_at) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (session_id, lab) DO UPDATE SET reason = excluded.reason, refusal = excluded.refusal,
                    held_at = excluded.held_at
                """
            ).run([.text(id), .text(lab), .text(reason), .text(refusal), .real(at.timeIntervalSince1970)])
            try database.prepare("DELETE FROM lab_sync_refusal WHERE session_id = ?1 AND lab = ?2").run([.text(id), .text(lab)])
            return true
        }
    }

    public func release(_ id: String, lab: String) throws -> Bool {
        try database.transaction {
            let held = try database.prepare("SELECT 1 FROM lab_sync_hold WHERE session_id = ?1 AND lab = ?2")
            try held.bind([.text(id), .text(lab)])
            guard try held.step() else { return false }
            try database.prepare("DELETE FROM lab_sync_hold WHERE session_id = ?1 AND lab = ?2").run([.text(id), .text(lab)])
            return true
        }
    }

    /// Read-only opens of a file from before migration 019 have no holds to show.
    public func heldSync(lab: String) throws -> [HeldSync] {
        guard try hasTable("lab_sync_hold") else { return [] }
        let statement = try database.prepare(
            """
            SELECT h.session_id, h.reason, h.refusal, h.held_at FROM lab_sync_hold h JOIN session s ON s.id = h.session_id
            WHERE h.lab = ?1 ORDER BY s.started_at, s.id
            """)
        try statement.bind([.text(lab)])
        var out: [HeldSync] = []
        while try statement.step() {
            out.append(
                HeldSync(
                    id: statement.text(0) ?? "", reason: statement.text(1) ?? "", refusal: statement.text(2) ?? "",
                    heldAt: Date(timeIntervalSince1970: statement.double(3))))
        }
        return out
    }
}
