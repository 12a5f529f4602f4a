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
