import Foundation
import NFCBenchUseCases
import NFCLocatorCore

/// `--model` where it selects stored sessions (`sessions`, `export`, `report`): the same
/// names `run` takes. A session recorded with `run --model "Galaxy S24"` is stored under
/// the entry's identifier, so the name is found in the catalog first (the seed, never the
/// network: a listing must not wait on a catalog server) and the sessions are selected by
/// that identifier and its regional variants. A name the catalog lacks is passed on as
/// typed; `SessionSelection` also matches it against each session's stored names.
enum ModelFilter {
    static func identifier(_ typed: String?, _ context: CommandContext, usagePath: [String]) async throws -> String? {
        guard let typed else { return nil }
        guard !typed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ModelChoice.emptyModel(usagePath: usagePath)
        }
        let loaded = await CatalogLoading.load(
            CatalogSource(remote: .none, seedURL: try context.resources().seedCatalogURL, environment: context.environment))
        switch ModelFinder(resolver: loaded.resolver).find(typed) {
        case .found(let match):
            if match.reason != .identifier {
                context.errors.line(
                    "Model: \(ModelChoice.describe(match.profile)), \(ModelChoice.why(match, typed: typed)).")
            }
            return match.identifier
        case .ambiguous(let profiles):
            throw ModelChoice.ambiguous(typed, profiles, usagePath: usagePath)
        case .unknown(let identifier, _):
            return identifier
        }
    }
}
