import Glibc

/// One name for the device a path reaches, whatever the path: `/dev/ttyUSB0`, the
/// `/dev/serial/by-id/...` link udev makes for it, or a link of the operator's own all
/// give the same identity. What nfcbench changed on a reader and must put back is
/// journalled under it (issue 49, L2: a reader weakened under one name was not restored
/// when opened under another).
///
/// - A USB device (a USB-serial adapter's tty, a reader on `/dev/bus/usb`): its vendor,
///   product and serial number from sysfs, so the identity also survives a replug that
///   renumbers the node; where it has no serial number, the USB port it sits in.
/// - Any other character or block device (a pseudo-terminal, a UART): its device number.
/// - Anything else: its file system and inode.
public enum DeviceNode {
    /// `nil` when `path` reaches nothing (`stat` fails).
    public static func identity(of path: String, sysfs: String = "/sys") -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFCHR || kind == S_IFBLK else { return "file-\(status.st_dev):\(status.st_ino)" }
        let (major, minor) = split(UInt64(status.st_rdev))
        let folder = kind == S_IFCHR ? "char" : "block"
        if let usb = usbIdentity(sysfs + "/dev/\(folder)/\(major):\(minor)") { return usb }
        return "\(folder)-\(major):\(minor)"
    }

    /// glibc's `major()`/`minor()` (macros Swift cannot call).
    static func split(_ device: UInt64) -> (major: UInt64, minor: UInt64) {
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        return (major, minor)
    }

    /// The USB device above the node's sysfs entry: the nearest folder up the device path
    /// holding `idVendor` and `idProduct`.
    static func usbIdentity(_ link: String) -> String? {
        guard let resolved = realpath(link, nil) else { return nil }
        var folder = String(cString: resolved)
        free(resolved)
        while folder.hasPrefix("/") && folder.count > 1 {
            if let vendor = firstLine(folder + "/idVendor"), let product = firstLine(folder + "/idProduct") {
                if let serial = firstLine(folder + "/serial"), !serial.isEmpty {
                    return "usb-\(vendor):\(product)-serial-\(serial)"
                }
                let port = folder.split(separator: "/").last.map(String.init) ?? folder
                return "usb-\(vendor):\(product)-port-\(port)"
            }
            folder = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)])
        }
        return nil
    }

    /// The identity of the USB device at `bus` and `address` (what a PC/SC driver names as
    /// its channel, `SCARD_ATTR_CHANNEL_ID`), found by its `busnum` and `devnum` under
    /// sysfs's USB devices, as `identity(of:)` gives it for the device's node; `nil` when no
    /// such device is plugged in now.
    public static func identity(usbBus bus: Int, address: Int, sysfs: String = "/sys") -> String? {
        let devices = sysfs + "/bus/usb/devices"
        guard let folder = opendir(devices) else { return nil }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            let device = devices + "/" + name
            guard firstLine(device + "/busnum").flatMap({ Int($0) }) == bus,
                firstLine(device + "/devnum").flatMap({ Int($0) }) == address
            else { continue }
            return usbIdentity(device)
        }
        return nil
    }

    /// A sysfs attribute's first line (they are a few bytes; 256 is plenty).
    static func firstLine(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
    }
}
