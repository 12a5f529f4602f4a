import Foundation
import NFCBenchRecords
import NFCReaders

/// The two waits of a position: for the placement (the reader already listening), and
/// the tap window itself.
extension GuidedRun {
    enum WaitResult { case window(TapWindow), tagRead(TagReadResult), command(OperatorCommand) }

    enum PlacementWait {
        /// The phone answered (or the reader failed) before the operator confirmed.
        case observed(WaitResult)
        case command(OperatorCommand)
        case keyboardClosed
    }

    /// How long each look of the reader lasts while the run waits for the placement; the
    /// looks repeat until the operator confirms, so a phone that answers early is caught.
    /// An emulated tag is offered for longer, so a phone's read is rarely cut by a restart.
    var placementLook: Duration { session.mode == .tag ? .seconds(2) : .milliseconds(500) }

    /// Waits for the operator's "placed" (Enter or Space) while the reader listens: a
    /// phone that answers first was in place, and its answer counts (as answered before
    /// the confirmation); a clean look counts for nothing.
    func waitForPlacement(inbox: CommandInbox, reader: any Reader, step: Int) async throws -> PlacementWait {
        let look = placementLook
        let prompted = clock.now
        let minimum = minimumPlacementTime
        return try await withThrowingTaskGroup(of: PlacementFinish.self) { group in
            group.addTask {
                while true {
                    let seen = try await observe(reader, window: look, step: step)
                    if case .window(.clean) = seen { continue }
                    return .wait(.observed(seen))
                }
            }
            group.addTask {
                while true {
                    guard let key = await inbox.nextArrival() else {
                        if Task.isCancelled { throw CancellationError() }
                        return .wait(.keyboardClosed)
                    }
                    // Judged by when the key arrived, not when this task got to read it.
                    if key.command == .proceed, key.arrived - prompted < minimum { continue }
                    return .key(key)
                }
            }
            guard let first = try await group.next() else { throw CancellationError() }
            group.cancelAll()
            while let late = try? await group.next() {
                // A key typed as the phone answered belongs to this position's window: keep it.
                if case .key(let key) = late { inbox.unread(key) }
            }
            switch first {
            case .wait(let wait): return wait
            case .key(let key): return .command(key.command)
            }
        }
    }

    /// The operator's key alone, once the phone has answered while being placed: the
    /// reader is not asked again until the window.
    func waitForConfirmation(inbox: CommandInbox) async -> PlacementWait {
        guard let key = await inbox.nextArrival() else { return .keyboardClosed }
        return .command(key.command)
    }

    /// What ended one of a wait's two tasks: the reader's side, or a key with its arrival.
    private enum PlacementFinish { case wait(PlacementWait), key(ArrivedCommand) }
    private enum WindowFinish { case seen(WaitResult), key(ArrivedCommand) }

    /// One tap window as the session's mode sees it: the reader polling for the phone
    /// (card mode), or emulating a tag for the phone to read (tag mode).
    func observe(_ reader: any Reader, window: Duration, step: Int) async throws -> WaitResult {
        guard session.mode == .tag else { return .window(try await reader.pollWindow(window)) }
        guard let emulator = reader.capabilities.tagEmulator else {
            throw ReaderError(.unsupported, "Reader '\(reader.info.name)' cannot emulate a tag (tag mode).")
        }
        switch try await emulator.emulateTag(tagMessage(step), window: window) {
        case .read(let read): return .tagRead(read)
        case .clean: return .window(.clean)
        case .faulty(let error): return .window(.faulty(error))
        }
    }

    /// Polls for the whole tap window; an operator command ends the wait early. Enter or
    /// Space inside the window changes nothing (the placement is already confirmed).
    func waitForTapOrCommand(inbox: CommandInbox, reader: any Reader, step: Int) async throws -> WaitResult {
        let window = Duration.milliseconds(Int64(session.tapTimeout * 1000))
        guard inbox.isOpen else { return try await observe(reader, window: window, step: step) }
        while let waiting = inbox.poll() {
            if waiting != .proceed { return .command(waiting) }
        }
        return try await withThrowingTaskGroup(of: WindowFinish.self) { group in
            group.addTask { .seen(try await observe(reader, window: window, step: step)) }
            group.addTask {
                while let key = await inbox.nextArrival() {
                    if key.command != .proceed { return .key(key) }
                }
                // The keyboard closed: only the window ends this wait (the group cancels this).
                try await clock.sleep(for: .seconds(86_400))
                throw CancellationError()
            }
            guard let first = try await group.next() else { throw CancellationError() }
            group.cancelAll()
            // A command that arrived as the window ended is kept for the next wait.
            while let late = try? await group.next() {
                if case .key(let key) = late { inbox.unread(key) }
            }
            switch first {
            case .seen(let seen): return seen
            case .key(let key): return .command(key.command)
            }
        }
    }
}
