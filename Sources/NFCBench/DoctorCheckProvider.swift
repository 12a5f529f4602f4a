/// A source of `nfcbench doctor` findings: the bench's host, the lab store, a backend's
/// own setup. The doctor use case runs every provider it is given, in order, and the
/// command prints what they found; a new kind of check is one more provider.
public protocol DoctorCheckProvider: Sendable {
    func checks() async -> [DoctorCheck]
}

extension BenchDoctor: DoctorCheckProvider {
    public func checks() async -> [DoctorCheck] { run() }
}

/// Findings made elsewhere (the command's own configuration files), passed on as they are.
public struct FoundChecks: DoctorCheckProvider {
    public let found: [DoctorCheck]
    public init(_ found: [DoctorCheck]) { self.found = found }
    public func checks() async -> [DoctorCheck] { found }
}
