import Foundation
import NFCBench
import NFCBenchRecords
import NFCBenchSeams
import NFCReaders
import NFCVirtualBench

/// Who moves the phone, chosen by scheme: `manual`, `sim`, `exec:TEMPLATE`, `gcode[:DEVICE]`. Each backend
/// registers once in `Positioners.registered` with its syntax, its help and whether a
/// person must be there; a new positioner is one file and one line there.
public struct PositionerBackend: Sendable {
    /// What a positioner can be built from once the reader is open.
    public struct Setup: Sendable {
        public let reader: ReaderInfo
        /// Whether the reader can switch its RF field off (`ReaderCapabilities.fieldSwitch`):
        /// a machine may then cross just above the back.
        public let readerSwitchesField: Bool
        public let phone: PhoneOnBench
        public let virtualBenchDirectory: String?
        public let timeout: Duration
        /// The session the positioner will serve: a machine maps its probes with the
        /// phone's published body size, and refuses a plan it cannot reach.
        public let session: SessionRecord
        /// The rig file's settings, for a machine positioner (`gcode`).
        public let rig: LoadedRig?
        /// Tells the operator what the positioner waits for while it is being opened.
        public var notice: @Sendable (String) -> Void = { _ in }
    }

    /// `manual`, `sim`, or a prefix ending in ':' (`exec:`) that takes an argument.
    public let scheme: String
    /// How the operator writes it: `exec:TEMPLATE`.
    public let syntax: String
    public let needsOperator: Bool
    /// A machine positioner reads the rig file (`--rig`, or rig.conf in the config folder).
    public var usesRig = false
    let build: @Sendable (_ argument: String, _ setup: Setup) async throws(RunRefusal) -> any Positioner

    public var takesArgument: Bool { scheme.hasSuffix(":") }
}

/// A registered positioner and its argument (`exec:`'s template).
public struct PositionerChoice: Sendable {
    public let backend: PositionerBackend
    public let argument: String

    public var needsOperator: Bool { backend.needsOperator }
    public var usesRig: Bool { backend.usesRig }
    public var description: String { backend.scheme + argument }
}

public enum Positioners {
    public static let registered: [PositionerBackend] = [
        PositionerBackend(scheme: "manual", syntax: "manual", needsOperator: true) { _, _ in ManualPositioner() },
        PositionerBackend(scheme: "sim", syntax: "sim", needsOperator: false) { _, setup throws(RunRefusal) in
            try simulated(setup)
        },
        PositionerBackend(scheme: "exec:", syntax: "exec:TEMPLATE", needsOperator: false) { template, setup in
            ExecPositioner(template: template, timeout: setup.timeout)
        },
        PositionerBackend(scheme: "gcode", syntax: "gcode", needsOperator: false, usesRig: true) {
            _, setup throws(RunRefusal) in try await MachinePositioners.open(spec: "", setup)
        },
        PositionerBackend(scheme: "gcode:", syntax: "gcode:DEVICE", needsOperator: false, usesRig: true) {
            spec, setup throws(RunRefusal) in try await MachinePositioners.open(spec: spec, setup)
        },
    ]

    /// `manual|sim|exec:TEMPLATE`, for an option's value placeholder.
    public static var syntax: String { registered.map(\.syntax).joined(separator: "|") }
    /// `manual, sim, exec:TEMPLATE, gcode or gcode:DEVICE`, for an option's error.
    public static var expectedChoices: String {
        let names = registered.map(\.syntax)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }

    /// The positioner `text` names, or `nil` (a scheme that takes an argument needs one).
    public static func parse(_ text: String) -> PositionerChoice? {
        for backend in registered {
            if backend.takesArgument, text.hasPrefix(backend.scheme), text.count > backend.scheme.count {
                return PositionerChoice(backend: backend, argument: String(text.dropFirst(backend.scheme.count)))
            }
            if !backend.takesArgument, text == backend.scheme { return PositionerChoice(backend: backend, argument: "") }
        }
        return nil
    }

    /// With no choice: the simulated reader moves its own phone; any other reader has a person.
    static func defaultChoice(for reader: ReaderSpec?) -> PositionerChoice {
        guard let choice = parse(reader == .sim ? "sim" : "manual") else {
            preconditionFailure("the default positioners are registered")
        }
        return choice
    }

    /// The sim reader's own phone, or a virtual bench: `--sim-bench`, or the folder of an
    /// emulated PN532's pty.
    private static func simulated(_ setup: PositionerBackend.Setup) throws(RunRefusal) -> any Positioner {
        if setup.reader.backend == .sim { return SimulatedPositioner(bench: setup.phone) }
        var directory = setup.virtualBenchDirectory
        let prefix = "libnfc:pn532_uart:"
        if directory == nil, setup.reader.spec.hasPrefix(prefix) {
            directory = URL(fileURLWithPath: String(setup.reader.spec.dropFirst(prefix.count))).deletingLastPathComponent().path
        }
        guard let directory, FileManager.default.fileExists(atPath: directory + "/control.sock") else {
            throw .simPositionerNeedsBench
        }
        return VirtualBenchPositioner(directory: directory)
    }
}
