import NFCReaderLibNFC
import NFCReaderPCSC
import NFCReaderReplay
import NFCReaders

/// Every reader backend nfcbench can open, registered once. A new backend is one module
/// with its `Reader` and `ReaderBackendRegistration`, and one line here.
public enum ReaderBackends {
    public static let registered: [ReaderBackendRegistration] = [
        LibNFCReader.registration, PCSCReader.registration, SimulatedReader.registration, ReplayReader.registration,
    ]

    public static func registration(_ backend: ReaderBackend) -> ReaderBackendRegistration? {
        registered.first { $0.backend == backend }
    }

    /// `libnfc:<connstring>, pcsc:<name> or sim`, for help and errors.
    /// Built by hand: `poll --reader` builds it on the way to the reader's first byte, and
    /// a key path with the generic `joined` cost there a scan of every protocol conformance
    /// in the program (docs/performance.md).
    public static var syntax: String {
        var text = ""
        for index in registered.indices {
            if index > 0 { text += index == registered.count - 1 ? " or " : ", " }
            text += registered[index].syntax
        }
        return text
    }

    /// What the operator typed, checked by the backend it names (or claims without a scheme).
    public static func parse(_ text: String) throws(ReaderError) -> ReaderSpec {
        for backend in registered {
            if let full = backend.shorthand(text) { return try backend.check(text, try ReaderSpec(recorded: full)) }
        }
        let notASpec = ReaderError(
            .invalidSpec, "'\(text)' is not a reader spec.", hint: "Use \(syntax); 'nfcbench readers' lists them.")
        guard let spec = try? ReaderSpec(recorded: text), let backend = registration(spec.backend) else { throw notASpec }
        return try backend.check(text, spec)
    }
}
