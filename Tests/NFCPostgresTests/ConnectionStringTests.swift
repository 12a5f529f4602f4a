import Foundation
import NFCPostgres
import Testing

@Suite("PostgreSQL connection strings and errors")
struct ConnectionStringTests {
    @Test(arguments: [
        ("postgresql://bench:s3cr%21t@127.0.0.1:5432/lab", "s3cr%21t"),
        ("host=127.0.0.1 user=bench password='a b c' dbname=lab", "a b c"),
        ("host=127.0.0.1 password=plain dbname=lab", "plain"),
    ])
    func thePasswordIsFoundAndNeverShown(url: String, password: String) {
        #expect(ConnectionString.password(in: url) == password)
        let redacted = ConnectionString.redacted(url)
        #expect(!redacted.contains(password) && redacted.contains("127.0.0.1"), "\(redacted)")
        let message = "could not connect with \(url): \(password.removingPercentEncoding ?? password) rejected"
        let cleaned = ConnectionString.redact(message, secretsOf: url)
        #expect(!cleaned.contains(password) && !cleaned.contains(password.removingPercentEncoding ?? password), "\(cleaned)")
    }

    /// Issue 49, F2: the forms a lab gets wrong by hand, each with the password planted
    /// (`SECRETPW`, or split by an unencoded `@`, `:` or `/`). Neither the description nor
    /// the message of a failed connection to a closed loopback port shows any piece of it.
    static let plantedForms = [
        "postgresql://u:SECRETPW@127.0.0.1:1/db",
        "postgresql://u:SE@CRETPW@127.0.0.1:1/db",
        "postgresql://u:SEC@RET@PW@127.0.0.1:1/db",
        "postgresql://u:SECR:ETPW@127.0.0.1:1/db",
        "postgresql://u:SECR/ETPW@127.0.0.1:1/db",
        "postgresql://u:SECR?ETPW@127.0.0.1:1/db",
        "postgresql://u:SECR#ETPW@127.0.0.1:1/db",
        "postgresql://u:SECRETPW@[::1/db",
        "postgresql://u:SECRETPW@[::1]:1/db",
        "postgresql://u:SECRETPW@/db?host=127.0.0.1&port=1",
        "postgresql://u@127.0.0.1:1/db?password=SECRETPW",
        "postgresql://u:SECRETPW%@127.0.0.1:1/db",
        "postgresql://u:SECRETPW%4@127.0.0.1:1/db",
        "postgresql://u:SECRETPW%40@127.0.0.1:1/db",
        "postgres://u:SECRETPW@127.0.0.1:1/db",
        "postgresql://u:SECRETPW@127.0.0.1:SECRETPW/db",
        "postgresql://u:SECRETPW@127.0.0.1:1/SECRETPW",
        "postgresql://SECRETPW:SECRETPW@127.0.0.1:1/db",
        "postgresql://u:SECRETPW@127.0.0.1:1/db?sslmode=bogus",
        "postgresql://u:SECRETPW@127.0.0.1:1/db?unknown=1",
        "dbname=postgresql://u:SECRETPW@[::1/db",
        "dbname=postgresql://u:SECRETPW@127.0.0.1:1/db",
        "dbname='postgresql://u:SE@CRETPW@127.0.0.1:1/db'",
        "host=127.0.0.1 port=1 user=u password=SECRETPW dbname=db",
        "host=127.0.0.1 port=1 user=u password='SECRET PW' dbname=db",
        "host=127.0.0.1 port=1 user=u password='SECRETPW dbname=db",
        "host=127.0.0.1 port=1 user=u password = SECRETPW dbname=db",
        "host=127.0.0.1 port=SECRETPW password=SECRETPW",
        "host=127.0.0.1 port=1 password=SECRETPW dbname='host=x password=SECRETPW'",
        "host=127.0.0.1 port=1 password=SECRETPW bogus=1",
        "host=127.0.0.1 port=1 password=SECRETPW sslmode=bogus",
        "postgresql://u:SECRETPW@127.0.0.1:1/db extra",
    ]

