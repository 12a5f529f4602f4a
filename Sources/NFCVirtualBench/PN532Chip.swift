import NFCReaders

/// The command layer of an emulated PN532 (firmware 1.6), enough for libnfc's
/// `pn532_uart` driver: initialisation, registers, RF configuration, target discovery
/// (InListPassiveTarget, InAutoPoll), presence checks and data exchange.
///
/// The RF field is the chip's own: RFConfiguration item 0x01 switches it, and a
/// discovery command switches it back on by itself, as the firmware does (libnfc's
/// barcode polling relies on it: it drops the field and transmits; nfcpy mutes with
/// `32 01 02` and polls). A phone in place answers as soon as the field is on again, but
/// a field cycle powers its selected state down: it must be discovered anew, as a card
/// is after a reset. Only this chip's view depends on its field; the bench's other
/// readers (vpcd) see the phone regardless.
///
/// It only decides *what* to answer; `PN532Emulator` decides *when* and moves bytes.
/// A command that waits for a target (InAutoPoll, InListPassiveTarget with infinite
/// retries) is returned as `.pending` and re-evaluated until it can answer, reaches its
/// own deadline (libnfc sets no timeout for InAutoPoll, so the chip must end it), or
/// the host aborts it with an ACK.
public struct PN532Chip: Sendable {
    public enum Reply: Sendable, Equatable {
        /// Response data after the response code.
        case respond([UInt8])
        /// Unsupported command: the chip answers with an application error frame.
        case syntaxError
        case pending(PendingCommand)
    }

    public struct PendingCommand: Sendable, Equatable {
        public let command: UInt8
        let types: [UInt8]
        let brTy: UInt8
        /// `nil` waits forever.
        let deadline: Duration?
    }

    public static let firmware: [UInt8] = [0x32, 0x01, 0x06, 0x07]  // PN532, v1.6, ISO A/B + ISO 18092

    let bench: PhoneOnBench
    private var registers: [UInt16: UInt8] = [:]
    private var passiveActivationRetries: UInt8 = 0xFF
    private(set) var fieldOn = true
    /// Times the field came back on after being off: a selected target from before is gone.
    private var fieldCycles = 0
    /// The target libnfc selected, tagged with the field entry and the field cycle it came
    /// from, so a presence check fails once the phone was lifted (even if it came back) or
    /// the field went off in between.
    private var selected: (target: SimulatedTarget, entry: Int, cycle: Int)?
    /// Target mode: the phone reading this chip's emulated tag (`PN532Chip+Target`), and
    /// the field entry that last activated it (one activation per placement).
    var targetSession: TargetSession?
    var lastTargetEntry: Int?
    /// Air time of the frames the current target command carries (`PN532Chip+Target`).
    var airTime = Duration.zero

    /// RFConfiguration item 0x0A as last set: a weaker field reaches only a phone whose
    /// coupling meets its threshold (`AnalogProfile.threshold`, docs/coupling.md).
    private(set) var analogSettings = AnalogProfile.pn532Default.settings
    /// `analogSettings`' threshold, kept with them: discovery asks it at every poll.
    private var fieldThreshold = 0.0

    /// Whether the bench hears of this chip's field (the machine's log shows it): the
    /// pty reader's chip does; the one behind vpcd (`VPCDCard`) stays out of that log.
    private let notesField: Bool

    public init(bench: PhoneOnBench, notesField: Bool = true) {
        self.bench = bench
        self.notesField = notesField
        setAnalog(AnalogProfile.pn532Default.settings)
    }

    /// Item 0x0A's bytes, and the CIU registers they set (read back with ReadRegister).
    private mutating func setAnalog(_ settings: [UInt8]) {
        analogSettings = settings
        fieldThreshold = AnalogProfile(name: "chip", settings: settings).threshold
        for (value, register) in zip(settings, AnalogProfile.registers) {
            if let register { registers[register] = value }
        }
    }

    /// Whether the field, as the analog settings make it, reaches the phone where it lies
    /// (and, for a phone that saturates, does not overwhelm it).
    func fieldReachesPhone() -> Bool {
        bench.answers(fieldThreshold: fieldThreshold)
    }

