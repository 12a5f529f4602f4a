import NFCBenchRecords
import NFCStore

/// Commands above the store tell a damaged file from a failing disk without knowing SQLite.
extension SQLiteError: FileDamageSignal {
    public var damageMessage: String { message }
}
