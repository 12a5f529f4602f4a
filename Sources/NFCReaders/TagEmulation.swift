/// Tag mode: the reader emulates an NFC Forum Type 4 tag and the phone's own reader reads
/// it, so the bench maps where the phone's *reader* field is, on any phone, with nothing
/// installed on it.
public protocol TagEmulating: Reader {
    /// Emulates a tag holding `message` for the whole of `window`: a phone that read it
    /// (to the end or part of the way), a clean window in which no phone activated it, or
    /// a faulty one. Only cancellation and a vanished reader are thrown.
    func emulateTag(_ message: NDEFMessage, window: Duration) async throws(ReaderError) -> TagWindow
}

/// One tap window in tag mode.
public enum TagWindow: Sendable {
    case read(TagReadResult)
    /// No phone activated the tag, and the reader answered without error throughout.
    case clean
    case faulty(ReaderError)
}

/// How far a phone got through the NFC Forum read procedure, and how long it took.
public struct TagReadResult: Sendable, Equatable {
    public let progress: Type4Tag.Progress
    /// Bytes of the message read contiguously from its start.
    public let messageBytes: Int
    /// From the window's start to the phone's activation (field detection).
    public let activation: Duration
    /// From activation to the answer to the last READ BINARY; `nil` when nothing was read.
    public let readTime: Duration?

    public init(progress: Type4Tag.Progress, messageBytes: Int, activation: Duration, readTime: Duration?) {
        self.progress = progress
        self.messageBytes = messageBytes
        self.activation = activation
        self.readTime = readTime
    }

    /// The whole message read: a HIT.
    public var completed: Bool { progress == .ndefRead }
}

/// Whether a reader can emulate a tag, and if not, why: said before a tag-mode run starts.
public enum TagEmulationSupport: Sendable, Equatable {
    case supported
    /// Works, with a caveat the operator should know.
    case limited(String)
    case unsupported(String)

    /// What a reader's chip allows: libnfc emulates an ISO 14443-4A card (a Type 4 tag) only
    /// on the PN532 (`pn53x_target_receive_bytes` answers NFC_ENOTIMPL for others), and
    /// the ACR122U puts its own controller in front of its PN532.
    public static func forLibNFC(firmware: String?, name: String) -> TagEmulationSupport {
        guard let firmware, firmware.hasPrefix("PN532") else {
            return .unsupported(
                "libnfc emulates a Type 4 tag only on a PN532; this reader's chip is \(firmware ?? "unknown") "
                    + "(a PN533 reports Type 4 emulation as not implemented). Use a PN532 board (pn532_uart, pn532_i2c, pn532_spi)."
            )
        }
        if name.uppercased().contains("ACR122") {
            return .limited(
                "the ACR122U's own controller sits in front of its PN532: emulation may stop answering and need a replug "
                    + "(libnfc's emulation examples say so); a bare PN532 board is reliable")
        }
        return .supported
    }
}
