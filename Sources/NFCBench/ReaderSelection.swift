import Foundation
import NFCReaderLibNFC
import NFCReaderPCSC
import NFCReaders

/// Turns what the operator typed (`--reader SPEC`, or nothing) into an open reader.
public struct ReaderSelection: Sendable {
    /// Reader libraries' own logs stay off the operator's screen unless `verbose`
    /// (`LibNFCLog`); their failures arrive as typed errors all the same.
    public static func configureLogging(verbose: Bool, environment: [String: String]) {
        LibNFCLog.configure(verbose: verbose, environment: environment)
    }

    public var diagnosis: LibNFCDiagnosis
    public var feedback: Bool

    public init(diagnosis: LibNFCDiagnosis = LibNFCDiagnosis(), feedback: Bool = true) {
        self.diagnosis = diagnosis
        self.feedback = feedback
    }

    /// Opens `spec`; with no spec, the only reader present, else an error listing them.
    /// `.sim` needs `simBench`.
    public func open(_ spec: ReaderSpec?, simBench: PhoneOnBench? = nil) async throws(ReaderError) -> any Reader {
        switch spec {
        case .libnfc(let connstring)?:
            return try await LibNFCReader.open(connstring: connstring, diagnosis: diagnosis)
        case .pcsc(let name)?:
            return try await PCSCReader.open(name, feedback: feedback)
        case .sim?:
            guard let simBench else { throw ReaderError(.invalidSpec, "The simulated reader needs a simulated phone.") }
            return SimulatedReader(bench: simBench)
        case nil:
            let found = await available()
            switch found.readers.count {
            case 1:
                return try await open(try ReaderSpec.parse(found.readers[0].spec), simBench: simBench)
            case 0:
                throw ReaderError(
                    .noReader, "No reader found.",
                    hint: (found.problems.first.map { "\($0.message) " } ?? "")
                        + "Plug one in or give --reader; 'nfcbench doctor' checks the setup. "
                        + "(--reader sim only simulates a phone: its sessions are marked simulated and never count as evidence.)")
            default:
                throw ReaderError(
                    .ambiguousReader, "Several readers found; choose one with --reader.",
                    hint: found.readers.map(\.spec).joined(separator: ", "))
            }
        }
    }

    /// Readers visible through both stacks, and why a stack could not be asked. Listing
    /// blocks in the C libraries (`nfc_list_devices` probes every port), so it runs on a
    /// queue of its own, never on a cooperative thread.
    public func available() async -> (readers: [ReaderInfo], problems: [ReaderError]) {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "nfcbench.reader-selection").async {
                continuation.resume(returning: Self.listReaders())
            }
        }
    }

    /// A libnfc device's firmware, and whether another process holds it (`nil`: unknown).
    public func describe(libnfc connstring: String) async -> (firmware: String?, inUse: Bool?) {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "nfcbench.reader-describe").async {
                continuation.resume(returning: LibNFCReader.describe(connstring: connstring))
            }
        }
    }

    /// Whether another program holds the card in a PC/SC reader (`nil`: pcscd cannot say).
    public func isInUse(pcsc name: String) async -> Bool? {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "nfcbench.reader-describe").async {
                continuation.resume(returning: PCSCReader.isInUse(name))
            }
        }
    }

    static func listReaders() -> (readers: [ReaderInfo], problems: [ReaderError]) {
        var readers: [ReaderInfo] = []
        var problems: [ReaderError] = []
        for connstring in LibNFCReader.connstrings() {
            readers.append(ReaderInfo(backend: .libnfc, name: connstring, spec: "libnfc:\(connstring)", firmware: nil))
        }
        do {
            for name in try PCSCReader.readerNames() {
                readers.append(ReaderInfo(backend: .pcsc, name: name, spec: "pcsc:\(name)", firmware: nil))
            }
        } catch {
            problems.append(error)
        }
        return (readers, problems)
    }
}
