import NFCBench
import NFCReaders

/// The readers a use case opened, closed on every path out: a return, a throw, a
/// cancellation. Closing restores what the reader changed (an ACR122U's polling
/// parameters) and ends PC/SC cleanly, which `deinit` at exit cannot be trusted to do.
public enum ReaderScope {
    /// Runs `body` with `readers`, then closes the current reader (the one a replug put in
    /// place, not necessarily the first) and hands its closing warnings to `closed`.
    public static func using<Result: Sendable>(
        _ readers: ReaderHolder, closed: @Sendable ([String]) -> Void = { _ in },
        _ body: (ReaderHolder) async throws -> Result
    ) async throws -> Result {
        let result: Swift.Result<Result, any Error>
        do { result = .success(try await body(readers)) } catch { result = .failure(error) }
        let reader = readers.current
        await reader.close()
        closed(reader.closingWarnings)
        return try result.get()
    }
}
