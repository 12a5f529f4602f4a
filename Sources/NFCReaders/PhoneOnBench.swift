import Foundation
import Synchronization

/// The simulated phone's place on the bench, shared by whoever moves it (positioner,
/// control channel) and whoever reads it (simulated reader, emulators).
///
/// Each placement is one field entry: whether the reader couples is rolled once, from
/// the seeded generator, and a coupled entry gets a fresh random UID. The roll is the
/// placement's luck and stays with it while a machine moves the reader straight up or
/// down: the phone couples at a height when the roll is below its detection probability
/// there, so it couples at every height below one where it did (the field only weakens
/// with distance), and coming down into range is a field entry of its own.
public final class PhoneOnBench: Sendable {
    public struct State: Sendable {
        public var phone: SimulatedPhone
        /// Where the reader's antenna centre is on the phone's back; `nil` when lifted.
        public var probe: (x: Double, y: Double)?
        /// The answer while coupled; `nil` when lifted or out of range.
        public var target: SimulatedTarget?
        /// Increments at every placement.
        public var fieldEntries: Int
        /// When the target becomes visible on `clock` (activation takes a few ms).
        public var visibleAt: Duration?
        /// What the phone, as a reader, made of the tags it read (tag mode), newest last.
        public var tagReads: [TagRead] = []
        /// A misbehaving phone stops its tag reads after this many commands.
        public var tagReaderAbortAfter: Int?
        /// A phone pulled away mid-read: it leaves the field after this many commands.
        public var tagReaderLeavesAfter: Int?
        /// A card in the phone's case (`StrayCard`), answering where it lies.
        public var strayCard: StrayCard?
        /// The reader's height above the back at the last placement, mm.
        public var heightMm = 0.0
        /// An emulated machine is moving the reader (`GantryEmulator`): the field must not
        /// be polled now, and polls that start anyway are counted.
        public var carriedByMovingMachine = false
        public var pollsWhileMoving = 0
        /// The placement's roll and activation delay, kept for its height changes.
        var roll = 1.0
        var activationDelayMs = 30
        /// The emulated PN532's RF field, as it last set it (`PN532Chip`): what the
        /// machine's log shows at each move. Only that reader's view depends on it.
        public var readerFieldOn = true
    }

    /// One tag read by the phone: in which field entry, and how it ended.
    public struct TagRead: Sendable, Equatable {
        public let entry: Int
        public let outcome: PhoneTagReader.Outcome
    }

    private let state: Mutex<(State, SeededGenerator)>
    /// The time activation delays are measured in.
    public let clock: any BenchClock

    public init(phone: SimulatedPhone, seed: UInt64, clock: any BenchClock = ContinuousBenchClock()) {
        self.clock = clock
        state = Mutex(
            (
                State(phone: phone, probe: nil, target: nil, fieldEntries: 0, visibleAt: nil),
                SeededGenerator(seed: seed)
            ))
    }

    public var snapshot: State { state.withLock { $0.0 } }

    /// The target if one is coupled and activated now.
    public func visibleTarget() -> SimulatedTarget? {
        let now = clock.now
        return state.withLock { s in
            guard let target = s.0.target, let at = s.0.visibleAt, now >= at else { return nil }
            return target
        }
    }

    /// Puts the phone down with the reader under (x, y), `heightMm` above the back (a
    /// machine's head can stop above it). Returns whether it coupled.
    @discardableResult
    public func place(x: Double, y: Double, heightMm: Double = 0) -> Bool {
        let now = clock.now
        return state.withLock { s in
            s.0.probe = (x, y)
            s.0.heightMm = heightMm
            s.0.fieldEntries += 1
            s.0.roll = Double.random(in: 0..<1, using: &s.1)
            s.0.activationDelayMs = Int.random(in: 15...60, using: &s.1)
            if let card = s.0.strayCard, card.covers(x: x, y: y) {
                s.0.target = card.target
                s.0.visibleAt = now + .milliseconds(s.0.activationDelayMs)
            } else if s.0.roll < s.0.phone.detectionProbability(x: x, y: y, heightMm: heightMm) {
                Self.enter(&s, now: now)
            } else {
                s.0.target = nil
                s.0.visibleAt = nil
            }
            return s.0.target != nil
        }
    }

