import NFCBenchRecords
import NFCLocatorCore

/// Which stored sessions belong to a model: the model itself and its regional variants,
/// by the same family rule the resolver uses (`DeviceFingerprint.samsungFamily`), so
/// every region suffix counts, not only a listed few; and the sessions whose stored names
/// (the catalog's name at the time, or what the operator typed) are the one asked for, so
/// a name still finds them when the catalog at hand has no entry for it.
public enum SessionSelection {
    public static func sessions(of model: String, in sessions: [SessionRecord]) -> [SessionRecord] {
        let key = CatalogKey.normalize(model)
        let family = DeviceFingerprint.samsungFamily(of: key)
        return sessions.filter { s in
            s.lookupKey == key || (family != nil && DeviceFingerprint.samsungFamily(of: s.lookupKey) == family)
                || [s.displayName, s.modelTyped].contains { $0.map { ModelFinder.sameName($0, model) } ?? false }
        }
    }
}
