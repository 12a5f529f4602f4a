import NFCBenchRecords
import NFCPostgres

/// Commands above the stores tell a busy or unreachable lab store (exit 75, try later)
/// from one that needs a fix without knowing libpq: `isTransient` is `PostgresError`'s own.
extension PostgresError: TransientFailure {}

/// A data exception (class 22) or an integrity violation (class 23) the lab store raised
/// on one session's push concerns that session's values alone.
extension PostgresError: SessionRefusal {
    public var refusesOnlyThisSession: Bool {
        kind == .statement && (sqlState?.hasPrefix("22") == true || sqlState?.hasPrefix("23") == true)
    }
}

extension LabStoreError: SessionRefusal {
    public var refusesOnlyThisSession: Bool {
        if case .idCollision = self { return true }
        return false
    }
}
