import NFCReaders

/// The simulated reader, except that a window `fault` picks (by its length, or by how many
/// came before it) comes back faulty with the error it gives.
final class FaultingReader: Reader {
    let inner: SimulatedReader
    let fault: @Sendable (_ window: Duration) -> ReaderError?

    init(_ inner: SimulatedReader, fault: @escaping @Sendable (_ window: Duration) -> ReaderError?) {
        self.inner = inner
        self.fault = fault
    }

    var info: ReaderInfo { inner.info }
    func waitForTarget(timeout: Duration) async throws(ReaderError) -> DetectedTarget? {
        try await inner.waitForTarget(timeout: timeout)
    }
    func fieldOccupant() async throws(ReaderError) -> DetectedTarget? { try await inner.fieldOccupant() }
    func pollWindow(_ window: Duration) async throws(ReaderError) -> TapWindow {
        if let error = fault(window) { return .faulty(error) }
        return try await inner.pollWindow(window)
    }
    func waitForRemoval(timeout: Duration) async throws(ReaderError) -> Bool {
        try await inner.waitForRemoval(timeout: timeout)
    }
    func signal(_ feedback: TapFeedback) async { await inner.signal(feedback) }
    func close() async { await inner.close() }
    var closingWarnings: [String] { inner.closingWarnings }
    var capabilities: ReaderCapabilities { inner.capabilities }
}
