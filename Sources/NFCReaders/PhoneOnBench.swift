import Foundation
import Synchronization

/// The simulated phone's place on the bench, shared by whoever moves it (positioner,
/// control channel) and whoever reads it (simulated reader, emulators).
///
/// Each placement is one field entry: whether the reader couples is rolled once, from
/// the seeded generator, and a coupled entry gets a fresh random UID.
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
            let p = s.0.phone.detectionProbability(x: x, y: y, heightMm: heightMm)
            let roll = Double.random(in: 0..<1, using: &s.1)
            let delayMs = Int.random(in: 15...60, using: &s.1)
            if let card = s.0.strayCard, card.covers(x: x, y: y) {
                s.0.target = card.target
                s.0.visibleAt = now + .milliseconds(delayMs)
            } else if roll < p {
                s.0.target = SimulatedTarget.hce(
                    technology: s.0.phone.technology, answersAndroidHCE: s.0.phone.answersAndroidHCE, using: &s.1)
                s.0.visibleAt = now + .milliseconds(delayMs)
            } else {
                s.0.target = nil
                s.0.visibleAt = nil
            }
            return s.0.target != nil
        }
    }

    /// Moves the reader straight up or down over the same point: a phone coupled now stays
    /// in the field (the same entry, the same UID) if it still couples at the new height,
    /// as a real phone does while a machine lifts the reader a little; else it leaves.
    /// Returns whether it is still coupled.
    @discardableResult
    public func changeHeight(to heightMm: Double) -> Bool {
        state.withLock { s in
            guard let probe = s.0.probe, s.0.target != nil else { return false }
            let sure = max(1 - s.0.phone.missRate, 1e-9)
            if s.0.phone.detectionProbability(x: probe.x, y: probe.y, heightMm: heightMm) / sure >= 0.5 {
                s.0.heightMm = heightMm
                return true
            }
            s.0.target = nil
            s.0.visibleAt = nil
            return false
        }
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