    public mutating func receive(_ data: [UInt8], now: Duration) -> Reply {
        guard let command = data.first else { return .syntaxError }
        let args = Array(data.dropFirst())
        switch command {
        case 0x00: return diagnose(args)
        case 0x02: return .respond(Self.firmware)
        case 0x04: return .respond(generalStatus())
        case 0x06: return .respond(readRegisters(args))
        case 0x08: writeRegisters(args); return .respond([])
        case 0x0C: return .respond([0xFF, 0xFF, 0x00])  // ReadGPIO
        case 0x0E, 0x10, 0x12, 0x14: return .respond([])  // WriteGPIO, SetSerialBaudRate, SetParameters, SAMConfiguration
        case 0x16: return .respond([0x00])  // PowerDown
        case 0x32: rfConfiguration(args); return .respond([])
        case 0x4A: return listPassiveTarget(args, now: now)
        case 0x60: return autoPoll(args, now: now)
        case 0x40, 0x42: return .respond(exchange(args, thru: command == 0x42))
        case 0x44, 0x52: selected = nil; return .respond([0x00])  // InDeselect, InRelease
        case 0x54: return .respond([selectedIsPresent() ? 0x00 : 0x27])  // InSelect
        case 0x8C: return initAsTarget(args)
        case 0x86: return getData()
        case 0x8E: return setData(args)
        case 0x8A: return targetStatus()
        default: return .syntaxError
        }
    }

    /// Re-evaluates a waiting command: a response when it can answer, else `nil`.
    public mutating func poll(_ pending: PendingCommand, now: Duration) -> [UInt8]? {
        if pending.command == 0x8C { return activate() }
        if let found = discover(types: pending.types, brTy: pending.brTy, command: pending.command) { return found }
        if let deadline = pending.deadline, now >= deadline { return [0x00] }  // NbTg = 0
        return nil
    }

    // MARK: - Commands

    private func diagnose(_ args: [UInt8]) -> Reply {
        switch args.first {
        case 0x00?: return .respond(args)  // communication line test: echo
        case 0x06?: return .respond([selectedIsPresent() ? 0x00 : 0x01])  // ISO 14443-4 card presence
        case nil: return .syntaxError
        default: return .respond([0x00])
        }
    }

    private func generalStatus() -> [UInt8] {
        guard let selected, selectedIsPresent() else { return [0x00, fieldOn ? 1 : 0, 0x00, 0x00] }
        let type: UInt8 = selected.target.technology == .iso14443A ? 0x00 : 0x03
        return [0x00, fieldOn ? 1 : 0, 0x01, 0x01, 0x00, 0x00, type, 0x00]
    }

    private func readRegisters(_ args: [UInt8]) -> [UInt8] {
        stride(from: 0, to: args.count - 1, by: 2).map { i in registers[UInt16(args[i]) << 8 | UInt16(args[i + 1])] ?? 0 }
    }

    private mutating func writeRegisters(_ args: [UInt8]) {
        for i in stride(from: 0, to: args.count - 2, by: 3) {
            registers[UInt16(args[i]) << 8 | UInt16(args[i + 1])] = args[i + 2]
        }
    }

    private mutating func rfConfiguration(_ args: [UInt8]) {
        switch args.first {
        case 0x01?: switchField(on: args.count > 1 && args[1] & 0x01 != 0)
        case 0x05? where args.count >= 4: passiveActivationRetries = args[3]
        case 0x0A? where args.count >= 12: setAnalog(Array(args[1...11]))
        default: break
        }
    }

    /// The field's state, and the bench told of it (the machine's log shows it).
    private mutating func switchField(on: Bool) {
        if on && !fieldOn { fieldCycles += 1 }
        fieldOn = on
        if notesField { bench.noteReaderField(on: on) }
    }

    private mutating func listPassiveTarget(_ args: [UInt8], now: Duration) -> Reply {
        guard args.count >= 2 else { return .syntaxError }
        switchField(on: true)
        let brTy = args[1]
        if let found = discover(types: [], brTy: brTy, command: 0x4A) { return .respond(found) }
        // Infinite retries wait for a target; finite ones give up within milliseconds.
        if passiveActivationRetries == 0xFF {
            return .pending(PendingCommand(command: 0x4A, types: [], brTy: brTy, deadline: nil))
        }
        return .respond([0x00])
    }

