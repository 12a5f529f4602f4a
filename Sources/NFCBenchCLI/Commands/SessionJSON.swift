import Foundation
import NFCBench
import NFCBenchRecords
import NFCReaders

/// A tap and an event as every JSON output writes them (docs/json.md).
enum SessionJSON {
    static func tap(_ t: TapRecord) -> JSONValue {
        .object([
            ("step", .int(t.step)), ("attempt", .int(t.attempt)), ("x", .number(t.probeX)), ("y", .number(t.probeY)),
            ("result", .string(t.result.rawValue)), ("latencyMs", t.latencyMs.map(JSONValue.number) ?? .null),
            ("uid", .optional(t.uid)),
            ("uidKind", .optional(t.uid.flatMap(Hex.bytes).map { UIDKind(uid: $0).rawValue })),
            ("technology", .optional(t.technology)), ("atqa", .optional(t.atqa)),
            ("sak", .optional(t.sak)), ("ats", .optional(t.ats)), ("atr", .optional(t.atr)),
            ("tagProgress", .optional(t.tagProgress?.rawValue)), ("placement", .optional(t.placement?.rawValue)),
            ("windowSeconds", t.windowSeconds.map(JSONValue.number) ?? .null), ("heightMm", .number(t.probe.heightMm)),
            ("platformProbe", .optional(t.platformProbe?.rawValue)),
            ("coupling", t.coupling.map(JSONValue.number) ?? .null), ("couplingTried", .optional(t.couplingTried)),
            ("couplingLadder", .optional(t.couplingLadderName)),
            ("at", .string(EventWords.instant(t.timestamp))),
        ])
    }

    /// `{at, kind, step, ...details}`: the details' names are the event's own.
    static func event(_ e: SessionEvent) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("at", .string(EventWords.instant(e.at))), ("kind", .string(e.kind.rawValue)),
            ("step", e.step.map(JSONValue.int) ?? .null),
        ]
        for key in e.details.keys.sorted() where !["at", "kind", "step"].contains(key) {
            members.append((key, .string(e.details[key] ?? "")))
        }
        return .object(members)
    }
}
