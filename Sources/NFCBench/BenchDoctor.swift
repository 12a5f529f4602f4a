import Foundation
import NFCHost
import NFCLocatorCore
import NFCReaderLibNFC
import NFCReaderPCSC
import NFCReaders

/// One finding of `nfcbench doctor`.
public struct DoctorCheck: Sendable, Equatable {
    public enum Verdict: String, Sendable, Comparable {
        case ok = "OK", warn = "WARN", fail = "FAIL"
        public static func < (a: Verdict, b: Verdict) -> Bool {
            let order: [Verdict] = [.ok, .warn, .fail]
            return order.firstIndex(of: a)! < order.firstIndex(of: b)!
        }
    }
    public let id: String
    public let verdict: Verdict
    public let detail: String
    /// One line saying what to do; `nil` when nothing is needed.
    public let fix: String?

    public init(id: String, verdict: Verdict, detail: String, fix: String? = nil) {
        self.id = id
        self.verdict = verdict
        self.detail = detail
        self.fix = fix
    }
}

/// Checks a bench's setup for the traps that stop a fresh Linux machine from talking
/// to an ACR122U: kernel modules, permissions, pcscd holding the reader, missing udev
/// rules and blacklist, libccid refusing escape commands, an unwritable database, an
/// unloadable catalog.
public struct BenchDoctor: Sendable {
    public var roots: SystemRoots
    public var identity: UserIdentity
    public var databasePath: String
    public var catalogURLs: [URL]
    /// Readers this machine's virtual benches serve (`libnfc:pn532_uart:...`): with no USB
    /// reader, runs can still use them, so their absence is no failure, only no evidence.
    public var virtualReaders: [String] = []
    /// The socket PC/SC clients connect to (`PCSCLITE_CSOCK_NAME`, else pcscd's own under
    /// /run): a pcscd serving another socket serves no client here.
    public var pcscSocket: String?

    public init(roots: SystemRoots, identity: UserIdentity, databasePath: String, catalogURLs: [URL]) {
        self.roots = roots
        self.identity = identity
        self.databasePath = databasePath
        self.catalogURLs = catalogURLs
    }

    public func run() -> [DoctorCheck] {
        let devices = USBReaderScan(sysRoot: roots.sys, devRoot: roots.dev).devices()
        let pcscd = pcscdProcesses()
        let held = heldByPCSCD(devices, pids: pcscd)
        return [
            libraries(), pcscdCheck(pcscd, held: held), readersCheck(devices), permissionsCheck(devices),
            modulesCheck(devices), rulesCheck(), blacklistCheck(), conflictCheck(held), ccidCheck(), databaseCheck(),
            tagModeCheck(devices),
        ]
            + catalogChecks()
    }

    func libraries() -> DoctorCheck {
        DoctorCheck(
            id: "libraries", verdict: .ok,
            detail: "libnfc \(LibNFCReader.libraryVersion), pcsc-lite \(PCSCReader.libraryVersion)", fix: nil)
    }

    /// Tag mode (`run --mode tag`) needs a reader that emulates a tag: what the USB readers
    /// here can do, and what to buy when none can. (Serial PN532 boards are not on USB's
    /// list of readers; `readers` shows their modes.)
    func tagModeCheck(_ devices: [USBReaderScan.Device]) -> DoctorCheck {
        let buy =
            "For tag mode (phones reading a tag, iPhones without an app) use a PN532 board: a PN532 breakout on a "
            + "USB-serial adapter (libnfc:pn532_uart:/dev/ttyUSB0), or on I2C/SPI (pn532_i2c, pn532_spi)."
        let acr = devices.filter { $0.name.uppercased().contains("ACR122") }
        if !acr.isEmpty {
            return DoctorCheck(
                id: "tag-mode", verdict: .warn,
                detail:
                    "\(acr.map(\.name).joined(separator: ", ")): tag mode is limited (its controller sits in front of the PN532 "
                    + "and emulation may need a replug)",
                fix: buy)
        }
        let pn533 = devices.filter { $0.name.uppercased().contains("PN533") || $0.name.uppercased().contains("SCL3711") }
        if !pn533.isEmpty {
            return DoctorCheck(
                id: "tag-mode", verdict: .warn,
                detail:
                    "\(pn533.map(\.name).joined(separator: ", ")): no tag mode (libnfc does not implement Type 4 emulation on the PN533)",
                fix: buy)
        }
        return DoctorCheck(
            id: "tag-mode", verdict: .ok,
            detail: "card mode with any reader; tag mode needs a PN532 ('nfcbench readers' lists modes)",
            fix: nil)
    }

