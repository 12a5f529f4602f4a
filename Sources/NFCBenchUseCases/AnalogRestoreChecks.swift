import Foundation
import NFCBench
import NFCReaders

/// `doctor` puts back analog settings that a killed session left weakened: each reader
/// the journal names (by its spec: a libnfc connstring, `pcsc:<name>`) is opened through
/// its backend, which restores them on open, and closed. A reader that cannot be opened
/// now, or could not be reached (an ACR122U without escape commands and no phone on it),
/// keeps its journal for its next open.
public struct AnalogRestoreChecks: DoctorCheckProvider {
    public let journal: AnalogJournal

    public init(journal: AnalogJournal) { self.journal = journal }

    public func checks() async -> [DoctorCheck] {
        var found: [DoctorCheck] = []
        var selection = ReaderSelection(feedback: false)
        selection.opening.analogJournal = journal
        for spec in journal.pending() {
            do throws(ReaderError) {
                let reader = try await selection.open(try ReaderBackends.parse(spec))
                await reader.close()
                guard !journal.pending().contains(spec) else {
                    throw ReaderError(.failed, "the reader could not be reached to put them back")
                }
                found.append(
                    DoctorCheck(
                        id: "analog-settings", verdict: .ok,
                        detail: "put back the analog settings a stopped session left weakened on \(spec)"))
            } catch {
                found.append(
                    DoctorCheck(
                        id: "analog-settings", verdict: .warn,
                        detail: "\(spec) still has the weakened analog settings of a stopped session: \(error.message)",
                        fix:
                            "Plug the reader in (an ACR122U: with a phone on it) and run 'nfcbench doctor' again; opening it for a run also puts them back."
                    ))
            }
        }
        return found
    }
}
