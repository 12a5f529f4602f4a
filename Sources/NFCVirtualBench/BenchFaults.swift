import Synchronization

/// Faults the control channel can inject into the virtual bench.
public enum BenchFault: String, Sendable, CaseIterable {
    case none
    /// Every answer arrives 600 ms late, past libnfc's per-command timeout. Through vpcd
    /// with no phone on the reader, the link shows as a card whose answer to reset is cut
    /// short: pcscd cannot see a slow link otherwise.
    case slow
    /// Answers are corrupted (bad checksums, junk bytes).
    case garbage
    /// The reader stops answering at all: the emulated PN532 neither acknowledges nor
    /// answers a command, and clearing the fault replugs it (a PN532 that stopped
    /// mid-command never sends the ACK libnfc waits for; only a replug ends that wait).
    /// Behind vpcd, with or without the phone, the link shows as a card whose answer to
    /// reset is cut short, which pcscd reports as a mute card: a card that never answers
    /// reset at all stalls vpcd's reader, and an empty answer reads as an empty field.
    case mute
    /// The reader vanishes: the pty closes, the virtual card disconnects.
    case unplug
}

/// Reader-side state that outlives a card connection: the ACR122U PICC operating
/// parameter and LED/buzzer commands, as the virtual reader firmware keeps them.
public struct ReaderFirmwareState: Sendable {
    /// ACR122U default: all polling types on, auto PICC polling, auto ATS.
    public var piccParameter: UInt8 = 0xFF
    public var piccWrites: [UInt8] = []
    public var ledCommands: [[UInt8]] = []
    public var apduCount = 0
}

/// Shared, lock-protected switches of one virtual bench.
public final class BenchControls: Sendable {
    private let faultState = Mutex(BenchFault.none)
    private let firmwareState = Mutex(ReaderFirmwareState())
    private let pullState = Mutex<Int?>(nil)
    private let stallState = Mutex<Duration?>(nil)
    private let targetInitFaultState = Mutex<BenchFault?>(nil)

    public init() {}

    /// Pulls the cable as the host sends the reader's `n`-th answer to a phone in tag mode
    /// (TgSetData, counted from 1): a reader lost in the middle of an exchange, which no
    /// timing from outside can hit reliably.
    public var unplugAtTargetAnswer: Int? {
        get { pullState.withLock { $0 } }
        set { pullState.withLock { $0 = newValue } }
    }

    /// Holds the answer to the next poll (InAutoPoll) back this long, once: what a host
    /// that stalled while the chip answered looks like from the host (the answer is whole,
    /// only late), as against `slow`, a link that is late every time.
    public var stallNextPollAnswer: Duration? {
        get { stallState.withLock { $0 } }
        set { stallState.withLock { $0 = newValue } }
    }

    /// Turns this fault on as the chip starts waiting as a target (TgInitAsTarget), once:
    /// a fault that begins inside a tag window, after its opening link check, which no
    /// timer from outside can place reliably on a loaded machine.
    public var faultAtTargetInit: BenchFault? {
        get { targetInitFaultState.withLock { $0 } }
        set { targetInitFaultState.withLock { $0 = newValue } }
    }

    /// The fault to turn on at this TgInitAsTarget, once.
    func takeFaultAtTargetInit() -> BenchFault? {
        targetInitFaultState.withLock { fault in
            defer { fault = nil }; return fault
        }
    }

    /// The stall to apply to this poll answer, once.
    func takePollStall() -> Duration? {
        stallState.withLock { stall in
            defer { stall = nil }; return stall
        }
    }

    /// Counts one TgSetData; whether the cable is to be pulled now.
    func pullsAtThisTargetAnswer() -> Bool {
        pullState.withLock { remaining in
            guard let n = remaining else { return false }
            remaining = n > 1 ? n - 1 : nil
            return n <= 1
        }
    }

    public var fault: BenchFault {
        get { faultState.withLock { $0 } }
        set { faultState.withLock { $0 = newValue } }
    }

    public func firmware<T: Sendable>(_ body: (inout ReaderFirmwareState) -> T) -> T {
        firmwareState.withLock { state in body(&state) }
    }
}
