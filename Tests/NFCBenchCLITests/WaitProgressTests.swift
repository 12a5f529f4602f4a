import Foundation
import Testing

@testable import NFCBenchCLI

/// The spinner's line is cleared before the next line starts: after `stop` returns,
/// nothing of the spinner is written, however the frame timer falls.
@Suite("Wait progress")
struct WaitProgressTests {
    @Test func nothingOfASpinnerIsWrittenAfterItStops() async throws {
        let terminal = CapturedOutput(isTerminal: true)
        let progress = WaitProgress(output: terminal, interactive: true)
        for round in 0..<40 {
            progress.start("waiting for the lift", timeout: nil)
            // Stop at every point of the frame period, now and then on a frame itself.
            try await Task.sleep(for: .milliseconds(5 + (round * 7) % 110))
            progress.stop()
            terminal.write("<next line \(round)>\n")
        }
        try await Task.sleep(for: .milliseconds(250))  // any frame still in flight lands now
        let text = terminal.text
        for round in 0..<40 {
            let marker = "<next line \(round)>\n"
            let after = try #require(text.range(of: marker)).upperBound
            let nextStart = round < 39 ? text.range(of: "<next line \(round + 1)>")!.lowerBound : text.endIndex
            let between = text[after..<nextStart]
            // Only the next round's own frames may follow, each cleared before the next line.
            if round == 39 { #expect(between.isEmpty, "written after the last stop: \(between.debugDescription)") }
            #expect(between.isEmpty || between.hasSuffix("\r\u{1B}[2K"), "round \(round): \(between.debugDescription)")
        }
        // Every line of the operator's starts on a cleared line.
        for round in 0..<40 {
            let start = text.range(of: "<next line \(round)>")!.lowerBound
            #expect(text[..<start].hasSuffix("\r\u{1B}[2K") || text[..<start].hasSuffix("\n"), "round \(round)")
        }
    }
}
