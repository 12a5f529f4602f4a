import NFCSystem

/// The device behind a reader's name. A serial PN532 answers to `/dev/ttyUSB0`, to the
/// `/dev/serial/by-id/...` link docs/rig.md recommends, and to any link an operator makes;
/// a USB reader to `pn53x_usb:001:004` until a replug renumbers it. What nfcbench must
/// put back on a reader (`AnalogJournal`) is keyed by the device, so a reader left
/// weakened under one name is restored when it is opened under any other (issue 49, L2).
public enum ReaderDevice {
    /// libnfc drivers whose connstring's second field is a serial port.
    static let serialDrivers: Set<Substring> = ["pn532_uart", "acr122s", "arygon"]
    /// libnfc drivers whose connstring names a USB bus and device number.
    static let usbDrivers: Set<Substring> = ["pn53x_usb", "acr122_usb"]

    /// The serial port a libnfc connstring names, for drivers that use one.
    public static func serialPath(of connstring: String) -> String? {
        let parts = connstring.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, serialDrivers.contains(parts[0]), !parts[1].isEmpty else { return nil }
        return String(parts[1])
    }

    /// The device node a libnfc connstring reaches: its serial port, or the USB device's
    /// node under `/dev/bus/usb`.
    static func node(of connstring: String) -> String? {
        if let path = serialPath(of: connstring) { return path }
        let parts = connstring.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, usbDrivers.contains(parts[0]), let bus = Int(parts[1]), let device = Int(parts[2]),
            (1...999).contains(bus), (1...999).contains(device)
        else { return nil }
        return "/dev/bus/usb/" + threeDigits(bus) + "/" + threeDigits(device)
    }

    private static func threeDigits(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    /// What a PC/SC reader's state is kept under (issue 49, L2): its USB device and slot,
    /// `device:<identity>/slot-<n>`, when its driver names a USB channel
    /// (`SCARD_ATTR_CHANNEL_ID`, `0x0020` in the high half, then bus << 8 | address, as
    /// libccid answers) and that device is plugged in now; else `nil`, and the reader's name
    /// (`pcsc:<name>`) is the key. pcscd's names carry an index that follows the order
    /// readers were plugged in, so two ACR122Us swap names across a replug; the device and
    /// the slot (the name's last number) do not. The identity is the one a libnfc
    /// connstring to the same USB device gives, so both backends find one journal.
    public static func pcscKey(channelID: UInt32?, readerName: String, sysfs: String = "/sys") -> String? {
        guard let channelID, channelID >> 16 == 0x0020 else { return nil }
        let bus = Int((channelID >> 8) & 0xFF), address = Int(channelID & 0xFF)
        guard let identity = DeviceNode.identity(usbBus: bus, address: address, sysfs: sysfs) else { return nil }
        let slot = readerName.split(separator: " ").last.flatMap { Int($0) } ?? 0
        return "device:" + identity + "/slot-" + String(slot)
    }

    /// What a reader's state is kept under: `device:` and the device's identity
    /// (`DeviceNode.identity`) when its name reaches a device node that exists now, else
    /// the name as given (a PC/SC reader, a device that is not plugged in).
    public static func key(for reader: String, sysfs: String = "/sys") -> String {
        let connstring = reader.hasPrefix("libnfc:") ? String(reader.dropFirst("libnfc:".count)) : reader
        guard let node = node(of: connstring), let identity = DeviceNode.identity(of: node, sysfs: sysfs) else {
            return reader
        }
        return "device:" + identity
    }
}
