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
}