    func pcscdCheck(_ pids: [Int], held: [USBReaderScan.Device]) -> DoctorCheck {
        let socket = pcscSocket ?? roots.run + "/pcscd/pcscd.comm"
        let listening = FileManager.default.fileExists(atPath: socket)
        guard !pids.isEmpty else {
            // systemd's pcscd.socket starts the daemon when the first client connects.
            if listening {
                return DoctorCheck(
                    id: "pcscd", verdict: .ok, detail: "pcscd starts on demand (its socket \(socket) is there)", fix: nil)
            }
            return DoctorCheck(
                id: "pcscd", verdict: .warn, detail: "pcscd is not running",
                fix: "Start it for PC/SC readers: sudo systemctl start pcscd (libnfc readers do not need it).")
        }
        guard listening else {
            return DoctorCheck(
                id: "pcscd", verdict: .warn,
                detail: "pcscd runs (pid \(pids.map(String.init).joined(separator: ", "))) but not on \(socket), where PC/SC "
                    + "clients and 'nfcbench readers' look: it serves another socket",
                fix: "Start the system's pcscd (sudo systemctl start pcscd), or point clients at the one running with "
                    + "PCSCLITE_CSOCK_NAME.")
        }
        let holding = held.isEmpty ? "holds no supported reader" : "holds \(held.map(\.name).joined(separator: ", "))"
        return DoctorCheck(
            id: "pcscd", verdict: .ok, detail: "pcscd running (pid \(pids.map(String.init).joined(separator: ", "))), \(holding)",
            fix: nil)
    }

    func readersCheck(_ devices: [USBReaderScan.Device]) -> DoctorCheck {
        if devices.isEmpty, !virtualReaders.isEmpty {
            return DoctorCheck(
                id: "readers", verdict: .warn,
                detail: "no supported USB reader connected; virtual bench readers: \(virtualReaders.joined(separator: ", ")) "
                    + "(simulations: their sessions are never bench evidence)",
                fix: "Plug in an ACR122U (or ACR1252, SCL3711, PN533) for bench evidence; check with lsusb.")
        }
        guard !devices.isEmpty else {
            return DoctorCheck(
                id: "readers", verdict: .fail, detail: "no supported USB reader connected",
                fix: "Plug in an ACR122U (or ACR1252, SCL3711, PN533); check with lsusb.")
        }
        return DoctorCheck(
            id: "readers", verdict: .ok,
            detail: devices.map { "\($0.name) at \($0.node ?? $0.sysPath)" }.joined(separator: "; "), fix: nil)
    }

    func permissionsCheck(_ devices: [USBReaderScan.Device]) -> DoctorCheck {
        let nodes = devices.compactMap(\.node)
        guard !nodes.isEmpty else {
            return DoctorCheck(id: "permissions", verdict: .ok, detail: "no reader device node to check", fix: nil)
        }
        let denied = nodes.filter { identity.canReadWrite($0) == false }
        guard denied.isEmpty else {
            return DoctorCheck(
                id: "permissions", verdict: .fail, detail: "no read/write access to \(denied.joined(separator: ", "))",
                fix: "Install udev/70-nfcbench.rules (scripts/install.sh), join group plugdev, log in again and replug.")
        }
        return DoctorCheck(
            id: "permissions", verdict: .ok, detail: "read/write access to \(nodes.joined(separator: ", "))", fix: nil)
    }

    func modulesCheck(_ devices: [USBReaderScan.Device]) -> DoctorCheck {
        let text = (try? String(contentsOfFile: roots.proc + "/modules", encoding: .utf8)) ?? ""
        let loaded = text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { USBReaderScan.kernelDrivers.contains($0) }
        guard loaded.isEmpty else {
            let bound = devices.filter { $0.kernelDriver.map(USBReaderScan.kernelDrivers.contains) ?? false }
            let claim = bound.isEmpty ? "" : "; \(bound.map(\.name).joined(separator: ", ")) is claimed by it"
            return DoctorCheck(
                id: "kernel-modules", verdict: .fail,
                detail: "kernel NFC modules loaded: \(loaded.joined(separator: ", "))\(claim)",
                fix: "sudo modprobe -r pn533_usb pn533 nfc, and install udev/blacklist-nfcbench.conf so they stay away.")
        }
        return DoctorCheck(id: "kernel-modules", verdict: .ok, detail: "no pn533/nfc kernel module loaded", fix: nil)
    }

