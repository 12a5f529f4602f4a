import NFCBenchRecords
import NFCPostgres

/// Commands above the stores tell a busy or unreachable lab store (exit 75, try later)
/// from one that needs a fix without knowing libpq: `isTransient` is `PostgresError`'s own.
extension PostgresError: TransientFailure {}