    /// The phone answers from `now` plus its activation delay, with a fresh UID.
    private static func enter(_ s: inout (State, SeededGenerator), now: Duration) {
        s.0.target = SimulatedTarget.hce(
            technology: s.0.phone.technology, answersAndroidHCE: s.0.phone.answersAndroidHCE, using: &s.1)
        s.0.visibleAt = now + .milliseconds(s.0.activationDelayMs)
    }

    /// Moves the reader straight up or down over the same point, judged with the
    /// placement's own roll: a phone coupled now stays in the field (the same entry, the
    /// same UID) while it still couples at the new height, and leaves above it; a phone out
    /// of range enters the field (a new entry) when the reader comes down far enough.
    /// Returns whether it is coupled at the new height; `false` with nothing placed.
    @discardableResult
    public func changeHeight(to heightMm: Double) -> Bool {
        let now = clock.now
        return state.withLock { s in
            guard let probe = s.0.probe else { return false }
            s.0.heightMm = heightMm
            if let card = s.0.strayCard, card.covers(x: probe.x, y: probe.y) { return s.0.target != nil }
            let couples = s.0.roll < s.0.phone.detectionProbability(x: probe.x, y: probe.y, heightMm: heightMm)
            switch (couples, s.0.target != nil) {
            case (true, false):
                s.0.fieldEntries += 1
                Self.enter(&s, now: now)
            case (false, true):
                s.0.target = nil
                s.0.visibleAt = nil
            default: break
            }
            return couples
        }
    }

    /// The coupling of the placement now (`SimulatedPhone.coupling`), 0 with nothing placed.
    public func coupling() -> Double {
        state.withLock { s in
            guard let probe = s.0.probe else { return 0 }
            return s.0.phone.coupling(x: probe.x, y: probe.y, heightMm: s.0.heightMm)
        }
    }

    /// Whether the phone where it lies answers a field of `threshold`
    /// (`SimulatedPhone.answers`); nothing placed answers nothing.
    public func answers(fieldThreshold threshold: Double) -> Bool {
        state.withLock { s in
            guard let probe = s.0.probe else { return false }
            return s.0.phone.answers(fieldThreshold: threshold, x: probe.x, y: probe.y, heightMm: s.0.heightMm)
        }
    }

    /// Whether the reader is over the phone (placed, coupled or not).
    public var isPlaced: Bool { state.withLock { $0.0.probe != nil } }

    /// Notes the emulated PN532's field, for the machine's log.
    public func noteReaderField(on: Bool) {
        state.withLock { $0.0.readerFieldOn = on }
    }

    public var carriedByMovingMachine: Bool { state.withLock { $0.0.carriedByMovingMachine } }

    public func setCarriedByMovingMachine(_ moving: Bool) {
        state.withLock { $0.0.carriedByMovingMachine = moving }
    }

    /// A reader started polling: counted when a machine is moving it at that moment.
    public func notePollStarted() {
        state.withLock { s in if s.0.carriedByMovingMachine { s.0.pollsWhileMoving += 1 } }
    }

    public func lift() {
        state.withLock { s in
            s.0.probe = nil
            s.0.target = nil
            s.0.visibleAt = nil
        }
    }

    /// How a phone acting as a reader behaves: `nil` reads to the end, N stops after N commands.
    public var tagReaderAbortAfter: Int? {
        get { state.withLock { $0.0.tagReaderAbortAfter } }
        set { state.withLock { $0.0.tagReaderAbortAfter = newValue } }
    }

    /// How a phone acting as a reader moves: `nil` stays, N leaves the field after N commands.
    public var tagReaderLeavesAfter: Int? {
        get { state.withLock { $0.0.tagReaderLeavesAfter } }
        set { state.withLock { $0.0.tagReaderLeavesAfter = newValue } }
    }

    public func recordTagRead(_ outcome: PhoneTagReader.Outcome, entry: Int) {
        state.withLock { s in
            s.0.tagReads.append(TagRead(entry: entry, outcome: outcome))
            if s.0.tagReads.count > 100 { s.0.tagReads.removeFirst() }
        }
    }

    /// Puts a card in the phone's case, or takes it out (`nil`); from the next placement on.
    public func setStrayCard(_ card: StrayCard?) {
        state.withLock { $0.0.strayCard = card }
    }

    public func setPhone(_ phone: SimulatedPhone) {
        state.withLock { $0.0.phone = phone }
    }
}
