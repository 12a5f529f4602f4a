import Foundation

/// Whether a user could open a device node for reading and writing, from its mode
/// bits, owner and group. Diagnostics need the answer for the operator's account, which
/// `access(2)` cannot give when the check runs as root (root passes every check).
public struct UserIdentity: Sendable, Equatable {
    public let uid: UInt32
    public let groups: [UInt32]

    public init(uid: UInt32, groups: [UInt32]) {
        self.uid = uid
        self.groups = groups
    }

    /// The running process, or `NFCBENCH_IDENTITY=uid:gid,gid,...` (for diagnostics
    /// on behalf of another account, and for tests).
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> UserIdentity {
        if let text = environment["NFCBENCH_IDENTITY"], let parsed = parse(text) { return parsed }
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        _ = getgroups(count, &groups)
        return UserIdentity(uid: getuid(), groups: [getgid()] + groups)
    }

    static func parse(_ text: String) -> UserIdentity? {
        let parts = text.split(separator: ":", maxSplits: 1)
        guard let uid = parts.first.flatMap({ UInt32($0) }) else { return nil }
        let groups = parts.count > 1 ? parts[1].split(separator: ",").compactMap { UInt32($0) } : []
        return UserIdentity(uid: uid, groups: groups)
    }

    /// Read and write permission on `path`; `nil` when it cannot be examined.
    public func canReadWrite(_ path: String) -> Bool? { allows(0o6, on: path) }

    /// Permission to create files in `directory` (write and search).
    public func canCreateFiles(in directory: String) -> Bool { allows(0o3, on: directory) ?? false }

    /// Whether the owner, group or other bits that apply to this user include all of
    /// `wanted` (r=4, w=2, x=1); `nil` when `path` cannot be examined.
    func allows(_ wanted: UInt32, on path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if uid == 0 { return true }
        let mode = UInt32(info.st_mode)
        let bits: UInt32 = info.st_uid == uid ? (mode >> 6) & 0o7 : groups.contains(info.st_gid) ? (mode >> 3) & 0o7 : mode & 0o7
        return bits & wanted == wanted
    }
}
