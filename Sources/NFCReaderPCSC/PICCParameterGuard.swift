import NFCReaders

/// ACR122U hygiene: the PICC operating parameter (`FF 00 50 00 00` reads it,
/// `FF 00 51 XX 00` sets it) decides which card types the reader polls for. libnfc's
/// acr122 drivers change it and never put it back, which leaves readers silent for
/// the next program. nfcbench reads it once, narrows polling to ISO 14443 A and B
/// (faster for phones), and restores the original value when it closes the reader,
/// including on Ctrl-C (the CLI turns SIGINT into an orderly close).
///
/// Readers that do not answer `FF 00 50` (not an ACR122U-family firmware) are left
/// alone.
public struct PICCParameterGuard: Sendable {
    /// Sends a pseudo-APDU or escape command; `nil` when no channel is available.
    public struct Channel {
        let send: (_ command: [UInt8]) -> [UInt8]?
        public init(_ send: @escaping (_ command: [UInt8]) -> [UInt8]?) { self.send = send }
    }

    public struct Report: Sendable, Equatable {
        /// What the reader had before nfcbench (from the journal if an earlier session
        /// could not restore it).
        public var original: UInt8?
        public var applied: UInt8?
        public var restored: Bool
    }

    /// Auto PICC polling, auto ATS, 250 ms interval, ISO 14443 B and A only.
    public static let benchValue: UInt8 = 0xE3

    public private(set) var report = Report(original: nil, applied: nil, restored: false)
    /// The journal's key: the reader's device where its driver names one
    /// (`ReaderDevice.pcscKey`), else its name.
    let reader: String
    /// The name, when the key is the device: what nfcbench before the device key wrote
    /// under, still read and cleared.
    let legacy: String?
    let journal: PICCJournal

    public init(reader: String, legacy: String? = nil, journal: PICCJournal) {
        self.reader = reader
        self.legacy = legacy == reader ? nil : legacy
        self.journal = journal
    }

    /// The value journalled under the key, or under the name before it.
    private func journaled() -> UInt8? { journal.original(for: reader) ?? legacy.flatMap { journal.original(for: $0) } }

    private func clearJournal() {
        journal.clear(for: reader)
        if let legacy { journal.clear(for: legacy) }
    }

    mutating func onOpen(_ channel: Channel) { capture(channel) }

    /// The first card connection is the first chance on readers whose firmware only
    /// answers pseudo-APDUs while a card is present.
    mutating func onCardConnected(_ channel: Channel) {
        if report.original == nil { capture(channel) }
    }

    /// The parameter auto polling was turned off from (`suspendAutoPolling`), until it is back.
    private(set) var suspendedFrom: UInt8?

    /// Turns the firmware's own polling (bit 7) off, so that the host's commands to the
    /// chip (a weakened field, its own polls) are not raced by the firmware's: `run
    /// --coupling`. The value before is journaled first, as for the bench value, so a
    /// killed session leaves it for the next open to put back. `false` when the reader
    /// could not be asked or changed, or the value could not be noted.
    mutating func suspendAutoPolling(_ channel: Channel) -> Bool {
        if suspendedFrom != nil { return true }
        guard let answer = channel.send([0xFF, 0x00, 0x50, 0x00, 0x00]), answer.count == 2, answer[0] == 0x90 else {
            return false
        }
        let current = answer[1]
        guard current & Self.autoPolling != 0 else { return true }  // off already: nothing to undo
        if journaled() == nil {
            guard journal.record(current, for: reader) else { return false }
            report.original = current
        }
        guard let set = channel.send([0xFF, 0x00, 0x51, current & ~Self.autoPolling, 0x00]), set.first == 0x90 else {
            return false
        }
        suspendedFrom = current
        report.applied = current & ~Self.autoPolling
        report.restored = false
        return true
    }

    /// Auto polling back as it was before `suspendAutoPolling`; `false` when the reader did
    /// not take it (the journal still holds the value for close or the next open).
    mutating func resumeAutoPolling(_ channel: Channel) -> Bool {
        guard let value = suspendedFrom else { return true }
        guard let set = channel.send([0xFF, 0x00, 0x51, value, 0x00]), set.first == 0x90 else { return false }
        suspendedFrom = nil
        report.applied = value
        if value == report.original {
            report.restored = true
            clearJournal()
        }
        return true
    }

    /// Bit 7 of the PICC operating parameter: the firmware polls for cards by itself.
    static let autoPolling: UInt8 = 0x80

    mutating func onClose(_ channel: Channel) {
        guard let original = report.original, report.applied != nil, !report.restored else { return }
        if let answer = channel.send([0xFF, 0x00, 0x51, original, 0x00]), answer.first == 0x90 {
            report.restored = true
            clearJournal()
        }
        // Otherwise the journal keeps the original for the next session.
    }

    private mutating func capture(_ channel: Channel) {
        guard let answer = channel.send([0xFF, 0x00, 0x50, 0x00, 0x00]), answer.count == 2, answer[0] == 0x90 else { return }
        let current = answer[1]
        let journaled = journaled()
        let original = journaled ?? current
        report.original = original
        if current == Self.benchValue {
            // Narrowed already: by an earlier session that could not restore (journal),
            // or by the lab itself (then there is nothing of ours to undo).
            report.applied = journaled == nil ? nil : current
            report.restored = journaled == nil
            return
        }
        guard journal.record(original, for: reader) else { return }  // never change what we could not note
        if let set = channel.send([0xFF, 0x00, 0x51, Self.benchValue, 0x00]), set.first == 0x90 {
            report.applied = Self.benchValue
        } else {
            clearJournal()
        }
    }
}
