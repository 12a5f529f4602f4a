import Foundation
import NFCBench
import NFCReaderLibNFC
import NFCReaders

/// `doctor` puts back analog settings that a killed session left weakened: each reader
/// the journal names is opened, which restores them (`LibNFCReader.open`), and closed.
/// A reader that cannot be opened now keeps its journal for its next open.
public struct AnalogRestoreChecks: DoctorCheckProvider {
    public let journal: AnalogJournal

    public init(journal: AnalogJournal) { self.journal = journal }

    public func checks() async -> [DoctorCheck] {
        var found: [DoctorCheck] = []
        for connstring in journal.pending() {
            do throws(ReaderError) {
                let reader = try await LibNFCReader.open(connstring: connstring, analogJournal: journal)
                await reader.close()
                found.append(
                    DoctorCheck(
                        id: "analog-settings", verdict: .ok,
                        detail: "put back the analog settings a stopped session left weakened on \(connstring)"))
            } catch {
                found.append(
                    DoctorCheck(
                        id: "analog-settings", verdict: .warn,
                        detail: "\(connstring) still has the weakened analog settings of a stopped session: \(error.message)",
                        fix: "Plug the reader in and run 'nfcbench doctor' again; opening it for a run also puts them back."))
            }
        }
        return found
    }
}