    /// Any four characters in a row of the planted password.
    static func leaks(_ text: String) -> [String] {
        let password = Array("SECRETPW")
        return (0...(password.count - 4)).map { String(password[$0..<($0 + 4)]) }.filter { text.contains($0) }
    }

    @Test(arguments: plantedForms)
    func noPieceOfAPasswordIsEverShown(form: String) {
        let shown = ConnectionString.redacted(form)
        #expect(Self.leaks(shown).isEmpty, "\(form) -> \(shown)")
        do {
            _ = try PostgresConnection(form, timeoutSeconds: 2)
            Issue.record("connected with \(form)")
        } catch {
            #expect(Self.leaks(error.description).isEmpty, "\(form) -> \(error)")
        }
    }

    /// A password with an unencoded `@` is read whole, so its pieces are known.
    @Test func passwordsAreFoundWhereverTheyAreWritten() {
        #expect(ConnectionString.passwords(in: "postgresql://u:SE@CRETPW@h/db") == ["SE@CRETPW"])
        #expect(ConnectionString.passwords(in: "dbname=postgresql://u:A1B2@h/db password=C3D4") == ["A1B2", "C3D4"])
        #expect(ConnectionString.passwords(in: "postgresql://u@h/db?sslmode=require&password=E5F6") == ["E5F6"])
        #expect(ConnectionString.passwords(in: "host=h dbname=lab").isEmpty)
    }

    /// libpq's words for a refused login are not a busy or unreachable store.
    @Test(arguments: [
        ("connection to server at \"127.0.0.1\", port 5432 failed: FATAL:  password authentication failed for user \"u\"", true),
        ("FATAL:  no pg_hba.conf entry for host \"127.0.0.1\", user \"u\", database \"db\", no encryption", true),
        ("FATAL:  role \"nobody\" does not exist", true),
        ("FATAL:  database \"nolab\" does not exist", true),
        ("fe_sendauth: no password supplied", true),
        ("connection to server at \"127.0.0.1\", port 1 failed: Connection refused", false),
        ("timeout expired", false),
        ("FATAL:  the database system is starting up", false),
    ])
    func aRefusedLoginIsNotTransient(message: String, refused: Bool) {
        #expect(PostgresError.isLoginRefusal(message) == refused)
        let error = PostgresError(kind: refused ? .loginRefused : .connection, sqlState: nil, message: message, server: "x")
        #expect(error.isTransient == !refused)
    }

    @Test func anUnparsableStringIsDescribedNotEchoed() {
        let text = "postgresql://u:hunter22@[::1"
        #expect(ConnectionString.redacted(text) == "(a connection string libpq cannot parse)")
    }

    @Test(arguments: [
        ("08006", true), ("57P01", true), ("53300", true), ("55P03", true), ("57014", true), ("25P03", true),
        ("23505", false), ("42501", false), ("22P02", false),
    ])
    func onlyBusyOrBrokenLinksAreWorthRetrying(state: String, transient: Bool) {
        let error = PostgresError(kind: .statement, sqlState: state, message: " m \n", server: "u@h:1/d")
        #expect(error.isTransient == transient)
        #expect(error.message == "m" && error.description.contains("[\(state)]"))
    }

    @Test func aClosedLoopbackPortIsAConnectionErrorWithoutThePassword() throws {
        // A port nothing listens on: bind one, note it, close it.
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        let port = UInt16(bigEndian: address.sin_port)
        close(socketFD)
        let url = "postgresql://bench:topsecret99@127.0.0.1:\(port)/lab"
        do {
            _ = try PostgresConnection(url, timeoutSeconds: 5)
            Issue.record("connected to a closed port")
        } catch {
            #expect(error.kind == .connection && error.isTransient)
            #expect(!error.description.contains("topsecret99"), "\(error)")
        }
    }
}
