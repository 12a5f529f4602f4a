import Foundation

/// What a reader backend tells the rest of nfcbench about itself, once: how its specs are
/// written and checked, how to open one, and what it can list and say without opening.
/// A new backend is a module with a `Reader` and one of these, and one line in
/// `ReaderBackends.registered` (`NFCBench`); nothing else switches on backends.
public struct ReaderBackendRegistration: Sendable {
    /// What opening a reader may need besides its spec.
    public struct Opening: Sendable {
        /// For diagnosing a failed open (udev, kernel modules), and test overrides.
        public var environment: [String: String]
        /// LED and buzzer feedback, where the reader has them.
        public var feedback: Bool
        /// The simulated phone a simulated reader couples to.
        public var simulatedPhone: PhoneOnBench?
        /// Where analog settings weakened by `run --coupling` are journalled; `nil`: the
        /// process's own state folder (`AnalogJournal.fromEnvironment`).
        public var analogJournal: AnalogJournal?

        public init(
            environment: [String: String] = [:], feedback: Bool = true, simulatedPhone: PhoneOnBench? = nil,
            analogJournal: AnalogJournal? = nil
        ) {
            self.environment = environment
            self.feedback = feedback
            self.simulatedPhone = simulatedPhone
            self.analogJournal = analogJournal
        }

        /// `analogJournal`, else the one `environment` names, else the process's own. The
        /// command's environment is at hand already; ProcessInfo's would be built afresh
        /// on the thread that opens, in front of the reader's first byte.
        public var analogJournalOrDefault: AnalogJournal {
            analogJournal ?? .fromEnvironment(environment.isEmpty ? ProcessInfo.processInfo.environment : environment)
        }
    }

    /// What a listed reader is like, found without opening it for a session.
    public struct Listing: Sendable {
        public let firmware: String?
        public let serial: String?
        /// Whether another program holds it; `nil` when the stack cannot say.
        public let inUse: Bool?

        public init(firmware: String?, serial: String? = nil, inUse: Bool?) {
            self.firmware = firmware
            self.serial = serial
            self.inUse = inUse
        }
    }

    public typealias Check = @Sendable (_ text: String, _ spec: ReaderSpec) throws(ReaderError) -> ReaderSpec
    public typealias Open = @Sendable (_ spec: ReaderSpec, _ opening: Opening) async throws(ReaderError) -> any Reader
    /// The same open, begun at once on the backend's own thread from the calling one,
    /// with no task in between (`ReaderHeadStart`); checks are the open's own.
    public typealias Begin = @Sendable (_ spec: ReaderSpec, _ opening: Opening) -> PendingOpen<any Reader>

    public let backend: ReaderBackend
    /// How the operator writes it, for help and errors: `libnfc:<connstring>`.
    public let syntax: String
    /// A spec written without the scheme that this backend claims (a bare libnfc
    /// connstring, as `nfc-list` users write it), rewritten with it; `nil` when not.
    public let shorthand: @Sendable (_ text: String) -> String?
    /// The spec checked (the text as typed, for messages), or why it is wrong, with a hint.
    public let check: Check
    public let open: Open
    /// `nil` for backends whose open is quick or needs a task: those begin on one.
    public let begin: Begin?
    /// The readers of this backend present now, and why the stack could not be asked.
    /// Blocking (it may probe ports); `nil` for backends that list nothing.
    public let discover: (@Sendable () -> (readers: [ReaderInfo], problems: [ReaderError]))?
    /// Firmware and whether it is held elsewhere, for `nfcbench readers`. Blocking.
    public let describe: @Sendable (ReaderInfo) -> Listing
    /// Whether tag mode would work on a listed reader, said before it is opened.
    public let tagMode: @Sendable (_ info: ReaderInfo, _ firmware: String?) -> TagEmulationSupport

    /// The check of a scheme whose argument names what to open (a reader, a file): only
    /// that it is there.
    public static func argumentRequired(_ message: String, hint: String) -> Check {
        { _, spec throws(ReaderError) in
            guard let argument = spec.argument, !argument.isEmpty else { throw ReaderError(.invalidSpec, message, hint: hint) }
            return spec
        }
    }

    public init(
        backend: ReaderBackend, syntax: String, shorthand: @escaping @Sendable (String) -> String? = { _ in nil },
        check: @escaping Check, open: @escaping Open, begin: Begin? = nil,
        discover: (@Sendable () -> (readers: [ReaderInfo], problems: [ReaderError]))? = nil,
        describe: @escaping @Sendable (ReaderInfo) -> Listing = { Listing(firmware: $0.firmware, serial: $0.serial, inUse: nil) },
        tagMode: @escaping @Sendable (ReaderInfo, String?) -> TagEmulationSupport
    ) {
        self.backend = backend
        self.syntax = syntax
        self.shorthand = shorthand
        self.check = check
        self.open = open
        self.begin = begin
        self.discover = discover
        self.describe = describe
        self.tagMode = tagMode
    }
}
