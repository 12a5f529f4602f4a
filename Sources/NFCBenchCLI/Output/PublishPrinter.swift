import Foundation
import NFCBench
import NFCBenchUseCases
import NFCLocatorCore

/// `catalog publish`'s words and JSON: per entry, what changes and on what evidence.
struct PublishPrinter {
    let outcome: PublishOutcome
    let dryRun: Bool

    func lines() -> [String] {
        var lines: [String] = []
        let previous = outcome.previousVersion.map { "version \($0)" } ?? "no version yet"
        guard let version = outcome.version else {
            lines.append("Nothing to publish: no entry changed since \(previous); nothing was written.")
            lines += withheldLines()
            return lines
        }
        lines.append(
            (dryRun ? "Would publish" : "Published") + " catalog version \(version) (last: \(previous)), signed by key "
                + "\(outcome.keyID): \(outcome.changes.count) entr\(outcome.changes.count == 1 ? "y" : "ies") from bench evidence."
        )
        for change in outcome.changes {
            let c = change.coil
            lines.append(
                "  \(TerminalSafeText.field(change.key)) (\(TerminalSafeText.field(change.displayName))): "
                    + "IoU \(String(format: "%.2f", change.iou)) with the last zone, centre moved "
                    + "\(String(format: "%.1f", change.centreShiftMm)) mm; coil \(mm(c.widthMm)) x \(mm(c.heightMm)) mm "
                    + "centred at \(mm(c.centreXMm)), \(mm(c.centreYMm)) mm; \(change.sessions) sessions, \(change.units) units, "
                    + "readers " + change.readers.map { "\(Int($0.widthMm))x\(Int($0.heightMm)) mm" }.joined(separator: ", "))
        }
        lines += withheldLines()
        if outcome.leftOutSimulated + outcome.leftOutVoid > 0 {
            lines.append(
                "Never evidence: \(outcome.leftOutSimulated) simulated and \(outcome.leftOutVoid) void session(s).")
        }
        if dryRun {
            lines.append("Dry run: nothing was written.")
        } else {
            for path in outcome.written { lines.append("Wrote \(TerminalSafeText.field(path))") }
        }
        return lines
    }

    private func withheldLines() -> [String] {
        outcome.withheld.map { "  withheld \(TerminalSafeText.field($0.key)): \($0.reasons.joined(separator: "; "))" }
    }

    private func mm(_ i: CatalogIntervalDTO) -> String {
        String(format: "%.1f (%.1f-%.1f)", i.value, i.low, i.high)
    }

    func json() -> JSONValue {
        func interval(_ i: CatalogIntervalDTO) -> JSONValue {
            .object([("value", .number(i.value)), ("low", .number(i.low)), ("high", .number(i.high))])
        }
        return .object([
            ("dryRun", .bool(dryRun)),
            ("previousVersion", outcome.previousVersion.map { .int($0) } ?? .null),
            ("version", outcome.version.map { .int($0) } ?? .null),
            ("keyID", .string(outcome.keyID)),
            (
                "changes",
                .array(
                    outcome.changes.map { c in
                        .object([
                            ("key", .string(c.key)), ("displayName", .string(c.displayName)), ("iou", .number(c.iou)),
                            ("centreShiftMm", .number(c.centreShiftMm)), ("sessions", .int(c.sessions)),
                            ("units", .int(c.units)),
                            (
                                "readers",
                                .array(
                                    c.readers.map {
                                        .object([("widthMm", .number($0.widthMm)), ("heightMm", .number($0.heightMm))])
                                    })
                            ),
                            (
                                "coil",
                                .object([
                                    ("centreXMm", interval(c.coil.centreXMm)), ("centreYMm", interval(c.coil.centreYMm)),
                                    ("widthMm", interval(c.coil.widthMm)), ("heightMm", interval(c.coil.heightMm)),
                                ])
                            ),
                        ])
                    })
            ),
            (
                "withheld",
                .array(
                    outcome.withheld.map {
                        .object([("key", .string($0.key)), ("reasons", .array($0.reasons.map(JSONValue.string)))])
                    })
            ),
            ("leftOutSimulated", .int(outcome.leftOutSimulated)), ("leftOutVoid", .int(outcome.leftOutVoid)),
            ("written", .array(outcome.written.map(JSONValue.string))),
        ])
    }
}
