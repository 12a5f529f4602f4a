import Foundation

/// The NFC readers nfcbench supports that are plugged in, read from sysfs: which, where
/// their device node is, and which kernel driver holds them. Reader diagnosis (why
/// `nfc_open` failed) and `doctor` both ask this; roots are overridable for fake trees.
public struct USBReaderScan: Sendable {
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

    public struct Device: Sendable {
        public let name: String
        public let sysPath: String
        /// `/dev/bus/usb/BBB/DDD`
        public let node: String?
        /// The driver bound to its first interface, if any.
        public let kernelDriver: String?
    }

    public var sysRoot: String
    public var devRoot: String

    public init(sysRoot: String = "/sys", devRoot: String = "/dev") {
        self.sysRoot = sysRoot
        self.devRoot = devRoot
    }

    /// Supported readers present under `<sysRoot>/bus/usb/devices`.
    public func devices() -> [Device] {
        let base = sysRoot + "/bus/usb/devices"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        return entries.sorted().compactMap { entry in
            let dir = base + "/" + entry
            func read(_ name: String) -> String? {
                (try? String(contentsOfFile: dir + "/" + name, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard let vid = read("idVendor"), let pid = read("idProduct"),
                let known = Self.supportedUSB.first(where: { $0.vid == vid && $0.pid == pid })
            else { return nil }
            var node: String?
            if let bus = read("busnum").flatMap(Int.init), let dev = read("devnum").flatMap(Int.init) {
                node = devRoot + String(format: "/bus/usb/%03d/%03d", bus, dev)
            }
            let interface = dir + "/" + entry + ":1.0/driver"
            let driver = (try? FileManager.default.destinationOfSymbolicLink(atPath: interface))
                .map { URL(fileURLWithPath: $0).lastPathComponent }
            return Device(name: known.name, sysPath: dir, node: node, kernelDriver: driver)
        }
    }
}
