import Foundation
import Testing

@testable import NFCReaders

/// The simulated reader weakens its field as the emulated PN532 does (`--coupling` in
/// process): a weakened profile reads where the phone answers its threshold, under the
/// chip's rung law in the physical world, and putting the default back reads as before.
@Suite struct SimulatedReaderAnalogTests {
    /// Along the coil's long axis, for both rung laws: each rung of the ladder reads exactly
    /// where the phone answers its threshold, so a walk down it stops where the phone stops.
    @Test(arguments: [1.0, 1.6])
    func aWeakenedProfileReadsWhereThePhoneAnswersItsThreshold(_ exponent: Double) async throws {
        let phone = PhysicalPhoneTests.phone(readerMm: 20, exponent: exponent)
        var listened = 0, disagreements: [String] = []
        var gradesSeen = Set<Int>()
        for x in stride(from: 35.3, through: 66, by: 2.5) {
            let bench = PhoneOnBench(phone: phone, seed: 3, clock: VirtualBenchClock())
            let reader = SimulatedReader(bench: bench)
            let analog = try #require(reader.capabilities.analogProfile, "the simulated reader can weaken its field")
            guard bench.place(x: x / 70.6, y: 35 / 147.0) else { continue }
            var rungsRead = 0
            for (rung, profile) in CouplingLadder.standard.profiles.enumerated().reversed() {
                let heard = try await analog.listen(at: profile, window: .milliseconds(400))
                let answers = phone.answers(fieldThreshold: profile.threshold, x: x / 70.6, y: 35 / 147.0)
                if case .target = heard {
                    rungsRead += 1
                } else if answers {
                    disagreements.append("x \(x) mm, rung \(rung): silent where the phone answers")
                }
                if case .target = heard, !answers, profile.threshold > 0 {
                    disagreements.append("x \(x) mm, rung \(rung): read where the phone does not answer")
                }
                listened += 1
            }
            gradesSeen.insert(rungsRead)
            try await analog.restoreAnalogSettings()
            #expect(try await reader.waitForTarget(timeout: .milliseconds(100)) != nil, "the default field reads again")
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
        #expect(listened > 20 && gradesSeen.count >= 3, "grades seen along the axis: \(gradesSeen.sorted())")
        #expect(
            await SimulatedReader(bench: PhoneOnBench(phone: phone, seed: 1)).capabilities.analogProfile?
                .listensWithoutATarget == true)
    }

    /// Nothing placed answers no profile, at once: the simulated bench knows the silence.
    @Test func nothingPlacedAnswersNoProfile() async throws {
        let clock = VirtualBenchClock()
        let reader = SimulatedReader(bench: PhoneOnBench(phone: PhysicalPhoneTests.phone(readerMm: 40), seed: 1, clock: clock))
        let analog = try #require(reader.capabilities.analogProfile)
        let before = clock.now
        let heard = try await analog.listen(at: CouplingLadder.standard.profiles[0], window: .milliseconds(400))
        guard case .clean = heard else { Issue.record("heard \(heard) with nothing placed"); return }
        #expect(clock.now == before)
    }
}
