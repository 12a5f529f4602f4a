import Foundation
import NFCReaders
import NFCSystem
import NFCTestSupport
import Testing

/// Every name of one reader keys its journals alike (issue 49, L2): a link and the node it
/// points to, and a USB adapter by its serial number whatever its node is called.
@Suite struct ReaderDeviceTests {
    let scratch = try! TemporaryDirectory("device")

    /// A pseudo-terminal standing in for a USB-serial adapter's tty, and a link to it.
    func terminalAndLink() throws -> (terminal: (master: OwnedFileDescriptor, slave: SerialPort), link: String) {
        let terminal = try SerialPort.pseudoTerminal()
        let link = scratch.file("by-id-link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: terminal.slave.path)
        return (terminal, link)
    }

    @Test func aLinkAndItsNodeAreOneDevice() throws {
        let (terminal, link) = try terminalAndLink()
        let viaLink = ReaderDevice.key(for: "pn532_uart:" + link)
        #expect(viaLink == ReaderDevice.key(for: "pn532_uart:" + terminal.slave.path + ":115200"))
        #expect(viaLink == ReaderDevice.key(for: "libnfc:pn532_uart:" + terminal.slave.path))
        #expect(viaLink.hasPrefix("device:char-136:"), "\(viaLink)")  // the Unix98 pty major
        // Another terminal is another device.
        let other = try SerialPort.pseudoTerminal()
        #expect(ReaderDevice.key(for: "pn532_uart:" + other.slave.path) != viaLink)
    }

    /// Names that reach no device node now keep their own spelling: a PC/SC reader, a USB
    /// reader's bus address on a machine without it, a serial port that is not plugged in.
    @Test(arguments: ["pcsc:ACS ACR122U PICC Interface 00 00", "pn53x_usb:001:004", "pn532_uart:/dev/ttyUSB99", "sim"])
    func namesThatReachNoDeviceStayAsTheyAre(name: String) {
        #expect(ReaderDevice.key(for: name) == name)
    }

    /// A USB adapter is named by vendor, product and serial number from sysfs (so a replug
    /// that renumbers its tty keeps the key), else by the USB port it sits in.
    @Test func aUSBAdapterIsNamedByItsSerialNumberElseItsPort() throws {
        let (terminal, link) = try terminalAndLink()
        var status = stat()
        #expect(stat(terminal.slave.path, &status) == 0)
        let device = UInt64(status.st_rdev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        let sysfs = scratch.file("sys")
        let usb = sysfs + "/devices/pci0000:00/usb1/1-1.2"
        let tty = usb + "/1-1.2:1.0/ttyUSB0/tty/ttyUSB0"
        try FileManager.default.createDirectory(atPath: tty, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: sysfs + "/dev/char", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sysfs + "/dev/char/\(major):\(minor)", withDestinationPath: tty)
        try "072f\n".write(toFile: usb + "/idVendor", atomically: true, encoding: .utf8)
        try "2200\n".write(toFile: usb + "/idProduct", atomically: true, encoding: .utf8)
        try "RR174-002117\n".write(toFile: usb + "/serial", atomically: true, encoding: .utf8)
        #expect(ReaderDevice.key(for: "pn532_uart:" + link, sysfs: sysfs) == "device:usb-072f:2200-serial-RR174-002117")
        try FileManager.default.removeItem(atPath: usb + "/serial")
        #expect(ReaderDevice.key(for: "pn532_uart:" + link, sysfs: sysfs) == "device:usb-072f:2200-port-1-1.2")
    }

    /// A PC/SC reader is keyed by the USB device its driver names as its channel
    /// (`SCARD_ATTR_CHANNEL_ID`: 0x0020 << 16 | bus << 8 | address) and its slot, never by
    /// pcscd's reader index, which follows the order readers were plugged in; the same
    /// sysfs folder gives the identity a libnfc connstring to that device gives.
    @Test func aPCSCReaderIsKeyedByItsUSBDeviceAndSlot() throws {
        let sysfs = scratch.file("sys")
        let usb = sysfs + "/devices/pci0000:00/usb3/3-1.4"
        try FileManager.default.createDirectory(atPath: usb, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: sysfs + "/bus/usb/devices", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sysfs + "/bus/usb/devices/3-1.4", withDestinationPath: usb)
        for (file, value) in [("busnum", "3"), ("devnum", "17"), ("idVendor", "072f"), ("idProduct", "2200")] {
            try (value + "\n").write(toFile: usb + "/" + file, atomically: true, encoding: .utf8)
        }
        // A hub on the same bus, which is not the reader.
        let hub = sysfs + "/devices/pci0000:00/usb3"
        for (file, value) in [("busnum", "3"), ("devnum", "1"), ("idVendor", "1d6b"), ("idProduct", "0002")] {
            try (value + "\n").write(toFile: hub + "/" + file, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createSymbolicLink(atPath: sysfs + "/bus/usb/devices/usb3", withDestinationPath: hub)
        let channel: UInt32 = 0x0020_0000 | 3 << 8 | 17
        let first = ReaderDevice.pcscKey(channelID: channel, readerName: "ACS ACR122U PICC Interface 00 00", sysfs: sysfs)
        #expect(first == "device:usb-072f:2200-port-3-1.4/slot-0")
        // Replugged after another reader: pcscd's index moves, the key does not.
        #expect(ReaderDevice.pcscKey(channelID: channel, readerName: "ACS ACR122U PICC Interface 01 00", sysfs: sysfs) == first)
        // Another slot of the same device is another key.
        #expect(ReaderDevice.pcscKey(channelID: channel, readerName: "ACS ACR1252 Dual Reader 00 01", sysfs: sysfs) != first)
        // A serial number names the device wherever it is plugged in.
        try "RR174-002117\n".write(toFile: usb + "/serial", atomically: true, encoding: .utf8)
        #expect(
            ReaderDevice.pcscKey(channelID: channel, readerName: "ACS ACR122U PICC Interface 00 00", sysfs: sysfs)
                == "device:usb-072f:2200-serial-RR174-002117/slot-0")
        // No channel, a channel that is not USB, or a device not plugged in: the name keys it.
        for unknown in [nil, 0x0001_0003, 0x0020_0000 | 3 << 8 | 18] as [UInt32?] {
            #expect(
                ReaderDevice.pcscKey(channelID: unknown, readerName: "x 00 00", sysfs: sysfs) == nil,
                "\(String(describing: unknown))")
        }
    }

    /// The journal written under one name is read and cleared under the other.
    @Test func theAnalogJournalFollowsTheDevice() throws {
        let (terminal, link) = try terminalAndLink()
        let journal = AnalogJournal(path: scratch.file("analog"))
        let weakened: [UInt8] = [0x29, 0xF4, 0x11, 0x11, 0x4D, 0x85, 0x61, 0x6F, 0x26, 0x62, 0x87]
        #expect(journal.record(weakened, for: "pn532_uart:" + link))
        #expect(journal.original(for: "pn532_uart:" + terminal.slave.path) == weakened)
        #expect(journal.pending() == ["pn532_uart:" + link])
        journal.clear(for: "pn532_uart:" + terminal.slave.path)
        #expect(journal.original(for: "pn532_uart:" + link) == nil && journal.pending().isEmpty)
    }
}
