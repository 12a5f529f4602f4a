import Foundation
import NFCBench
import NFCReaders
import Testing

@testable import NFCBenchCLI

/// `poll --reader SPEC` begins opening its reader while the line is still being answered
/// (docs/performance.md, "Poll"); the command must see exactly what its own open would.
@Suite("Reader head start")
struct ReaderHeadStartTests {
    static func started(_ args: [String]) -> ParsedInvocation? {
        let context = CommandContext(environment: [:], output: CapturedOutput(), errors: CapturedOutput())
        guard case .run(let invocation) = CommandLineTool.start(arguments: args, context: context) else { return nil }
        return invocation
    }

    @Test func aNamedReaderStartsOpeningAtParseTimeWithTheSameOutcome() async throws {
        let absent = "libnfc:pn532_uart:/tmp/nfcbench-head-start-absent-\(UUID().uuidString)"
        let invocation = try #require(Self.started(["poll", "--reader", absent, "--timeout", "1"]))
        let ahead = try #require(invocation.readerHeadStart, "poll with --reader began no opening")
        #expect(ahead.spec == (try ReaderBackends.parse(absent)))
        var early: ReaderError?
        do { _ = try await ahead.reader() } catch { early = error }
        var own: ReaderError?
        do { _ = try await ReaderSelection().open(try ReaderBackends.parse(absent)) } catch { own = error }
        let failed = try #require(early, "an absent serial reader opened")
        #expect(failed.code == own?.code && failed.message == own?.message && failed.hint == own?.hint)
        #expect(failed.message.contains("No serial reader at"))
    }

    @Test func nothingOpensAheadWithoutANamedReaderOrForOtherCommands() throws {
        #expect(try #require(Self.started(["poll", "--timeout", "1"])).readerHeadStart == nil)
        #expect(try #require(Self.started(["readers"])).readerHeadStart == nil)
        #expect(try #require(Self.started(["resolve", "--model", "SM-S921B"])).readerHeadStart == nil)
        // A line the parser refuses starts no command, so it opens nothing either.
        #expect(Self.started(["poll", "--reader", "libnfc:pn532_uart:/dev/null", "--count", "0"]) == nil)
    }

    @Test func theCommandReportsTheHeadStartsFailureAsItsOwn() async {
        let h = Harness()
        let status = await h.run("poll", "--reader", "libnfc:pn532_uart:/tmp/nfcbench-head-start-absent", "--timeout", "1")
        #expect(status == 1)
        #expect(h.errors.text.contains("Error: No serial reader at '/tmp/nfcbench-head-start-absent'."), "\(h.errors.text)")
    }
}
