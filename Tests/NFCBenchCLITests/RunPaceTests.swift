import Foundation
import Testing

@testable import NFCBenchCLI

/// An unattended run's pace and time left (issue 52): over the positions begun so far, a
/// repeat of one position not counted twice, the bound said as a bound.
@Suite("Run pace")
struct RunPaceTests {
    @Test func aRateAndTheTimeLeftFromWhenPositionsBegan() {
        let pace = RunPace()
        let start = ContinuousClock.now
        #expect(pace.words(remaining: 10, upTo: false) == nil)
        for (step, seconds) in [(0, 0), (1, 3), (1, 4), (2, 6), (3, 9)] {
            pace.began(step, at: start + .seconds(seconds))
        }
        // Four positions begun 3 s apart: 20 a minute; this one and 10 more, 33 s.
        #expect(pace.words(remaining: 10, upTo: false) == "20 positions/min, about 33 s left")
        #expect(pace.words(remaining: 100, upTo: true) == "20 positions/min, at most 5 min left")
    }

    @Test func onlyTheLastPositionsCount() {
        let pace = RunPace()
        let start = ContinuousClock.now
        // A long pause early on (a fault cleared), then 25 positions a second apart.
        pace.began(0, at: start)
        for step in 1...25 { pace.began(step, at: start + .seconds(600 + step)) }
        #expect(pace.words(remaining: 0, upTo: false) == "60 positions/min, about 1 s left")
    }

    @Test(arguments: [(40.0, "40 s"), (59.4, "59 s"), (61, "1 min"), (3_900, "1 h 5 min")])
    func durationsInWords(_ seconds: Double, _ words: String) {
        #expect(RunPace.duration(seconds) == words)
    }
}
