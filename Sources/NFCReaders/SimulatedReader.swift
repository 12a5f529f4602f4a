import Foundation
import Synchronization

/// An in-process reader over a `PhoneOnBench`, for demos and unit tests.
public final class SimulatedReader: Reader {
    public let bench: PhoneOnBench
    public let info: ReaderInfo
    /// How often the simulated field is sampled.
    let pollInterval: Duration
    /// The threshold of the analog profile applied (`SimulatedReader+Analog`): `nil` at the
    /// default field, where the placement's own draw alone decides whether the phone reads.
    let weakenedThreshold = Mutex<Double?>(nil)

    public init(bench: PhoneOnBench, pollInterval: Duration = .milliseconds(5)) {
        self.bench = bench
        self.pollInterval = pollInterval
        info = ReaderInfo(backend: .sim, name: "Simulated reader", spec: "sim", firmware: "nfcbench-sim")
    }

    /// Polls the simulated field on the bench's clock, so a session over a
    /// `VirtualBenchClock` runs in virtual time.
    public func waitForTarget(timeout: Duration) async throws(ReaderError) -> DetectedTarget? {
        let clock = bench.clock
        let start = clock.now
        while true {
            if let t = reachedTarget() { return detected(t, latency: clock.now - start) }
            if clock.now - start >= timeout { return nil }
            do { try await clock.sleep(for: pollInterval) } catch { throw .cancelled(info.name) }
        }
    }

    /// The target coupled now, if the field as weakened still reaches it.
    func reachedTarget() -> SimulatedTarget? {
        guard let target = bench.visibleTarget(), fieldReachesPhone() else { return nil }
        return target
    }

    /// Whether the field, as the applied profile weakens it, reaches the phone where it lies,
    /// as the emulated PN532 asks (`PN532Chip.fieldReachesPhone`); the default field always does.
    func fieldReachesPhone() -> Bool {
        guard let threshold = weakenedThreshold.withLock({ $0 }) else { return true }
        return bench.answers(fieldThreshold: threshold)
    }

    func detected(_ t: SimulatedTarget, latency: Duration) -> DetectedTarget {
        var detected = DetectedTarget(
            technology: t.technology, uid: t.uid,
            atqa: t.technology == .iso14443A ? t.atqa : nil, sak: t.technology == .iso14443A ? t.sak : nil,
            ats: t.technology == .iso14443A && t.sak & 0x20 != 0 ? t.ats : nil,
            atqb: t.technology == .iso14443B ? t.atqb : nil, latency: latency, reader: info.name)
        // The simulated field answers the Android HCE probe as the emulators do.
        if t.technology == .iso14443B || t.sak & 0x20 != 0 {
            detected.platformProbe = AndroidHCEProbe.platform(fromAnswer: t.answer(toSelect: AndroidHCEProbe.select))
        }
        return detected
    }

    public func waitForRemoval(timeout: Duration) async throws(ReaderError) -> Bool {
        let clock = bench.clock
        let start = clock.now
        while bench.visibleTarget() != nil {
            if clock.now - start >= timeout { return false }
            do { try await clock.sleep(for: pollInterval) } catch { throw .cancelled(info.name) }
        }
        return true
    }

    public func fieldOccupant() async throws(ReaderError) -> DetectedTarget? {
        try await waitForTarget(timeout: .zero)
    }

    public func close() async {}
}

/// The simulated reader emulates a tag in process: a phone coupled in the window reads it
/// with `PhoneTagReader` against `Type4Tag`, each command taking a few milliseconds of the
/// bench's clock, as over the air.
extension SimulatedReader: TagEmulating {
    static let commandTime = Duration.milliseconds(4)

    public var capabilities: ReaderCapabilities {
        ReaderCapabilities(tagEmulator: self, tagEmulation: .supported, analogProfile: self)
    }

    public func emulateTag(_ message: NDEFMessage, window: Duration) async throws(ReaderError) -> TagWindow {
        let clock = bench.clock
        let start = clock.now
        while bench.visibleTarget() == nil {
            if clock.now - start >= window { return .clean }
            do { try await clock.sleep(for: pollInterval) } catch { throw .cancelled(info.name) }
        }
        let activated = clock.now
        let entry = bench.snapshot.fieldEntries
        var tag = Type4Tag(message: message)
        var phone = PhoneTagReader(abortAfter: bench.tagReaderAbortAfter)
        var lastRead: Duration?
        var command = phone.start()
        while let c = command {
            do { try await clock.sleep(for: Self.commandTime) } catch { throw .cancelled(info.name) }
            guard bench.visibleTarget() != nil, bench.snapshot.fieldEntries == entry else {
                phone.abandon("the phone left the field")
                break
            }
            let answer = tag.respond(to: c)
            if c.count > 1, c[1] == 0xB0 { lastRead = clock.now }
            command = phone.receive(answer)
        }
        bench.recordTagRead(phone.outcome, entry: entry)
        return .read(
            TagReadResult(
                progress: tag.progress, messageBytes: tag.messageBytesRead, activation: activated - start,
                readTime: lastRead.map { $0 - activated }))
    }
}
