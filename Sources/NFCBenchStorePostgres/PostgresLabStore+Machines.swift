import Foundation
import NFCBenchRecords
import NFCPostgres

/// Which machines push as a station (migration 003). A station name names one bench; two
/// machines configured with the same one would pool their sessions, and their readers'
/// different reach, under one name that no report can pull apart again.
extension PostgresLabStore {
    /// Notes that `machine` pushes as `station` now.
    public func recordMachine(_ machine: String, station: String) throws {
        try connection.execute(
            "SELECT nfcbench_record_machine($1, $2)", [.text(station), .text(String(machine.prefix(255)))])
    }

    /// The machines other than `machine` that pushed as `station` in the last 30 days.
    public func otherMachines(of station: String, than machine: String) throws -> [StationMachine] {
        try otherMachines(of: station, than: machine, within: 30)
    }

    /// The machines other than `machine` that pushed as `station` within `days`, newest first.
    public func otherMachines(of station: String, than machine: String, within days: Int) throws -> [StationMachine] {
        let rows = try connection.execute(
            """
            SELECT machine, extract(epoch FROM last_push)::double precision FROM lab_station_machine
            WHERE station = $1 AND machine <> $2 AND last_push > now() - $3::int * interval '1 day'
            ORDER BY last_push DESC, machine
            """, [.text(station), .text(String(machine.prefix(255))), .integer(Int64(days))])
        return try (0..<rows.count).compactMap { row in
            guard let name = rows.text(row, 0), let epoch = try rows.real(row, 1) else { return nil }
            return StationMachine(machine: name, lastPush: Date(timeIntervalSince1970: epoch))
        }
    }
}
