import NFCBenchRecords
import NFCLocatorCore

/// Which stored sessions belong to a model: the model itself and its regional variants,
/// by the same family rule the resolver uses (`DeviceFingerprint.samsungFamily`), so
/// every region suffix counts, not only a listed few.
public enum SessionSelection {
    public static func sessions(of model: String, in sessions: [SessionRecord]) -> [SessionRecord] {
        let key = CatalogKey.normalize(model)
        let family = DeviceFingerprint.samsungFamily(of: key)
        return sessions.filter {
            $0.lookupKey == key || (family != nil && DeviceFingerprint.samsungFamily(of: $0.lookupKey) == family)
        }
    }

    /// The grid pass a new session of `model` takes: one per earlier session of the model,
    /// so consecutive grid sessions interleave (`GridPlan`).
    public static func nextGridPass(for model: String, in store: any BenchStoring) async throws -> Int {
        sessions(of: model, in: try await store.sessions()).count
    }
}