    private mutating func autoPoll(_ args: [UInt8], now: Duration) -> Reply {
        guard args.count >= 3 else { return .syntaxError }
        switchField(on: true)
        let pollNr = args[0], period = max(args[1], 1), types = Array(args[2...])
        if let found = discover(types: types, brTy: 0, command: 0x60) { return .respond(found) }
        // Period is in units of 150 ms per target type; PollNr 0xFF polls forever.
        let deadline: Duration? =
            pollNr == 0xFF
            ? nil : now + .milliseconds(Int(pollNr) * Int(period) * 150 * types.count)
        return .pending(PendingCommand(command: 0x60, types: types, brTy: 0, deadline: deadline))
    }

    private mutating func exchange(_ args: [UInt8], thru: Bool) -> [UInt8] {
        guard selectedIsPresent() else { return [0x01] }  // status: timeout, target gone
        guard thru else {
            // InDataExchange: the chip wraps the APDU in ISO-DEP itself. A phone answers
            // SELECT of Android's HCE AID when it is an Android phone, 6A 82 otherwise.
            let apdu = Array(args.dropFirst())
            // A card without ISO-DEP never answers an APDU: the chip times out (status 01).
            guard let target = selected?.target, target.technology == .iso14443B || target.sak & 0x20 != 0 else {
                return [0x01]
            }
            guard apdu.count > 1, apdu[0] == 0x00, apdu[1] == 0xA4 else { return [0x00, 0x90, 0x00] }
            return [0x00] + target.answer(toSelect: apdu)
        }
        // InCommunicateThru: raw frames. A phone speaks ISO-DEP only (I-, R- and S-blocks),
        // and a type B phone answers WUPB/REQB; probes for other protocols (ST SRx, ASK CTx,
        // B') get no answer, as on air.
        guard let pcb = args.first else { return [0x01] }
        switch pcb {
        case 0x02, 0x03: return [0x00, pcb, 0x6A, 0x82]  // I-block: answer in the same block number
        case 0xA2, 0xA3, 0xB2, 0xB3: return [0x00, 0xA2 | (pcb & 0x01)]  // R-block: R(ACK)
        case 0xC2: return [0x00, 0xC2]  // S(DESELECT)
        case 0xCA where args.count >= 2: return [0x00, 0xCA, args[1]]  // S(DESELECT) with its CID (nfcpy's DID 1)
        case 0x05 where args.count >= 3 && selected?.target.technology == .iso14443B:
            // WUPB/REQB (05 AFI PARAM): the phone, halted by a DESELECT or not, answers its ATQB.
            return [0x00] + (selected?.target.atqb ?? [])
        default: return [0x01]
        }
    }

    // MARK: - Discovery

    /// Target data for a command, or `nil` when no suitable target is in the field.
    private mutating func discover(types: [UInt8], brTy: UInt8, command: UInt8) -> [UInt8]? {
        guard fieldOn, let target = bench.visibleTarget(), fieldReachesPhone() else { return nil }
        let entry = bench.snapshot.fieldEntries
        if command == 0x4A {
            let wanted: TargetTechnology = brTy == 0x03 ? .iso14443B : .iso14443A
            guard (brTy == 0x00 || brTy == 0x03), target.technology == wanted else { return nil }
            selected = (target, entry, fieldCycles)
            return [0x01] + targetData(target)
        }
        for type in types {
            let matches: Bool =
                switch type {
                case 0x00, 0x10: target.technology == .iso14443A
                case 0x20: target.technology == .iso14443A && target.sak & 0x20 != 0
                case 0x03, 0x23: target.technology == .iso14443B
                default: false
                }
            guard matches else { continue }
            selected = (target, entry, fieldCycles)
            let data = targetData(target)
            return [0x01, type, UInt8(data.count)] + data
        }
        return nil
    }

    /// Tg followed by the InListPassiveTarget target data for the target's technology.
    private func targetData(_ t: SimulatedTarget) -> [UInt8] {
        switch t.technology {
        case .iso14443A:
            var data: [UInt8] = [0x01] + t.atqa + [t.sak, UInt8(t.uid.count)] + t.uid
            if t.sak & 0x20 != 0 { data += [UInt8(t.ats.count + 1)] + t.ats }
            return data
        case .iso14443B:
            return [0x01] + t.atqb + [0x01, 0x00]  // ATTRIB_RES: one byte (MBLI/CID)
        }
    }

    private func selectedIsPresent() -> Bool {
        guard fieldOn, let selected, let visible = bench.visibleTarget(), fieldReachesPhone() else { return false }
        return visible == selected.target && bench.snapshot.fieldEntries == selected.entry
            && selected.cycle == fieldCycles
    }
}
