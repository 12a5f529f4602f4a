import NFCReaders

/// The analog settings of an ACR122U's PN532 through PC/SC: RFConfiguration item 0x0A
/// sent as a Direct Transmit (`FF 00 00 00 Lc D4 32 0A ...`), with the firmware's own
/// polling turned off first (the PICC operating parameter's bit 7) so that the host polls
/// the weakened field itself with InAutoPoll, and back on when the default is applied.
///
/// The settings before the first change are read from the chip's CIU registers
/// (ReadRegister through the same path) and journalled (`AnalogJournal`, under the
/// reader's spec), then put back at the end of a run, at close, and at the next open or
/// card connection after a session that could not (`kill -9`). The auto-polling bit is
/// journalled with the PICC parameter (`PICCParameterGuard`).
///
/// Every command needs the escape path: `SCardControl` where libccid allows it
/// (`ifdDriverOptions` 0x0001, `doctor` says), else the card connection of the tap that
/// was just read. The ladder is walked right after a HIT, so the phone is on the reader.
extension PCSCReader: AnalogProfiling {
    /// The reader's spec, which the journal names so that `doctor` opens it again; the
    /// journal's file is the device's (`deviceKey`) where the driver names one.
    var analogKey: String { "pcsc:\(readerName)" }

    /// Weaker profiles take the chip from the firmware; the default (the ladder's top and
    /// the run's own field) gives it back, so the next tap is polled as any other.
    public func apply(_ profile: AnalogProfile) async throws(ReaderError) {
        try await interruptible { [self] () throws(ReaderError) in
            if profile == .pn532Default {
                // Nothing weakened, nothing to put back: a MISS checked with no card to reach
                // the chip through changed nothing.
                guard analogJournal.original(for: analogKey, device: deviceKey) != nil || picc.suspendedFrom != nil else {
                    return
                }
                try writeAnalog(profile.settings, escapeChannel())
                // The chip holds what it had before the first change: nothing left to put
                // back, even if the phone is gone by the end of the run.
                if analogJournal.original(for: analogKey, device: deviceKey) == profile.settings {
                    analogJournal.clear(for: analogKey, device: deviceKey)
                }
                guard picc.resumeAutoPolling(escapeChannel()) else { throw unreachable("turn its own polling back on") }
            } else {
                try weaken(to: profile)
            }
        }
    }

    /// The profile applied, the field switched off so the phone is met afresh, and one
    /// InAutoPoll round of about `window` (the chip switches its field back on to poll).
    /// A chip out of reach (no escape path and no card, after a MISS) is a faulty round:
    /// it says nothing about the phone.
    public func listen(at profile: AnalogProfile, window: Duration) async throws(ReaderError) -> TapWindow {
        try await interruptible { [self] () throws(ReaderError) -> TapWindow in
            do throws(ReaderError) {
                try weaken(to: profile)
                let channel = escapeChannel()
                let start = ContinuousClock.now
                _ = try chip(0x32, [0x01, 0x00], channel)
                let answer = try chip(0x60, AutoPollAnswer.parameters(window: window), channel)
                guard let target = try AutoPollAnswer.firstTarget(answer, latency: .now - start, reader: readerName) else {
                    return .clean
                }
                return .target(target)
            } catch  where error.code == .garbage || error.code == .failed {
                return .faulty(error)
            }
        }
    }

    /// Only when the driver passes escape commands (`SCardControl`): asked once per call,
    /// because a replugged reader or an edited driver configuration changes the answer.
    public var listensWithoutATarget: Bool {
        get async {
            let reachable = try? await interruptible { [self] () throws(ReaderError) -> Bool in
                escapeByControl(DirectTransmit.command(0x02, [])) != nil
            }
            return reachable ?? false
        }
    }

    public func restoreAnalogSettings() async throws(ReaderError) {
        try await interruptible { [self] () throws(ReaderError) in
            restorePendingAnalog(escapeChannel())
            guard analogJournal.original(for: analogKey, device: deviceKey) == nil else {
                throw unreachable("put its analog settings back")
            }
            guard picc.resumeAutoPolling(escapeChannel()) else { throw unreachable("turn its own polling back on") }
        }
    }

    // MARK: - On `queue`

    /// Auto polling off and the settings before noted, then `profile` written.
    private func weaken(to profile: AnalogProfile) throws(ReaderError) {
        let channel = escapeChannel()
        guard picc.suspendAutoPolling(channel) else { throw unreachable("turn its own polling off") }
        if analogJournal.original(for: analogKey, device: deviceKey) == nil {
            let original = try analogSettings(channel)
            // Never change what could not be noted: a kill would leave it weakened.
            guard analogJournal.record(original, for: analogKey, device: deviceKey) else {
                // Not `.failed`: a grading run must stop here, not go on ungraded.
                throw ReaderError(
                    .permissionDenied,
                    "Cannot note the analog settings of reader '\(readerName)' in \(analogJournal.directory.path), so they were left as they are.",
                    hint: "Make the state folder writable (NFCBENCH_STATE_DIR or XDG_STATE_HOME), then run again.")
            }
        }
        try writeAnalog(profile.settings, channel)
    }

    /// Puts back journalled settings, if any, and clears the journal once they are back;
    /// a reader out of reach keeps them journalled for later.
    func restorePendingAnalog(_ channel: PICCParameterGuard.Channel) {
        guard let original = analogJournal.original(for: analogKey, device: deviceKey) else { return }
        do throws(ReaderError) {
            try writeAnalog(original, channel)
            analogJournal.clear(for: analogKey, device: deviceKey)
        } catch {}
    }

    private func writeAnalog(_ settings: [UInt8], _ channel: PICCParameterGuard.Channel) throws(ReaderError) {
        _ = try chip(0x32, [0x0A] + settings, channel)
    }

    /// Item 0x0A as the chip holds it: one ReadRegister of the ten CIU registers it sets.
    private func analogSettings(_ channel: PICCParameterGuard.Channel) throws(ReaderError) -> [UInt8] {
        let addresses = AnalogProfile.registers.compactMap { $0 }
        let values = try chip(0x06, addresses.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, channel)
        guard values.count == addresses.count else {
            throw .garbage(readerName, underlying: "ReadRegister answered \(Hex.string(values, separator: " "))")
        }
        return AnalogProfile.settings(fromRegisters: values)
    }

    /// One PN532 command by Direct Transmit; its response data, or a typed error.
    private func chip(_ code: UInt8, _ parameters: [UInt8], _ channel: PICCParameterGuard.Channel) throws(ReaderError)
        -> [UInt8]
    {
        guard var answer = channel.send(DirectTransmit.command(code, parameters)) else {
            throw unreachable("take a command for its chip")
        }
        if case .pending(let length) = DirectTransmit.parse(answer, code: code) {
            guard let fetched = channel.send(DirectTransmit.getResponse(length)) else {
                throw unreachable("give its chip's answer")
            }
            answer = fetched
        }
        switch DirectTransmit.parse(answer, code: code) {
        case .data(let data): return data
        case .pending, .refused:
            let answered = Hex.string(answer, separator: " ")
            throw .garbage(
                readerName, underlying: "Direct Transmit of PN532 command \(Hex.string([code])) answered \(answered)")
        }
    }

    private func unreachable(_ what: String) -> ReaderError {
        ReaderError(
            .failed, "Reader '\(readerName)' could not \(what).",
            hint: "Keep the phone on the reader while its field is graded, or let libccid pass escape commands "
                + "(ifdDriverOptions 0x0001; 'nfcbench doctor' shows it).")
    }
}
