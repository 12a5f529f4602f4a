import NFCBench
import NFCReaderLibNFC
import NFCReaders
import NFCVirtualBench

/// What `nfcbench readers` lists: every backend's readers with their state and modes, and
/// the virtual benches running here, merged so a bench's emulated PN532 (which libnfc's
/// autoscan never finds on a pseudo-terminal) is listed once.
public struct ReaderInventory: Sendable {
    public struct Row: Sendable {
        public let info: ReaderInfo
        public let firmware: String?
        public let serial: String?
        public let inUse: Bool?
        /// The virtual bench this reader belongs to, when it came from the bench registry.
        public let virtualBench: String?
        /// Card polling always; tag emulation as the backend says for this reader.
        public let tagMode: TagEmulationSupport

        public var modeNames: [String] {
            if case .unsupported = tagMode { return ["card"] }
            return ["card", "tag"]
        }
    }

    public let rows: [Row]
    public let benches: [BenchRegistry.Entry]
    /// Why a backend could not be asked (pcscd not running, say).
    public let problems: [ReaderError]
    /// Why the bench registry was not read (a folder others can write).
    public let untrustedRegistry: String?

    public static func gather(environment: [String: String]) async -> ReaderInventory {
        let selection = ReaderSelection(environment: environment)
        let (found, benches, problems) = await candidates(selection, environment: environment)
        var rows: [Row] = []
        for (info, bench) in found { rows.append(await row(info, selection: selection, bench: bench)) }
        return ReaderInventory(
            rows: rows, benches: benches, problems: problems,
            untrustedRegistry: BenchRegistry.untrusted(environment: environment))
    }

    /// The reader to open when none was named: the only one `readers` lists, virtual
    /// benches included, else an error naming them all.
    public static func onlyReader(environment: [String: String]) async throws(ReaderError) -> ReaderSpec {
        let (found, _, problems) = await candidates(ReaderSelection(environment: environment), environment: environment)
        return try ReaderSelection.only(
            among: found.map { ($0.info.spec, $0.bench.map { "virtual bench in \($0)" }) }, problems: problems)
    }

    /// Every backend's readers, then each running bench's emulated PN532 that no backend
    /// listed (libnfc's autoscan never probes a pseudo-terminal), once each.
    static func candidates(_ selection: ReaderSelection, environment: [String: String]) async -> (
        readers: [(info: ReaderInfo, bench: String?)], benches: [BenchRegistry.Entry], problems: [ReaderError]
    ) {
        let found = await selection.available()
        let benches = BenchRegistry.running(environment: environment)
        var readers: [(info: ReaderInfo, bench: String?)] = found.readers.map { ($0, nil) }
        for bench in benches {
            guard let connstring = bench.connstring else { continue }
            let spec = ReaderSpec.libnfc(connstring: connstring).description
            guard !readers.contains(where: { $0.info.spec == spec }) else { continue }
            readers.append((ReaderInfo(backend: .libnfc, name: connstring, spec: spec, firmware: nil), bench.directory))
        }
        return (readers, benches, found.problems)
    }

    static func row(_ info: ReaderInfo, selection: ReaderSelection, bench: String?) async -> Row {
        let listing = await selection.describe(info)
        let firmware = listing.firmware ?? info.firmware
        let tagMode = ReaderBackends.registration(info.backend)?.tagMode(info, firmware) ?? .unsupported("unknown backend")
        return Row(
            info: info, firmware: firmware, serial: listing.serial ?? info.serial, inUse: listing.inUse, virtualBench: bench,
            tagMode: tagMode)
    }
}

extension ReaderInventory {
    /// The libnfc readers of the virtual benches running here (`libnfc:pn532_uart:...`),
    /// for `doctor`: a station with only these still runs, but records no bench evidence.
    public static func virtualBenchReaders(environment: [String: String]) -> [String] {
        BenchRegistry.running(environment: environment).compactMap { $0.connstring.map { "libnfc:" + $0 } }
    }
}
