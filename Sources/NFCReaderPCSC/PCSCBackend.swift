import Foundation
import NFCReaders

extension ReaderBackend {
    public static let pcsc = ReaderBackend(rawValue: "pcsc")
}

extension ReaderSpec {
    public static func pcsc(name: String) -> ReaderSpec { ReaderSpec(scheme: "pcsc", argument: name) }
}

extension PCSCReader {
    /// `pcsc:<name>`: any reader pcscd serves, by its name or a unique part of it.
    public static let registration = ReaderBackendRegistration(
        backend: .pcsc, syntax: "pcsc:<name>",
        check: ReaderBackendRegistration.argumentRequired(
            "'pcsc:' needs a reader name or part of one.", hint: "Run 'nfcbench readers' to see the names."),
        open: { spec, opening throws(ReaderError) in
            try await PCSCReader.open(
                spec.argument ?? "", feedback: opening.feedback, journal: .fromEnvironment(ProcessInfo.processInfo.environment),
                analogJournal: opening.analogJournalOrDefault)
        },
        discover: {
            let names: [String]
            do throws(ReaderError) { names = try readerNames() } catch { return ([], [error]) }
            return (names.map { ReaderInfo(backend: .pcsc, name: $0, spec: "pcsc:\($0)", firmware: nil) }, [])
        },
        describe: { info in
            let inUse = isInUse(info.name)
            // A reader another program holds is left alone: even a direct connection is one more client on it.
            return .init(firmware: info.firmware, serial: inUse == false ? serialNumber(of: info.name) : nil, inUse: inUse)
        },
        tagMode: { _, _ in .unsupported("PC/SC has no target mode") })
}
