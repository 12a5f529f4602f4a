import NFCReaders

/// The analog settings through libnfc: RFConfiguration item 0x0A sent with
/// `pn53x_transceive`, the settings before the first change read from the chip's CIU
/// registers and journalled (`AnalogJournal`), and put back at the end of a run, at close,
/// and at the next open after a session that could not (`kill -9`).
extension LibNFCReader: AnalogProfiling {
    public func apply(_ profile: AnalogProfile) async throws(ReaderError) {
        try await interruptible(timeout: Self.analogTimeout) { _, _ -> Result<Void, ReaderError> in
            if self.analogJournal.original(for: self.connstring) == nil {
                switch self.device.analogSettings() {
                case .failure(let status): return .failure(self.failure(status))
                case .success(let original):
                    // Never change what could not be noted: a kill would leave it weakened.
                    guard self.analogJournal.record(original, for: self.connstring) else {
                        return .failure(
                            ReaderError(
                                .failed,
                                "Cannot note the analog settings of reader '\(self.info.name)' in \(self.analogJournal.directory.path), so they were left as they are.",
                                hint: "Make the state folder writable (NFCBENCH_STATE_DIR or XDG_STATE_HOME), then run again."))
                    }
                }
            }
            if let status = self.device.setAnalogSettings(profile.settings) { return .failure(self.failure(status)) }
            return .success(())
        }
    }

    /// The profile applied and the field cycled, so the phone is met afresh (a selected
    /// phone from the stronger field is gone), then one poll round.
    public func listen(at profile: AnalogProfile, window: Duration) async throws(ReaderError) -> TapWindow {
        try await apply(profile)
        try await switchField(on: false)
        try await switchField(on: true)
        return try await pollWindow(window)
    }

    /// libnfc talks to the chip itself, phone or not.
    public var listensWithoutATarget: Bool { true }

    public func restoreAnalogSettings() async throws(ReaderError) {
        try await interruptible(timeout: Self.analogTimeout) { _, _ -> Result<Void, ReaderError> in
            self.restorePendingAnalogSettings()
        }
    }

    /// Puts back journalled settings, if any; on the libnfc queue.
    func restorePendingAnalogSettings() -> Result<Void, ReaderError> {
        switch device.restoreJournalledAnalogSettings(analogJournal, connstring: connstring) {
        case .success: .success(())
        case .failure(let status): .failure(failure(status))
        }
    }

    /// A register read or an RFConfiguration takes a PN532 a few milliseconds each.
    static let analogTimeout = Duration.seconds(3)
}

extension LibNFCDevice {
    /// RFConfiguration item 0x0A.
    func setAnalogSettings(_ settings: [UInt8]) -> LibNFCStatus? { send([0x32, 0x0A] + settings) }

    /// Puts back the settings `journal` holds for `connstring`, if any, and clears it once
    /// they are back: at open (after a killed session) and at close alike. The settings put
    /// back, `nil` when none were pending.
    func restoreJournalledAnalogSettings(_ journal: AnalogJournal, connstring: String) -> Result<[UInt8]?, LibNFCStatus> {
        guard let original = journal.original(for: connstring) else { return .success(nil) }
        if let status = setAnalogSettings(original) { return .failure(status) }
        journal.clear(for: connstring)
        return .success(original)
    }

    /// Item 0x0A as the chip holds it now: each byte from its CIU register; the one the
    /// firmware keeps alone (demodulator settings with the own field off) as its default.
    func analogSettings() -> Result<[UInt8], LibNFCStatus> {
        var values: [UInt8] = []
        for register in AnalogProfile.registers.compactMap({ $0 }) {
            switch self.register(register) {
            case .success(let value): values.append(value)
            case .failure(let status): return .failure(status)
            }
        }
        return .success(AnalogProfile.settings(fromRegisters: values))
    }
}
