/// What goes wrong with a lab store, in words that say what to do.
public enum LabStoreError: Error, Sendable, CustomStringConvertible {
    case newerSchema(migration: String, server: String)
    case needsMigration(missing: [String], server: String)
    /// The station is not registered to the connected role.
    case unregisteredStation(station: String, role: String, server: String)
    /// A bare session id names sessions of several stations.
    case ambiguousSession(id: String, stations: [String])
    /// The lab store holds a different session under the same station and id.
    case idCollision(reference: String, server: String)

    public var description: String {
        switch self {
        case .newerSchema(let migration, let server):
            "the lab store at \(server) was set up by a newer nfcbench (migration '\(migration)'); upgrade nfcbench on this bench"
        case .needsMigration(let missing, let server):
            "the lab store at \(server) lacks migration \(missing.joined(separator: ", ")); the lab's administrator runs"
                + " `nfcbench labstore migrate --store URL` as the store's owner (docs/lab-store.md)"
        case .unregisteredStation(let station, let role, let server):
            "station '\(station)' is not registered to role '\(role)' in the lab store at \(server); the lab's administrator"
                + " registers it (docs/lab-store.md, \"Add a bench\")"
        case .idCollision(let reference, let server):
            "the lab store at \(server) already holds another session \(reference) (started at another time); it was not "
                + "overwritten. Was this bench's database replaced under the same station name? Give this bench a new station name"
        case .ambiguousSession(let id, let stations):
            "session id \(id) names sessions of stations \(stations.joined(separator: ", ")); give it as STATION/\(id)"
        }
    }
}
