import NFCBenchRecords
import NFCReaders

/// Before a tag-mode run: can this reader emulate a tag? Refused with the reason before the
/// first position, never found out at it. Asked of the reader's capabilities, so a new
/// backend with a target mode needs nothing here.
enum TagModeReadiness {
    /// The warnings a person should see (a limited reader); throws when tag mode cannot run.
    static func check(_ reader: any Reader, mode: TapMode) throws(RunRefusal) -> [String] {
        guard mode == .tag else { return [] }
        let capabilities = reader.capabilities
        switch capabilities.tagEmulation {
        case .supported: return []
        case .limited(let caveat): return [caveat + "."]
        case .unsupported(let reason):
            throw .tagModeUnsupported(
                reader: reader.info.name, reason: reason, hasTargetMode: capabilities.tagEmulator != nil)
        }
    }
}
