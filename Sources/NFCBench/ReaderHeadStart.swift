import NFCReaders

/// A reader whose opening began before the command that uses it was running.
///
/// libnfc's `pn532_uart` driver sleeps 50 ms in every open (it waits for a USB-serial
/// adapter before its first byte), and nothing in nfcbench can shorten that. What it can
/// do is start the sleep sooner: `poll --reader SPEC` opens the reader as soon as the line
/// is parsed, and the command's own start (its task, the signal pipe, the threads that
/// come with them) runs during the sleep, on the other core, instead of before it
/// (docs/performance.md, "Poll").
///
/// The opening is the same `ReaderSelection.open` the command would have made; its
/// errors reach the command unchanged, when it asks for the reader. The task that opens
/// is not the command's child, so a Ctrl-C does not cancel it halfway: the command gets
/// the open reader and closes it through its scope, as after a Ctrl-C during any open.
public final class ReaderHeadStart: Sendable {
    public let spec: ReaderSpec
    private let opening: PendingOpen<any Reader>

    /// Begins opening `spec` now: on the backend's own thread straight from this one
    /// where the backend can (libnfc: no task and no thread hop before its sleep), else
    /// on a task of its own.
    public init(_ spec: ReaderSpec, selection: ReaderSelection) {
        self.spec = spec
        if let begun = selection.begin(spec) {
            opening = begun
            return
        }
        let pending = PendingOpen<any Reader>()
        opening = pending
        Task.detached {
            do throws(ReaderError) {
                pending.finish(.success(try await selection.open(spec)))
            } catch {
                pending.finish(.failure(error))
            }
        }
    }

    /// The open reader, once the opening ends; the caller owns it (and closes it).
    /// Asked once: a second caller would share the one reader.
    public func reader() async throws(ReaderError) -> any Reader {
        try await opening.reader()
    }
}
