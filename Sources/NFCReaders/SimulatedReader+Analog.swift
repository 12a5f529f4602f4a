/// `run --coupling` on the simulated reader: a weakened field reaches the phone where its
/// coupling meets the profile's threshold (`SimulatedPhone.answers`), as on the emulated
/// PN532, so a session graded in process walks the same ladder, with the same rung law and
/// saturation, as one on the virtual bench (in the physical world, the chip's rung law
/// `PhysicalBench.rungFieldExponent` included).
///
/// Nothing outlives the process, so there is nothing to journal: a killed run leaves no
/// weakened chip behind.
extension SimulatedReader: AnalogProfiling {
    public func apply(_ profile: AnalogProfile) async throws(ReaderError) {
        weakenedThreshold.withLock { $0 = profile.threshold > 0 ? profile.threshold : nil }
    }

    /// One poll round at `profile`: the phone met afresh by the weakened field, or silence
    /// when it does not answer within `window` of the bench's clock.
    public func listen(at profile: AnalogProfile, window: Duration) async throws(ReaderError) -> TapWindow {
        try await apply(profile)
        // The simulated bench knows at once when nothing will answer (nothing placed, or a
        // phone the weakened field does not reach): the phone does not move during the walk,
        // so the silence is the same as a real reader's after its whole window.
        guard bench.snapshot.target != nil, fieldReachesPhone() else { return .clean }
        let clock = bench.clock
        let start = clock.now
        while true {
            if let target = reachedTarget() { return .target(detected(target, latency: clock.now - start)) }
            if clock.now - start >= window { return .clean }
            do { try await clock.sleep(for: pollInterval) } catch { throw .cancelled(info.name) }
        }
    }

    /// The simulated chip is always reachable: a MISS can be asked again at a weaker field.
    public var listensWithoutATarget: Bool { true }

    public func restoreAnalogSettings() async throws(ReaderError) {
        weakenedThreshold.withLock { $0 = nil }
    }
}
