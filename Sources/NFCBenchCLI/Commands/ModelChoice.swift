import Foundation
import NFCLocatorCore

/// What `--model` means: the catalog entry a person names by identifier, regional variant
/// or marketing name (`ModelFinder`), told on standard error so scripts reading standard
/// output see nothing new. Several matching entries are a usage error listing them; no
/// match falls to the heuristic with the closest entries suggested.
enum ModelChoice {
    struct Chosen {
        /// The identifier to resolve and store.
        let identifier: String
        let match: ModelFinder.Match?
    }

    static func choose(
        _ typed: String, resolver: AntennaZoneResolver, context: CommandContext, usagePath: [String]
    ) throws -> Chosen {
        guard !typed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw emptyModel(usagePath: usagePath)
        }
        switch ModelFinder(resolver: resolver).find(typed) {
        case .found(let match):
            context.errors.line("Catalog entry: \(describe(match.profile)), \(why(match, typed: typed)).")
            return Chosen(identifier: match.identifier, match: match)
        case .ambiguous(let profiles):
            throw ambiguous(typed, profiles, usagePath: usagePath)
        case .unknown(let identifier, let suggestions):
            var line = "No catalog entry for '\(TerminalSafeText.neutralise(identifier))'; the heuristic answers."
            if !suggestions.isEmpty { line += " Did you mean " + suggestions.map(describe).joined(separator: ", or ") + "?" }
            context.errors.line(line)
            return Chosen(identifier: identifier, match: nil)
        }
    }

    /// `--model ""`: the same usage error wherever a model is named (`run`, `ModelFilter`).
    static func emptyModel(usagePath: [String]) -> UsageError {
        UsageError(
            "'--model' is empty; give an identifier such as SM-S921B or a name such as \"Galaxy S24\".", path: usagePath)
    }

    /// A name several entries share: a usage error listing them, never a guess.
    static func ambiguous(_ typed: String, _ profiles: [DeviceAntennaProfile], usagePath: [String]) -> UsageError {
        UsageError(
            "'\(TerminalSafeText.neutralise(typed))' names \(profiles.count) catalog entries: "
                + profiles.map(describe).joined(separator: "; ") + ". Give one identifier with --model.",
            path: usagePath)
    }

    /// "Galaxy S24 (SM-S921B)".
    static func describe(_ p: DeviceAntennaProfile) -> String {
        "\(TerminalSafeText.field(p.displayName)) (\(TerminalSafeText.field(p.modelIdentifier)))"
    }

    static func why(_ match: ModelFinder.Match, typed: String) -> String {
        switch match.reason {
        case .identifier: "matched by identifier"
        case .family: "matched by family: '\(TerminalSafeText.neutralise(match.identifier))' is a regional variant"
        case .spelling: "matched by identifier, spelled '\(TerminalSafeText.neutralise(typed))'"
        case .name: "matched by name '\(TerminalSafeText.neutralise(typed.trimmingCharacters(in: .whitespacesAndNewlines)))'"
        }
    }
}
