import Foundation

/// One entry of a session's audit trail: what happened at the bench, when, to the
/// millisecond. A lab that files a session files how it was taken: every quit and
/// resume, every reader fault, every undo and retry, every placement and window.
///
/// Events are appended, never changed; `sequence` orders them within a session (the
/// store assigns it), so two events in the same millisecond keep their order.
public struct SessionEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case started, resumed
        /// The operator said the phone was prepared (the ready gate before position 1).
        case ready
        /// The operator (or a machine positioner) reported the phone in place.
        case placed
        /// The phone answered while the operator was still placing it (`responder`): noted,
        /// not recorded as the position's tap; the window after the confirmation is.
        case answeredWhilePlacing = "answered-while-placing"
        /// A tap window opened (`seconds`) and how it ended (`outcome`).
        case window
        case undo, retry, skip, quit
        case interrupted
        case readerLost = "reader-lost"
        case readerFault = "reader-fault"
        case readerRecovered = "reader-recovered"
        case foreign
        case positionerFailed = "positioner-failed"
        case tapWindowChanged = "tap-window-changed"
        case suspended
        case finished
        /// `void`: the session was taken out of the evidence (`reason`, `by`, and `replaces`
        /// when it was void already): the row keeps the current reason, the trail every one.
        case voided
        /// `annotate`: a note added to the record afterwards (`note`, `by`).
        case note
        /// The station's equipment register as the run started or resumed: one detail per
        /// item (`reader`, `rig`...) and `outOfCalibration` naming any past its due date.
        case equipment
    }

    public var sessionID: String
    /// 0, 1, 2... within the session; assigned by the store when the event is recorded.
    public var sequence: Int
    public var at: Date
    public var kind: Kind
    /// The position (0-based) the event belongs to, when it belongs to one.
    public var step: Int?
    /// What else there is to say, as named values ("seconds": "5", "reason": "...").
    public var details: [String: String]

    public init(
        sessionID: String, sequence: Int = 0, at: Date = Date(), kind: Kind, step: Int? = nil,
        details: [String: String] = [:]
    ) {
        precondition(sequence >= 0 && (step ?? 0) >= 0, "sequences and steps count from 0")
        self.sessionID = sessionID
        self.sequence = sequence
        self.at = at
        self.kind = kind
        self.step = step
        self.details = details
    }

    /// The details as stored: a JSON object of strings with sorted keys, so the same
    /// event always gives the same text (and checksum).
    public var storedDetails: String {
        guard !details.isEmpty else { return "{}" }
        guard let data = try? JSONSerialization.data(withJSONObject: details, options: [.sortedKeys]) else {
            preconditionFailure("a dictionary of strings always serialises")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Details read back, or `nil` when the text is not a JSON object of strings.
    public static func details(stored text: String) -> [String: String]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
        var out: [String: String] = [:]
        for (key, value) in object {
            guard let text = value as? String else { return nil }
            out[key] = text
        }
        return out
    }
}
