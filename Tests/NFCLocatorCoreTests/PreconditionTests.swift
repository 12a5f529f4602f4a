import Testing

@testable import NFCLocatorCore

/// Exit-test bodies run in a child process and cannot capture test arguments, so
/// each forbidden combination is spelled out.
@Suite("Programmer errors trap")
struct PreconditionTests {
    @Test func markerTrapsOnGeneric() async {
        await #expect(processExitsWith: .failure) { _ = ResolvedMarker(zone: .wholeBack, confidence: .generic) }
    }

    @Test func markerTrapsOnUnknown() async {
        await #expect(processExitsWith: .failure) { _ = ResolvedMarker(zone: .wholeBack, confidence: .unknown) }
    }

    @Test func guidanceTrapsOnExact() async {
        await #expect(processExitsWith: .failure) {
            _ = FallbackGuidance(confidence: .exact, sweepRegion: nil, hintKey: "x")
        }
    }

    @Test func guidanceTrapsOnApproximate() async {
        await #expect(processExitsWith: .failure) {
            _ = FallbackGuidance(confidence: .approximate, sweepRegion: nil, hintKey: "x")
        }
    }

    @Test func validCombinationsDoNotTrap() {
        #expect(ResolvedMarker(zone: .wholeBack, confidence: .exact).confidence == .exact)
        #expect(ResolvedMarker(zone: .wholeBack, confidence: .approximate).confidence == .approximate)
        #expect(FallbackGuidance(confidence: .unknown, sweepRegion: nil, hintKey: "k").confidence == .unknown)
        #expect(FallbackGuidance(confidence: .generic, sweepRegion: nil, hintKey: "k").confidence == .generic)
    }
}
