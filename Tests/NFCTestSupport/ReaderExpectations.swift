import NFCReaders
import Testing

/// Starts a long wait, cancels it after `delay`, and checks it ends with `.cancelled`
/// within 300 ms of the cancel. The delay is the scenario (cancel mid-wait), not a
/// guess at when something happens.
public func expectCancellationWithin300ms(of reader: any Reader, after delay: Duration) async throws {
    let wait = Task { try await reader.waitForTarget(timeout: .seconds(30)) }
    try await Task.sleep(for: delay)
    let start = ContinuousClock.now
    wait.cancel()
    let result = await wait.result
    #expect(ContinuousClock.now - start < .milliseconds(300))
    guard case .failure(let error as ReaderError) = result else { Issue.record("not cancelled: \(result)"); return }
    #expect(error.code == .cancelled)
}
