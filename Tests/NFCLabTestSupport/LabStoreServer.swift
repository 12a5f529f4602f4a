import Foundation
import NFCPostgres

/// The private PostgreSQL `scripts/test.sh` starts (loopback only, SCRAM passwords), and
/// a fresh lab database per test on it, so tests running in parallel never share rows.
public enum LabStoreServer {
    public static var isAvailable: Bool { ProcessInfo.processInfo.environment["NFCBENCH_TEST_PG"] != nil }

    /// The admin's connection settings, as test.sh exports them (`key=value` pairs).
    static var admin: [String: String] {
        var settings: [String: String] = [:]
        for pair in (ProcessInfo.processInfo.environment["NFCBENCH_TEST_PG"] ?? "").split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { settings[parts[0]] = parts[1] }
        }
        return settings
    }

    public static func connectionString(_ settings: [String: String]) -> String {
        settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    /// A connection string for `database` as `user` (the admin when `nil`).
    public static func url(database: String, user: String? = nil, password: String? = nil) -> String {
        var settings = admin
        settings["dbname"] = database
        if let user { settings["user"] = user; settings["password"] = password }
        return connectionString(settings)
    }

    /// Runs constant admin SQL on `database` (generated names only: no outside value).
    public static func admin(_ database: String, _ sql: String, _ values: [PostgresValue] = []) throws {
        let c = try PostgresConnection(url(database: database))
        try c.execute(sql, values)
    }

    static func token() -> String { String(UInt64.random(in: 0...UInt64.max), radix: 36) }

    /// An empty database of its own, not yet migrated.
    public static func freshDatabase() throws -> String {
        let name = "nfcb_" + token()
        try admin("postgres", "CREATE DATABASE \(name)")
        return name
    }

    /// A login role with a random password, member of `group` (`nfcbench_bench` or
    /// `nfcbench_reader`, which the first migration creates).
    public static func role(in group: String) throws -> (name: String, password: String) {
        let name = "r_" + token(), password = token() + token()
        try admin("postgres", "CREATE ROLE \(name) LOGIN PASSWORD '\(password)' IN ROLE \(group)")
        return (name, password)
    }
}
