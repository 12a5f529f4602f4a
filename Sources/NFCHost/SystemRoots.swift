import Foundation

/// Where the system trees are. Real paths by default; `doctor --root DIR` and the
/// `NFCBENCH_*_ROOT` variables point them at a copied or fake tree (tests build one per
/// failure case).
public struct SystemRoots: Sendable, Equatable {
    public var sys: String
    public var dev: String
    public var proc: String
    public var etc: String
    /// Where daemons keep their sockets (pcscd's `pcscd/pcscd.comm`).
    public var run: String

    public init(sys: String = "/sys", dev: String = "/dev", proc: String = "/proc", etc: String = "/etc", run: String = "/run") {
        self.sys = sys
        self.dev = dev
        self.proc = proc
        self.etc = etc
        self.run = run
    }

    public static func under(_ root: String) -> SystemRoots {
        SystemRoots(sys: root + "/sys", dev: root + "/dev", proc: root + "/proc", etc: root + "/etc", run: root + "/run")
    }

    public static func fromEnvironment(_ env: [String: String]) -> SystemRoots {
        SystemRoots(
            sys: env["NFCBENCH_SYSFS_ROOT"] ?? "/sys", dev: env["NFCBENCH_DEV_ROOT"] ?? "/dev",
            proc: env["NFCBENCH_PROC_ROOT"] ?? "/proc", etc: env["NFCBENCH_ETC_ROOT"] ?? "/etc",
            run: env["NFCBENCH_RUN_ROOT"] ?? "/run")
    }
}
