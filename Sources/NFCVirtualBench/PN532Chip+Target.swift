import Foundation
import NFCReaders

/// Target mode: the PN532 emulates an ISO 14443-4A card (a Type 4 tag, in nfcbench's tag
/// mode or libnfc's `nfc-emulate-forum-tag4`) and the phone on the bench is the reader.
///
/// As the PN532 user manual describes it for PICC emulation: TgInitAsTarget waits until
/// an initiator activates the chip (the chip answers the anticollision and RATS itself)
/// and returns the mode byte and the RATS; TgGetData waits for the initiator's next
/// command; TgSetData sends the answer; both report status 0x29 once the initiator has
/// released the target (the phone left the field or finished).
extension PN532Chip {
    /// One activation by the phone: its reader, tied to the field entry it came in.
    struct TargetSession: Sendable {
        let entry: Int
        var reader: PhoneTagReader
        /// The phone's next command, until TgGetData takes it.
        var outbound: [UInt8]?
    }

    static let targetReleased: UInt8 = 0x29

    /// Air time at 106 kbps (ISO 14443-2 type A): 9 bit periods of 128/fc (9.44 µs) per
    /// byte with its parity, three bytes of framing (PCB and CRC), and the minimum frame
    /// delay (1172/fc, 86 µs). The emulated chip answers a target command only once the
    /// frame it carries would have crossed the air, as the real one does.
    static func airTime(bytes: Int) -> Duration { .nanoseconds((bytes + 3) * 9 * 9_440 + 86_000) }
    /// Activation: REQA/ATQA, anticollision and SELECT/SAK for a 4-byte UID, then RATS/ATS.
    static let activationAirTime = Duration.microseconds(2_500)
    /// Mode byte of a PICC activation: 106 kbps, ISO 14443-4 PICC, MIFARE framing.
    static let piccMode: UInt8 = 0x08

    mutating func initAsTarget(_ args: [UInt8]) -> Reply {
        // Mode, MIFARE parameters (6), FeliCa parameters (18), NFCID3t (10), then the
        // lengths of the general and historical bytes: 37 bytes at least.
        guard args.count >= 37 else { return .syntaxError }
        targetSession = nil
        if let activated = activate() { return .respond(activated) }
        return .pending(PendingCommand(command: 0x8C, types: [], brTy: 0, deadline: nil))
    }

    /// The mode byte and the initiator's first command (RATS), when a phone couples now
    /// in a field entry that has not activated this chip yet.
    mutating func activate() -> [UInt8]? {
        guard bench.visibleTarget() != nil else { return nil }
        let entry = bench.snapshot.fieldEntries
        guard entry != lastTargetEntry else { return nil }
        lastTargetEntry = entry
        var reader = PhoneTagReader(abortAfter: bench.tagReaderAbortAfter)
        let first = reader.start()
        airTime += Self.activationAirTime
        targetSession = TargetSession(entry: entry, reader: reader, outbound: first)
        if first == nil { bench.recordTagRead(reader.outcome, entry: entry) }
        return [Self.piccMode, 0xE0, 0x80]  // RATS: FSDI 256 bytes, CID 0
    }

    /// TgGetData: the phone's next command, or released once it left or finished.
    mutating func getData() -> Reply {
        guard var session = targetSession else { return .respond([Self.targetReleased]) }
        guard phoneStillThere(session) else { return .respond(release()) }
        if let command = session.outbound {
            session.outbound = nil
            targetSession = session
            airTime += Self.airTime(bytes: command.count)
            return .respond([0x00] + command)
        }
        return .respond(release())
    }

    /// TgSetData: hands the tag's answer to the phone, which decides its next command.
    mutating func setData(_ args: [UInt8]) -> Reply {
        guard var session = targetSession, phoneStillThere(session) else { return .respond(release()) }
        // A phone pulled away mid-read: gone with its field once N commands were answered,
        // the answer to the last one lost on the way.
        if let leaves = bench.tagReaderLeavesAfter, session.reader.commands >= leaves {
            bench.lift()
            return .respond([0x00])
        }
        airTime += Self.airTime(bytes: args.count)
        session.outbound = session.reader.receive(args)
        if session.outbound == nil { bench.recordTagRead(session.reader.outcome, entry: session.entry) }
        targetSession = session
        return .respond([0x00])
    }

    /// Waits out the air time the last command's frames took, then clears it (the
    /// emulator calls this before it writes the answer).
    mutating func waitForAirTime() {
        guard airTime > .zero else { return }
        usleep(UInt32(airTime.seconds * 1_000_000))
        airTime = .zero
    }

    /// TgGetTargetStatus: activated (0x01) with 106 kbps both ways, or released (0x00).
    func targetStatus() -> Reply {
        guard let session = targetSession, phoneStillThere(session) else { return .respond([0x00, 0x00]) }
        return .respond([0x01, 0x00])
    }

    private func phoneStillThere(_ session: TargetSession) -> Bool {
        bench.visibleTarget() != nil && bench.snapshot.fieldEntries == session.entry
    }

    /// The phone went away: a read it had not finished is recorded as given up.
    private mutating func release() -> [UInt8] {
        if let session = targetSession, case .reading = session.reader.outcome {
            var reader = session.reader
            reader.abandon("the phone left the field")
            bench.recordTagRead(reader.outcome, entry: session.entry)
        }
        targetSession = nil
        return [Self.targetReleased]
    }
}
