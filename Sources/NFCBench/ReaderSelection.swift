import Foundation
import NFCReaderLibNFC
import NFCReaders
import NFCSystem

/// Turns what the operator typed (`--reader SPEC`, or nothing) into an open reader.
public struct ReaderSelection: Sendable {
    /// Reader libraries' own logs stay off the operator's screen unless `verbose`
    /// (`LibNFCLog`); their failures arrive as typed errors all the same.
    public static func configureLogging(
        verbose: Bool, environment: [String: String], beforeFirstUse: (@Sendable () -> Void)? = nil
    ) {
        LibNFCLog.configure(verbose: verbose, environment: environment, beforeFirstUse: beforeFirstUse)
    }

    public var opening: ReaderBackendRegistration.Opening

    public init(environment: [String: String] = [:], feedback: Bool = true) {
        opening = ReaderBackendRegistration.Opening(environment: environment, feedback: feedback)
    }

    /// Opens `spec` through its backend; with no spec, the only reader present, else an
    /// error listing them. The simulated reader needs `simBench`.
    public func open(_ spec: ReaderSpec?, simBench: PhoneOnBench? = nil) async throws(ReaderError) -> any Reader {
        var opening = opening
        opening.simulatedPhone = simBench
        guard let spec else {
            let found = await available()
            return try await open(
                try Self.only(among: found.readers.map { ($0.spec, nil) }, problems: found.problems), simBench: simBench)
        }
        guard let backend = ReaderBackends.registration(spec.backend) else {
            throw ReaderError(
                .invalidSpec, "No reader backend '\(spec.scheme)' in this nfcbench.", hint: "Use \(ReaderBackends.syntax).")
        }
        return try await backend.open(spec, opening)
    }

    /// `spec`'s open begun now, from this thread, on its backend's own thread; `nil` when
    /// its backend begins on a task (`ReaderBackendRegistration.begin`).
    public func begin(_ spec: ReaderSpec) -> PendingOpen<any Reader>? {
        ReaderBackends.registration(spec.backend)?.begin?(spec, opening)
    }

    /// The reader to use when none was named: the only candidate, else an error that
    /// names every one (`note` says where a candidate comes from, a virtual bench say), or
    /// says why there is none and what to do.
    public static func only(
        among candidates: [(spec: String, note: String?)], problems: [ReaderError]
    ) throws(ReaderError) -> ReaderSpec {
        switch candidates.count {
        case 1:
            return try ReaderSpec(recorded: candidates[0].spec)
        case 0:
            throw ReaderError(
                .noReader, "No reader found.",
                hint: (problems.first.map { "\($0.message) " } ?? "")
                    + "Plug one in or give --reader; 'nfcbench doctor' checks the setup. "
                    + "(--reader sim only simulates a phone: its sessions are marked simulated and never count as evidence.)")
        default:
            throw ReaderError(
                .ambiguousReader, "Several readers found (\(candidates.count)); choose one with --reader.",
                hint: candidates.map { c in c.note.map { "\(c.spec) (\($0))" } ?? c.spec }.joined(separator: ", ")
                    + (problems.isEmpty ? "" : ". Not asked: " + problems.map(\.message).joined(separator: " ")))
        }
    }

    /// What `nfcbench readers` shows of a listed reader, asked of its backend (blocking
    /// calls in the C libraries, so on a queue of their own).
    public func describe(_ info: ReaderInfo) async -> ReaderBackendRegistration.Listing {
        guard let backend = ReaderBackends.registration(info.backend) else { return .init(firmware: info.firmware, inUse: nil) }
        return await BlockingWork.run("nfcbench.reader-describe") { backend.describe(info) }
    }

    /// Readers every backend can see now, and why a stack could not be asked. Listing
    /// blocks in the C libraries (`nfc_list_devices` probes every port), so it runs on a
    /// queue of its own, never on a cooperative thread.
    public func available() async -> (readers: [ReaderInfo], problems: [ReaderError]) {
        await BlockingWork.run("nfcbench.reader-selection") { Self.listReaders() }
    }

    static func listReaders() -> (readers: [ReaderInfo], problems: [ReaderError]) {
        var readers: [ReaderInfo] = []
        var problems: [ReaderError] = []
        for backend in ReaderBackends.registered {
            guard let found = backend.discover?() else { continue }
            readers += found.readers
            problems += found.problems
        }
        return (readers, problems)
    }
}
