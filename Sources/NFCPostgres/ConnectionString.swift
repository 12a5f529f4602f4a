import CLibPQ
import Foundation

/// What a libpq connection string says, without its secrets.
///
/// A lab writes connection strings by hand, in `--store`, the environment and lab.conf,
/// and gets them wrong: an `@` left unencoded in a password, a URI put inside `dbname=`
/// (which libpq expands as a second connection string), a bracket never closed. libpq then
/// reads part of the password as a host or a port and quotes it back in its errors. So
/// what nfcbench shows is rebuilt from the parsed parts, each part shown only when it holds
/// no piece of any password the text carries, and every message about a connection has
/// every such piece replaced (issue 49, F2).
public enum ConnectionString {
    /// `user@host:port/database` from `string` as libpq parses it (URL or `key=value`,
    /// a connection string inside `dbname` expanded as libpq expands it), with defaults
    /// libpq would take from the environment shown as "default". No part that holds a
    /// piece of a password is shown; a string libpq cannot parse is described as such.
    public static func redacted(_ string: String) -> String {
        guard let pq = try? LibPQ.api() else { return "(a connection string; libpq is not installed to read it)" }
        guard var values = parse(string, pq) else { return "(a connection string libpq cannot parse)" }
        if let inner = values["dbname"], isConnectionString(inner) {
            guard let expanded = parse(inner, pq) else { return "(a connection string libpq cannot parse)" }
            values["dbname"] = nil
            values.merge(expanded) { _, new in new }
        }
        let env = ProcessInfo.processInfo.environment
        let pieces = secretPieces(of: string)
        func shown(_ key: String, _ variable: String) -> String {
            guard let value = values[key] ?? env[variable] else { return "default" }
            let clean =
                !value.isEmpty && value.count <= 255 && !isConnectionString(value)
                && value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "@" }
                && !pieces.contains { value.contains($0) }
            return clean ? value : "(unreadable \(key))"
        }
        return "\(shown("user", "PGUSER"))@\(shown("host", "PGHOST")):\(shown("port", "PGPORT"))/\(shown("dbname", "PGDATABASE"))"
    }

    /// Keyword to value, as `PQconninfoParse` reads `string`; `nil` when it cannot.
    private static func parse(_ string: String, _ pq: LibPQ) -> [String: String]? {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = pq.conninfoParse(string, &error) else {
            if let error { pq.freemem(error) }
            return nil
        }
        defer { pq.conninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return values
    }

    /// What libpq takes as a connection string of its own where a database name stands:
    /// a URI, or `key=value` pairs.
    static func isConnectionString(_ value: String) -> Bool {
        value.hasPrefix("postgresql://") || value.hasPrefix("postgres://") || value.contains("=")
    }

    /// `message` with every secret of `connectionString` replaced by `***`: the whole
    /// string (libpq echoes a malformed URL), each password it carries raw and
    /// percent-decoded, and each piece of one that libpq may have read as a user, host,
    /// port or database (split at `@`, `:`, `/`, `?`, `#`, brackets and spaces). The one
    /// redactor every message about a connection passes through.
    public static func redact(_ message: String, secretsOf connectionString: String) -> String {
        var out = message
        let secrets = ([connectionString] + secretPieces(of: connectionString)).filter { $0.count >= 3 }
        for secret in secrets.sorted(by: { $0.count > $1.count }) {
            out = out.replacingOccurrences(of: secret, with: "***")
        }
        return out
    }

    /// Every password `string` carries and every piece of one, longest first, at least
    /// three characters each (shorter pieces would blank out ordinary words).
    static func secretPieces(of string: String) -> [String] {
        var pieces = Set<String>()
        for password in passwords(in: string) where !password.isEmpty {
            for form in [password, password.removingPercentEncoding ?? password] {
                pieces.insert(form)
                for piece in form.split(whereSeparator: { "@:/?#[]' \t\n".contains($0) }) { pieces.insert(String(piece)) }
            }
        }
        return pieces.filter { $0.count >= 3 }.sorted { $0.count > $1.count }
    }

    /// The first password written in `string` (see `passwords(in:)`).
    public static func password(in string: String) -> String? { passwords(in: string).first }

    /// Every password written in `string`, read textually so that a string libpq cannot
    /// parse still has them: each `password=` value, and the user info of each URI in it
    /// (`scheme://user:PASSWORD@host`, up to the last `@` before the URI's end, so an
    /// unencoded `@` stays inside the password), a URI inside `dbname=` included.
    public static func passwords(in string: String) -> [String] {
        var found: [String] = []
        var rest = string[...]
        while let scheme = rest.range(of: "://") {
            let uri = rest[scheme.upperBound...].prefix { !$0.isWhitespace && $0 != "'" }
            if let at = uri.lastIndex(of: "@") {
                let userInfo = uri[..<at]
                if let colon = userInfo.firstIndex(of: ":") { found.append(String(userInfo[userInfo.index(after: colon)...])) }
            }
            rest = rest[scheme.upperBound...]
        }
        var text = string[...]
        while let key = text.range(of: #"(^|\s)password\s*=\s*"#, options: .regularExpression) {
            let value = text[key.upperBound...]
            if value.hasPrefix("'") {
                let body = value.dropFirst()
                found.append(String(body[..<(body.firstIndex(of: "'") ?? body.endIndex)]))
            } else {
                found.append(String(value.prefix { !$0.isWhitespace }))
            }
            text = text[key.upperBound...]
        }
        // `?password=` in a URI's query.
        for uriQuery in string.components(separatedBy: "?").dropFirst() {
            for pair in uriQuery.split(separator: "&") where pair.hasPrefix("password=") {
                found.append(String(pair.dropFirst("password=".count).prefix { !$0.isWhitespace }))
            }
        }
        return found
    }
}
