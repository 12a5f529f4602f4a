import Foundation
import NFCBenchRecords
import NFCLocatorCore
import NFCPhysics
import NFCReaders

/// A session as every JSON output writes it (docs/json.md, docs/schema/session.schema.json):
/// `run --json`'s summary, `show --json`'s whole record and `report --format json` are
/// built here, so they cannot tell one session differently.
public enum SessionJSON {
    public static func tap(_ t: TapRecord) -> JSONValue {
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
    public static func geometry(_ g: ReaderGeometry?) -> JSONValue {
        guard let g else { return .null }
        return .object([
            ("antennaWidthMm", .number(g.antennaWidthMm)), ("antennaHeightMm", .number(g.antennaHeightMm)),
            ("gapMm", .number(g.gapMm)), ("source", .string(g.source)),
        ])
    }

    /// The coil a session's taps say (`SessionCoil`): each figure with its 95 % interval, in
    /// mm; or why there is none.
    public static func coil(_ result: Result<SessionCoil, SessionCoil.Unavailable>) -> JSONValue {
        switch result {
        case .failure(let why):
            return .object([("estimate", .null), ("unavailable", .string(why.words))])
        case .success(let coil):
            return .object([("estimate", coilEstimate(coil.estimate)), ("unavailable", .null)])
        }
    }

    /// A coil estimate: each figure with its 95 % interval, mm (`show`, `refine`).
    public static func coilEstimate(_ e: CoilEstimate) -> JSONValue {
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
    public static func event(_ e: SessionEvent) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("at", .string(EventWords.instant(e.at))), ("kind", .string(e.kind.rawValue)),
            ("step", e.step.map(JSONValue.int) ?? .null),
        ]
        for key in e.details.keys.sorted() where !["at", "kind", "step"].contains(key) {
            members.append((key, .string(e.details[key] ?? "")))
        }
        return .object(members)
    }

    /// `run --json`: the session summary.
    /// The tap counts every JSON output gives, from the one `TapSummary`.
    public static func counts(_ summary: TapSummary) -> [(String, JSONValue)] {
        [
            ("taps", .int(summary.taps)), ("hits", .int(summary.hits)), ("partialReads", .int(summary.partialReads)),
            ("reads", .int(summary.reads)), ("skipped", .int(summary.skips)), ("foreign", .int(summary.foreign)),
            (
                "layers",
                .array(
                    summary.layers.map {
                        .object([
                            ("heightMm", .number($0.heightMm)), ("taps", .int($0.taps)), ("hits", .int($0.hits)),
                            ("partialReads", .int($0.partialReads)), ("skipped", .int($0.skips)), ("foreign", .int($0.foreign)),
                        ])
                    })
            ),
        ]
    }

    /// `figures`: when there is no fresh score (`show`), the one recomputed from the stored
    /// taps, as the reports compute it: the measured zone, IoU, centre and open edges then
    /// say what the HTML and the session CSV say (the centre was null here). The verdict
    /// and its reason stay as stored.
    public static func summary(
        _ s: SessionRecord, score: SessionScore?, taps: TapSummary, databasePath: String, figures: SessionScore? = nil
    ) -> JSONValue {
        func rect(_ r: NormalizedRect?) -> JSONValue {
            guard let r else { return .null }
            func round(_ v: Double) -> JSONValue { .number((v * 10_000).rounded() / 10_000) }
            return .object([("x", round(r.x)), ("y", round(r.y)), ("width", round(r.width)), ("height", round(r.height))])
        }
        let figures = score ?? figures
        let measured = figures?.measured ?? s.measured
        let iou: JSONValue = (figures?.iou ?? s.iou).map { JSONValue.number(($0 * 1000).rounded() / 1000) } ?? .null
        let centreHit: JSONValue = figures?.centreHit.map(JSONValue.bool) ?? .null
        let offset: JSONValue = figures?.centreOffset.map { JSONValue.number(($0 * 1000).rounded() / 1000) } ?? .null
        var members: [(String, JSONValue)] = [
            ("sessionId", .string(s.id)), ("station", .optional(s.station)), ("mode", .string(s.mode.rawValue)),
            ("model", .string(s.modelInput)), ("modelTyped", .optional(s.modelTyped)),
            (
                "phone",
                .object([
                    ("os", .optional(s.phone.os)), ("build", .optional(s.phone.build)), ("case", .optional(s.phone.phoneCase)),
                ])
            ),
            (
                "conditions",
                .object([
                    ("temperatureC", s.conditions.temperatureC.map(JSONValue.number) ?? .null),
                    ("humidityPct", s.conditions.humidityPct.map(JSONValue.number) ?? .null),
                ])
            ),
            ("lookupKey", .string(s.lookupKey)),
            ("status", .string(s.status.rawValue)), ("verdict", .optional(s.verdict?.rawValue)),
            ("verdictReason", .optional(score?.reason ?? s.verdictReason)), ("simulated", .bool(s.simulated)),
            ("void", .bool(s.isVoid)), ("voidReason", .optional(s.voidReason)),
        ]
        members +=
            [
                ("predictedZone", rect(s.predicted)), ("measuredZone", rect(measured)), ("iou", iou),
                ("centreHit", centreHit), ("centreOffset", offset),
                ("openEdges", figures.map { .array($0.openEdges.map { JSONValue.string($0.rawValue) }) } ?? .null),
            ] + counts(taps)
        members += [
            ("plan", .string(s.plan.rawValue)), ("planFocus", .optional(s.planFocus?.stored)),
            ("reader", .string(s.reader.description)), ("readerFirmware", .optional(s.readerFirmware)),
            ("readerSerial", .optional(s.readerSerial)),
            ("readerGeometry", SessionJSON.geometry(s.readerGeometry)),
            ("confidence", .string(s.confidence.rawValue)), ("source", .string(s.source.rawValue)), ("stale", .bool(s.stale)),
            ("database", .string(databasePath)),
        ]
        return .object(members)
    }

    /// `show --json`: the summary with the stored score's figures recomputed as the reports
    /// compute them, the coil the taps say, every tap and every event.
    public static func record(
        _ s: SessionRecord, taps: [TapRecord], events: [SessionEvent], databasePath: String
    ) -> JSONValue {
        let report = ReportedSession(s, taps: taps, events: events)
        guard
            case .object(var members) = summary(
                s, score: nil, taps: TapSummary(taps), databasePath: databasePath, figures: report.score)
        else { preconditionFailure("a session's summary is an object") }
        members.append(("coil", coil(SessionCoil.estimate(s, taps: taps))))
        members.append(("tapList", .array(taps.map(tap))))
        members.append(("events", .array(events.map(event))))
        return .object(members)
    }
}
