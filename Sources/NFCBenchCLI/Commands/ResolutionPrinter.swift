import Foundation
import NFCLocatorCore

/// The human form of a resolution: silhouette, badge and the facts beside it.
struct ResolutionPrinter {
    let useColor: Bool
    let strings: StringCatalog

    func print(_ r: AntennaResolution, input: String, now: Date, to out: any TextOutput) {
        let badge = ConfidenceBadge(useColor: useColor).render(r.confidence, stale: r.isStale)
        let safe = TerminalSafeText.field
        let title = r.profile.map { "\(safe($0.displayName)) (\(safe($0.modelIdentifier)))" } ?? safe(input)
        out.line("\(title)  \(badge)")
        out.line("  top of the back, viewed from the back")
        let drawing = SilhouetteDrawing(resolution: r)
        for line in TerminalSilhouetteRenderer(useColor: useColor).render(drawing) { out.line("  " + line) }
        out.line("  " + TerminalSilhouetteRenderer.legend)
        out.line()
        if let zone = r.profile?.zone {
            out.line("  zone        \(Self.describe(zone))")
        } else if let sweep = ResolveCommand.sweepRegion(r) {
            out.line("  sweep       \(Self.describe(sweep))")
        }
        out.line("  confidence  \(r.confidence.rawValue): \(strings.string("nfc_locator.confidence.\(r.confidence.rawValue)"))")
        let version = r.catalogVersion.map { " (\(safe($0)))" } ?? ""
        out.line("  source      \(strings.string("nfc_locator.source.\(r.source.rawValue)"))\(version)")
        switch r.matchedBy {
        case .exact: out.line("  matched     \(r.matchedKey ?? "") (exact key)")
        case .family: out.line("  matched     \(r.matchedKey ?? "") (same model family as \(r.lookupKey))")
        case .none: out.line("  matched     nothing for \(r.lookupKey); heuristic guidance")
        }
        if let profile = r.profile {
            let verified =
                profile.lastVerifiedAt.map { "last verified \($0.formatted(.iso8601.year().month().day()))" }
                ?? "never verified"
            out.line("  stale       \(r.isStale ? "yes" : "no") (\(profile.verified ? "verified entry" : verified))")
        }
        out.line("  hint        \(strings.string(r.hintKey))")
    }

    /// `x 0.10  y 0.36  w 0.80  h 0.38  (centre 0.50, 0.55)`
    static func describe(_ z: NormalizedRect) -> String {
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        return "x \(f(z.x))  y \(f(z.y))  w \(f(z.width))  h \(f(z.height))  (centre \(f(z.midX)), \(f(z.midY)))"
    }
}
