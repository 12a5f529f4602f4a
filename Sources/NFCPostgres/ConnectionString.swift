import CLibPQ
import Foundation

/// What a libpq connection string says, without its secrets.
public enum ConnectionString {
    /// `user@host:port/database` from `string` as libpq parses it (URL or `key=value`),
    /// with defaults libpq would take from the environment left as "default". A password
    /// given inline is never part of the result; a string libpq cannot parse is described
    /// as such, not echoed (it may hold a password).
    public static func redacted(_ string: String) -> String {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(string, &error) else {
            if let error { PQfreemem(error) }
            return "(a connection string libpq cannot parse)"
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        let env = ProcessInfo.processInfo.environment
        func pick(_ key: String, _ variable: String) -> String { values[key] ?? env[variable] ?? "default" }
        return "\(pick("user", "PGUSER"))@\(pick("host", "PGHOST")):\(pick("port", "PGPORT"))/\(pick("dbname", "PGDATABASE"))"
    }
}
