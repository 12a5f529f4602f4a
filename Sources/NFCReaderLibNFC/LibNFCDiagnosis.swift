import Foundation
import NFCReaders

/// Works out *why* `nfc_open` failed, since libnfc only returns NULL, and turns it
/// into an error that says what to do. System roots are overridable for tests.
public struct LibNFCDiagnosis: Sendable {
    /// Readers nfcbench supports, by USB VID:PID (IDs as libnfc's acr122_usb/pn53x_usb
    /// drivers and Debian's libccid Info.plist list them). udev/70-nfcbench.rules covers
    /// exactly these; a test checks that.
    public static let supportedUSB: [(vid: String, pid: String, name: String)] = [
        ("072f", "2200", "ACS ACR122U"), ("072f", "90cc", "ACS ACR122U (Touchatag)"),
        ("072f", "223b", "ACS ACR1252 Dual Reader"), ("072f", "223e", "ACS ACR1252 Reader"),
        ("072f", "2259", "ACS ACR1252IMP Reader"),
        ("04e6", "5591", "SCM SCL3711"), ("04cc", "2533", "NXP PN533"),
    ]
    /// Kernel NFC drivers that claim PN533-family readers.
    public static let kernelDrivers = ["pn533_usb", "pn533", "nfc"]

    public var sysRoot: String
    public var devRoot: String
    public var identity: UserIdentity

    public init(sysRoot: String = "/sys", devRoot: String = "/dev", identity: UserIdentity = .current()) {
        self.sysRoot = sysRoot
        self.devRoot = devRoot
        self.identity = identity
    }

    /// Roots from `NFCBENCH_SYSFS_ROOT` / `NFCBENCH_DEV_ROOT` (fake trees for tests and
    /// for diagnosing a copied system), else the real ones.
    public static func fromEnvironment(_ environment: [String: String]) -> LibNFCDiagnosis {
        LibNFCDiagnosis(sysRoot: environment["NFCBENCH_SYSFS_ROOT"] ?? "/sys",
                        devRoot: environment["NFCBENCH_DEV_ROOT"] ?? "/dev",
                        identity: .current(environment: environment))
    }

    public func openFailure(connstring: String) -> ReaderError {
        let parts = connstring.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let driver = parts[0]
        let rest = parts.count > 1 ? parts[1] : ""
        if driver.hasPrefix("pn532_uart") || driver == "acr122s" || driver == "arygon" {
            let path = String(rest.split(separator: ":").first ?? "")
            return serialFailure(driver: driver, path: path, connstring: connstring)
        }
        return usbFailure(driver: driver, connstring: connstring)
    }

    private func serialFailure(driver: String, path: String, connstring: String) -> ReaderError {
        guard !path.isEmpty else {
            return ReaderError(.invalidSpec, "'\(connstring)' names no serial port.",
                               hint: "Give the port, e.g. libnfc:\(driver):/dev/ttyUSB0.")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            return ReaderError(.noReader, "No serial reader at '\(path)'.",
                               hint: "Plug the reader in and check the port name ('ls /dev/ttyUSB* /dev/ttyACM*').")
        }
        guard identity.canReadWrite(path) != false else {
            return ReaderError(.permissionDenied, "Permission denied on '\(path)'.",
                               hint: "Join the 'dialout' group (serial) or install nfcbench's udev rules from udev/, then log in again.")
        }
        return .garbage(connstring, underlying: "the device did not answer libnfc's PN53x handshake")
    }

    private func usbFailure(driver: String, connstring: String) -> ReaderError {
        let devices = supportedDevices()
        guard !devices.isEmpty else {
            return ReaderError(.noReader, "No supported USB reader is connected.",
                               hint: "Plug in the reader and check 'lsusb'; supported: \(Self.supportedUSB.map(\.name).joined(separator: ", ")).")
        }
        for device in devices {
            if let bound = device.kernelDriver, Self.kernelDrivers.contains(bound) {
                return ReaderError(.claimedByKernel, "\(device.name) is claimed by the kernel's '\(bound)' driver.",
                                   hint: "Install udev/blacklist-nfcbench.conf into /etc/modprobe.d/ and run 'sudo modprobe -r pn533_usb pn533 nfc'.")
            }
            if let node = device.node, identity.canReadWrite(node) == false {
                return ReaderError(.permissionDenied, "Permission denied on \(device.name) (\(node)).",
                                   hint: "Install udev/70-nfcbench.rules into /etc/udev/rules.d/, run 'sudo udevadm control --reload && sudo udevadm trigger', and replug.")
            }
        }
        return ReaderError(.busy, "\(devices[0].name) is in use by another process.",
                           hint: "pcscd probably holds it: use --reader pcsc:ACR122, or stop pcscd ('sudo systemctl stop pcscd.socket pcscd').")
    }

    public struct USBDevice: Sendable {
        public let name: String
        public let sysPath: String
        /// `/dev/bus/usb/BBB/DDD`
        public let node: String?
        /// The driver bound to its first interface, if any.
        public let kernelDriver: String?
    }

    /// Supported readers present under `<sysRoot>/bus/usb/devices`.
    public func supportedDevices() -> [USBDevice] {
        let base = sysRoot + "/bus/usb/devices"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        return entries.sorted().compactMap { entry in
            let dir = base + "/" + entry
            func read(_ name: String) -> String? {
                (try? String(contentsOfFile: dir + "/" + name, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard let vid = read("idVendor"), let pid = read("idProduct"),
                  let known = Self.supportedUSB.first(where: { $0.vid == vid && $0.pid == pid }) else { return nil }
            var node: String?
            if let bus = read("busnum").flatMap(Int.init), let dev = read("devnum").flatMap(Int.init) {
                node = devRoot + String(format: "/bus/usb/%03d/%03d", bus, dev)
            }
            let interface = dir + "/" + entry + ":1.0/driver"
            let driver = (try? FileManager.default.destinationOfSymbolicLink(atPath: interface))
                .map { URL(fileURLWithPath: $0).lastPathComponent }
            return USBDevice(name: known.name, sysPath: dir, node: node, kernelDriver: driver)
        }
    }
}
