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
        let found = await selection.available()
        let benches = BenchRegistry.running(environment: environment)
        var rows: [Row] = []
        for info in found.readers { rows.append(await row(info, selection: selection, bench: nil)) }
        for bench in benches {
            guard let connstring = bench.connstring else { continue }
            let spec = ReaderSpec.libnfc(connstring: connstring).description
            guard !rows.contains(where: { $0.info.spec == spec }) else { continue }
            let info = ReaderInfo(backend: .libnfc, name: connstring, spec: spec, firmware: nil)
            rows.append(await row(info, selection: selection, bench: bench.directory))
        }
        return ReaderInventory(
            rows: rows, benches: benches, problems: found.problems,
            untrustedRegistry: BenchRegistry.untrusted(environment: environment))
    }

    static func row(_ info: ReaderInfo, selection: ReaderSelection, bench: String?) async -> Row {
        let listing = await selection.describe(info)
        let firmware = listing.firmware ?? info.firmware
        let tagMode = ReaderBackends.registration(info.backend)?.tagMode(info, firmware) ?? .unsupported("unknown backend")
        return Row(info: info, firmware: firmware, inUse: listing.inUse, virtualBench: bench, tagMode: tagMode)
    }
}
