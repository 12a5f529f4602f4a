import Foundation
import NFCHost
import NFCReaders

/// Works out *why* `nfc_open` failed, since libnfc only returns NULL, and turns it
/// into an error that says what to do. System roots are overridable for tests.
public struct LibNFCDiagnosis: Sendable {
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
        LibNFCDiagnosis(
            sysRoot: environment["NFCBENCH_SYSFS_ROOT"] ?? "/sys",
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
            return ReaderError(
                .invalidSpec, "'\(connstring)' names no serial port.",
                hint: "Give the port, e.g. libnfc:\(driver):/dev/ttyUSB0.")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            return ReaderError(
                .noReader, "No serial reader at '\(path)'.",
                hint: "Plug the reader in and check the port name ('ls /dev/ttyUSB* /dev/ttyACM*').")
        }
        guard identity.canReadWrite(path) != false else {
            return ReaderError(
                .permissionDenied, "Permission denied on '\(path)'.",
                hint: "Join the 'dialout' group (serial) or install nfcbench's udev rules from udev/, then log in again.")
        }
        // The port exists and opens, but nothing answered as a PN53x: a wrong device, a
        // wrong driver or speed, or a reader that is off. Not "answered with garbage":
        // silence and garbage look the same from here.
        return ReaderError(
            .garbage,
            "The device at '\(path)' did not complete libnfc's PN53x handshake (it gave no answer, or not a valid one).",
            hint: "Check that it is a PN532 reader, that the connstring's driver matches it (pn532_uart for a PN532 "
                + "on a serial adapter), and that it is powered; then unplug and replug it.")
    }

    private func usbFailure(driver: String, connstring: String) -> ReaderError {
        let devices = supportedDevices()
        guard !devices.isEmpty else {
            return ReaderError(
                .noReader, "No supported USB reader is connected.",
                hint:
                    "Plug in the reader and check 'lsusb'; supported: \(USBReaderScan.supportedUSB.map(\.name).joined(separator: ", "))."
            )
        }
        for device in devices {
            if let bound = device.kernelDriver, USBReaderScan.kernelDrivers.contains(bound) {
                return ReaderError(
                    .claimedByKernel, "\(device.name) is claimed by the kernel's '\(bound)' driver.",
                    hint:
                        "Install udev/blacklist-nfcbench.conf into /etc/modprobe.d/ and run 'sudo modprobe -r pn533_usb pn533 nfc'."
                )
            }
            if let node = device.node, identity.canReadWrite(node) == false {
                return ReaderError(
                    .permissionDenied, "Permission denied on \(device.name) (\(node)).",
                    hint:
                        "Install udev/70-nfcbench.rules into /etc/udev/rules.d/, run 'sudo udevadm control --reload && sudo udevadm trigger', and replug."
                )
            }
        }
        return ReaderError(
            .busy, "\(devices[0].name) is in use by another process.",
            hint: "pcscd probably holds it: use --reader pcsc:ACR122, or stop pcscd ('sudo systemctl stop pcscd.socket pcscd').")
    }

    /// Supported readers present under `<sysRoot>/bus/usb/devices`.
    public func supportedDevices() -> [USBReaderScan.Device] {
        USBReaderScan(sysRoot: sysRoot, devRoot: devRoot).devices()
    }
}
