import CLibPQ
import Foundation

/// What a libpq connection string says, without its secrets.
public enum ConnectionString {
    /// `user@host:port/database` from `string` as libpq parses it (URL or `key=value`),
    /// with defaults libpq would take from the environment left as "default". A password
    /// given inline is never part of the result; a string libpq cannot parse is described
    /// as such, not echoed (it may hold a password).
    public static func redacted(_ string: String) -> String {
        guard let pq = try? LibPQ.api() else { return "(a connection string; libpq is not installed to read it)" }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = pq.conninfoParse(string, &error) else {
            if let error { pq.freemem(error) }
            return "(a connection string libpq cannot parse)"
        }
        defer { pq.conninfoFree(options) }
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

    /// `message` with every secret of `connectionString` replaced by `***`: the whole
    /// string (libpq echoes a malformed URL), and its password raw and percent-decoded
    /// (libpq quotes a token it cannot decode, `invalid percent-encoded token: "PW%X"`).
    /// The one redactor every message about a connection passes through.
    public static func redact(_ message: String, secretsOf connectionString: String) -> String {
        var secrets = [connectionString]
        if let password = password(in: connectionString), !password.isEmpty {
            secrets.append(password)
            if let decoded = password.removingPercentEncoding { secrets.append(decoded) }
        }
        var out = message
        for secret in secrets.sorted(by: { $0.count > $1.count }) where secret.count >= 3 {
            out = out.replacingOccurrences(of: secret, with: "***")
        }
        return out
    }

    /// The password as written in a URL's user info (`scheme://user:PASSWORD@host`) or as
    /// a `password=` pair, read textually: a string libpq cannot parse still has one.
    public static func password(in string: String) -> String? {
        if let scheme = string.range(of: "://") {
            let rest = string[scheme.upperBound...]
            guard let at = rest.lastIndex(of: "@") else { return nil }
            let userInfo = rest[..<at]
            guard let colon = userInfo.firstIndex(of: ":") else { return nil }
            return String(userInfo[userInfo.index(after: colon)...])
        }
        guard let key = string.range(of: #"(^|\s)password\s*=\s*"#, options: .regularExpression) else { return nil }
        let value = string[key.upperBound...]
        if value.hasPrefix("'") {
            let body = value.dropFirst()
            return String(body[..<(body.firstIndex(of: "'") ?? body.endIndex)])
        }
        return String(value.prefix { !$0.isWhitespace })
    }
}
