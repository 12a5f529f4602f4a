import Foundation
import NFCBench
import NFCBenchRecords
import NFCLocatorCore

/// `refine`'s report, as text or JSON.
struct RefinePrinter {
    let report: RefinementReport
    let policy: PromotionPolicy
    let patchPath: String?
    /// Draw each entry's measured zone with its pooled taps (terminal text; `--model`).
    var drawings = false
    var useColor = false

    static func f(_ v: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", v) }

    static func zone(_ z: NormalizedRect) -> String { "x \(f(z.x))  y \(f(z.y))  w \(f(z.width))  h \(f(z.height))" }

    static func disagreement(_ e: EntryRefinement) -> String {
        "\(e.profile.modelIdentifier) (\(e.profile.displayName)) is verified and was not changed, but "
            + "\(e.evidence.sessionIDs.count) session(s) with \(e.evidence.taps) taps disagree: measured \(e.zone.map { zone($0) } ?? "-"), "
            + "IoU \(f(e.iouWithPrevious ?? 0, 2)) with the verified zone, centre \(f(e.centreShift ?? 0, 2)) body heights away. "
            + "Check the unit and the reader position; if the catalog is wrong, correct it at its source."
    }

    static func decision(_ e: EntryRefinement) -> String {
        switch e.outcome {
        case .refined(let promoted, let unmet):
            if promoted { return "REFINED and PROMOTED to verified" }
            return "REFINED (unverified)"
                + (unmet.isEmpty
                    ? "; passes the promotion policy: add --promote to mark it verified"
                    : "; not promotable: " + unmet.joined(separator: "; "))
        case .tooFewSessions(let needed):
            return "NOT PATCHED: \(e.evidence.sessionIDs.count) session(s), --min-sessions is \(needed)"
        case .verifiedAgrees:
            return "VERIFIED, NOT CHANGED: the evidence agrees"
                + (e.impliedReachMm.map { String(format: "; it implies a reader reach of %.1f mm (calibrates --reach-mm)", $0) }
                    ?? "")
        case .verifiedDisagrees: return "VERIFIED, NOT CHANGED: the evidence DISAGREES (see the warning)"
        case .noReads: return "NOT PATCHED: no tap read the phone; is it emulating a card?"
        }
    }

    func lines() -> [String] {
        var out: [String] = []
        for e in report.entries {
            let p = e.profile, ev = e.evidence
            out.append(
                "\(TerminalSafeText.neutralise(p.displayName)) (\(TerminalSafeText.neutralise(p.modelIdentifier)))  "
                    + p.confidence.rawValue)
            let dates = [ev.first, ev.newest].compactMap { $0?.formatted(.iso8601.year().month().day()) }
            out.append(
                "  evidence   \(ev.sessionIDs.count) session(s), \(ev.taps) taps, \(ev.hits) reads, \(ev.units.count) labelled unit(s)"
                    + (ev.units.isEmpty ? "" : " (\(TerminalSafeText.neutralise(ev.units.joined(separator: ", "))))")
                    + (dates.isEmpty ? "" : ", " + dates.joined(separator: " .. ")))
            out.append("  previous   \(Self.zone(p.zone))")
            if let estimate = e.estimate { out += Self.estimateLines(e, estimate) }
            if drawings, let estimate = e.estimate {
                let marks = ev.positions.map {
                    SilhouetteDrawing.Mark(x: $0.x, y: $0.y, kind: 2 * $0.hits >= $0.taps ? .hit : .miss)
                }
                let drawing = SilhouetteDrawing(aspectRatio: p.aspectRatio, zone: estimate.zone, marks: marks)
                for line in TerminalSilhouetteRenderer(rows: 15, useColor: useColor).render(drawing) { out.append("  " + line) }
                out.append("  ▓ measured zone  ● read at least half the time  × less often")
            }
            let always = ev.positions.filter { $0.hits == $0.taps }.count, never = ev.positions.filter { $0.hits == 0 }.count
            out.append(
                "  positions  \(ev.positions.count) tapped: \(always) always read, \(never) never, \(ev.positions.count - always - never) mixed (rates and Wilson intervals in --json)"
            )
            out.append("  decision   " + Self.decision(e))
        }
        for (model, count) in report.unmatchedModels.sorted(by: { $0.key < $1.key }) {
            out.append("\(model): \(count) session(s), no catalog entry to refine (add one with published dimensions)")
        }
        out.append(
            patchPath.map { "Patch written to \($0); use it with --catalog \($0)." }
                ?? "No patch written (report only); add -o PATCH to write one.")
        return out
    }

    /// What the fit measured: the zone, its edges, what the grades added, the sessions'
    /// agreement and the coil written.
    static func estimateLines(_ e: EntryRefinement, _ estimate: ZoneEstimate) -> [String] {
        var out = [
            "  measured   \(zone(estimate.zone))   IoU with previous \(f(e.iouWithPrevious ?? 0, 2)), "
                + "centre moved \(f(e.centreShift ?? 0, 2)) body heights",
            "  edges 95%  "
                + ZoneEdge.allCases.compactMap { edge in
                    estimate.edges[edge].map {
                        "\(edge.rawValue) \(f($0.value, 2)) [\(f($0.low, 2))-\(f($0.high, 2))]" + ($0.open ? " open" : "")
                    }
                }.joined(separator: "  "),
        ]
        if let binary = e.binaryEstimate {
            out.append(
                "  graded     \(e.gradedReads) read(s) graded (run --coupling); the taps alone fit "
                    + "\(zone(binary.zone)), IoU \(f(binary.zone.iou(with: estimate.zone), 2)) with this fit; "
                    + "edges' 95% intervals \(f(intervalWidth(estimate), 3)) body heights on average, "
                    + "\(f(intervalWidth(binary), 3)) from the taps alone")
        }
        if e.gradesSetAside > 0 {
            out.append(
                "  graded     \(e.gradesSetAside) read(s) graded on an earlier coupling ladder, fitted as plain "
                    + "reads: a grade is a share of its own ladder (docs/coupling.md)")
        }
        out.append(
            "  sessions   deviance from the pooled zone (0 = agrees): "
                + e.sessionDeviance.map { f($0, 2) }.joined(separator: " "))
        if let coil = e.coil, let written = e.zone {
            out.append(
                "  coil       \(SessionCoil.words(coil)), from \(e.coilSessions) session(s) that record their "
                    + "reader's antenna (physical model, 95% intervals)")
            out.append("  written    \(zone(written))   the coil, not the read region measured above")
        }
        return out
    }

    func json() -> JSONValue {
        .object([
            ("patch", .optional(patchPath)), ("promotionPolicy", .string(policy.summary)),
            ("entries", .array(report.entries.map(Self.entryJSON))),
            ("unmatchedModels", .object(report.unmatchedModels.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
        ])
    }

    static func rectJSON(_ z: NormalizedRect) -> JSONValue {
        .object([
            ("zoneX", .number(z.x)), ("zoneY", .number(z.y)), ("zoneWidth", .number(z.width)), ("zoneHeight", .number(z.height)),
        ])
    }

    static func rounded(_ v: Double) -> JSONValue { .number((v * 10_000).rounded() / 10_000) }

    /// The outcome's wire word, whether it promoted, and the promotion conditions unmet.
    static func outcomeJSON(_ e: EntryRefinement) -> (word: String, promoted: Bool, unmet: [String]) {
        switch e.outcome {
        case .refined(let promoted, let unmet): ("refined", promoted, unmet)
        case .tooFewSessions: ("tooFewSessions", false, [])
        case .verifiedAgrees: ("verifiedAgrees", false, [])
        case .verifiedDisagrees: ("verifiedDisagrees", false, [])
        case .noReads: ("noReads", false, [])
        }
    }

    static func entryJSON(_ e: EntryRefinement) -> JSONValue {
        let outcome = outcomeJSON(e)
        let identity: [(String, JSONValue)] = [
            ("key", .string(e.profile.lookupKey)), ("modelIdentifier", .string(e.profile.modelIdentifier)),
            ("displayName", .string(e.profile.displayName)), ("verified", .bool(e.profile.verified)),
            ("outcome", .string(outcome.word)), ("promoted", .bool(outcome.promoted)),
            ("promotionUnmet", .array(outcome.unmet.map(JSONValue.string))),
        ]
        let evidence: [(String, JSONValue)] = [
            ("sessionIds", .array(e.evidence.sessionIDs.map(JSONValue.string))), ("tagSessions", .int(e.evidence.tagSessions)),
            ("taps", .int(e.evidence.taps)), ("hits", .int(e.evidence.hits)),
            ("units", .array(e.evidence.units.map(JSONValue.string))),
        ]
        let zones: [(String, JSONValue)] = [
            ("previousZone", rectJSON(e.profile.zone)), ("measuredZone", e.estimate.map { rectJSON($0.zone) } ?? .null),
            ("zone", e.zone.map(rectJSON) ?? .null), ("coil", e.coil.map { SessionJSON.coilEstimate($0) } ?? .null),
            ("coilSessions", .int(e.coilSessions)), ("iouWithPrevious", e.iouWithPrevious.map(rounded) ?? .null),
            ("centreShift", e.centreShift.map(rounded) ?? .null), ("edges", edgesJSON(e)),
            ("sessionDeviance", .array(e.sessionDeviance.map(rounded))),
            ("gradedReads", .int(e.gradedReads)), ("gradesSetAside", .int(e.gradesSetAside)),
            ("binaryZone", e.binaryEstimate.map { rectJSON($0.zone) } ?? .null),
            ("impliedReachMm", e.impliedReachMm.map(rounded) ?? .null), ("positions", positionsJSON(e)),
        ]
        return .object(identity + evidence + zones)
    }

    static func edgesJSON(_ e: EntryRefinement) -> JSONValue {
        .object(
            ZoneEdge.allCases.compactMap { edge in
                e.estimate?.edges[edge].map {
                    (
                        edge.rawValue,
                        .object([
                            ("value", .number($0.value)), ("low", .number($0.low)), ("high", .number($0.high)),
                            ("open", .bool($0.open)),
                        ])
                    )
                }
            })
    }

    static func positionsJSON(_ e: EntryRefinement) -> JSONValue {
        .array(
            e.evidence.positions.map { t in
                let i = t.interval
                return .object([
                    ("x", .number(t.x)), ("y", .number(t.y)), ("taps", .int(t.taps)), ("hits", .int(t.hits)),
                    ("rate", rounded(t.rate)), ("low", rounded(i.lowerBound)), ("high", rounded(i.upperBound)),
                ])
            })
    }

    /// The mean width of an estimate's four edge intervals, in body heights.
    static func intervalWidth(_ estimate: ZoneEstimate) -> Double {
        let widths = estimate.edges.values.map(\.widthInBodyHeights)
        return widths.reduce(0, +) / Double(max(widths.count, 1))
    }
}