    func rulesCheck() -> DoctorCheck {
        let candidates = [
            roots.etc + "/udev/rules.d/70-nfcbench.rules", roots.etc + "/../usr/lib/udev/rules.d/70-nfcbench.rules",
        ]
        if let found = candidates.first(where: FileManager.default.fileExists(atPath:)) {
            return DoctorCheck(
                id: "udev-rules", verdict: .ok, detail: "installed: \(URL(fileURLWithPath: found).standardized.path)", fix: nil)
        }
        return DoctorCheck(
            id: "udev-rules", verdict: .warn, detail: "nfcbench's udev rules are not installed",
            fix: "sudo install -m 644 udev/70-nfcbench.rules \(roots.etc)/udev/rules.d/ && sudo udevadm control --reload")
    }

    func blacklistCheck() -> DoctorCheck {
        let dirs = [roots.etc + "/modprobe.d", roots.etc + "/../usr/lib/modprobe.d", roots.etc + "/../lib/modprobe.d"]
        for dir in dirs {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
                let text = (try? String(contentsOfFile: dir + "/" + file, encoding: .utf8)) ?? ""
                let lines = Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
                if USBReaderScan.kernelDrivers.allSatisfy({ lines.contains("blacklist \($0)") }) {
                    return DoctorCheck(
                        id: "blacklist", verdict: .ok, detail: "pn533_usb, pn533, nfc blacklisted in \(file)", fix: nil)
                }
            }
        }
        return DoctorCheck(
            id: "blacklist", verdict: .warn, detail: "pn533_usb, pn533 and nfc are not all blacklisted",
            fix: "sudo install -m 644 udev/blacklist-nfcbench.conf \(roots.etc)/modprobe.d/")
    }

    func conflictCheck(_ held: [USBReaderScan.Device]) -> DoctorCheck {
        guard !held.isEmpty else {
            return DoctorCheck(id: "conflicts", verdict: .ok, detail: "no reader held by pcscd", fix: nil)
        }
        return DoctorCheck(
            id: "conflicts", verdict: .warn,
            detail: "pcscd holds \(held.map(\.name).joined(separator: ", ")): libnfc (libnfc:acr122_usb:) cannot open it",
            fix: "Use --reader pcsc:ACR122, or stop pcscd (sudo systemctl stop pcscd.socket pcscd) to use libnfc.")
    }

    func databaseCheck() -> DoctorCheck {
        let dir = URL(fileURLWithPath: databasePath).deletingLastPathComponent().path
        var existing = dir
        while !FileManager.default.fileExists(atPath: existing), existing != "/" {
            existing = URL(fileURLWithPath: existing).deletingLastPathComponent().path
        }
        let writable =
            FileManager.default.fileExists(atPath: databasePath)
            ? identity.canReadWrite(databasePath) != false
            : identity.canCreateFiles(in: existing)
        guard writable else {
            return DoctorCheck(
                id: "database", verdict: .fail, detail: "\(databasePath) is not writable",
                fix: "Use --db PATH or NFCBENCH_DB with a writable location, or fix the permissions of \(existing).")
        }
        return DoctorCheck(id: "database", verdict: .ok, detail: "\(databasePath) is writable", fix: nil)
    }

    func catalogChecks() -> [DoctorCheck] {
        catalogURLs.map { url in
            do {
                let catalog = Catalog(document: try CatalogDocumentDecoder.load(contentsOf: url))
                if catalog.skippedRows.isEmpty {
                    return DoctorCheck(
                        id: "catalog", verdict: .ok, detail: "\(url.path): \(catalog.profiles.count) entries, 0 bad rows",
                        fix: nil)
                }
                return DoctorCheck(
                    id: "catalog", verdict: .warn,
                    detail: "\(url.path): \(catalog.profiles.count) entries, \(catalog.skippedRows.count) bad rows",
                    fix: "nfcbench catalog validate \(url.path) lists them.")
            } catch {
                return DoctorCheck(
                    id: "catalog", verdict: .fail, detail: String(describing: error),
                    fix: "Reinstall with scripts/install.sh, or point NFCBENCH_RESOURCES at the data files.")
            }
        }
    }

    // MARK: - Reading the trees

    func pcscdProcesses() -> [Int] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: roots.proc)) ?? []
        return entries.compactMap(Int.init).filter { pid in
            (try? String(contentsOfFile: "\(roots.proc)/\(pid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == "pcscd"
        }.sorted()
    }

    /// Supported readers whose device node one of `pids` has open.
    func heldByPCSCD(_ devices: [USBReaderScan.Device], pids: [Int]) -> [USBReaderScan.Device] {
        var open = Set<String>()
        for pid in pids {
            let fdDir = "\(roots.proc)/\(pid)/fd"
            for fd in (try? FileManager.default.contentsOfDirectory(atPath: fdDir)) ?? [] {
                if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: fdDir + "/" + fd) {
                    open.insert(target)
                }
            }
        }
        return devices.filter { device in device.node.map { open.contains($0) } ?? false }
    }
}
