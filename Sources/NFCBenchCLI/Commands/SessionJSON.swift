import Foundation
import NFCBench
import NFCBenchRecords
import NFCPhysics
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

    /// The reader's antenna and gap a session recorded; `null`: unknown.
    static func geometry(_ g: ReaderGeometry?) -> JSONValue {
        guard let g else { return .null }
        return .object([
            ("antennaWidthMm", .number(g.antennaWidthMm)), ("antennaHeightMm", .number(g.antennaHeightMm)),
            ("gapMm", .number(g.gapMm)), ("source", .string(g.source)),
        ])
    }

    /// The coil a session's taps say (`SessionCoil`): each figure with its 95 % interval, in
    /// mm; or why there is none.
    static func coil(_ result: Result<SessionCoil, SessionCoil.Unavailable>) -> JSONValue {
        switch result {
        case .failure(let why):
            return .object([("estimate", .null), ("unavailable", .string(why.words))])
        case .success(let coil):
            return .object([("estimate", coilEstimate(coil.estimate)), ("unavailable", .null)])
        }
    }

    /// A coil estimate: each figure with its 95 % interval, mm (`show`, `refine`).
    static func coilEstimate(_ e: CoilEstimate) -> JSONValue {
        func interval(_ i: CoilEstimate.Interval) -> JSONValue {
            func round(_ v: Double) -> JSONValue { .number((v * 10).rounded() / 10) }
            return .object([
                ("value", round(i.value)), ("low", round(i.low)), ("high", round(i.high)), ("open", .bool(i.open)),
            ])
        }
        return .object([
            ("centreXMm", interval(e.centreX)), ("centreYMm", interval(e.centreY)),
            ("widthMm", interval(e.width)), ("heightMm", interval(e.height)),
            ("rungFieldExponent", .number((e.rungFieldExponent * 100).rounded() / 100)),
            ("model", .string("mutual inductance of two rectangular loops (docs/physics.md)")),
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
