import Foundation
import NFCHost
import NFCTestSupport
import Testing

@Suite("Host facts from fake system trees")
struct HostFactsTests {
    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("host") }

    func write(_ text: String, _ path: String) throws {
        let url = scratch.url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    @Test func aSupportedReaderIsFoundWithItsNodeAndDriverAndOthersAreNot() throws {
        try write("072f\n", "sys/bus/usb/devices/1-2/idVendor")
        try write("2200\n", "sys/bus/usb/devices/1-2/idProduct")
        try write("1\n", "sys/bus/usb/devices/1-2/busnum")
        try write("7\n", "sys/bus/usb/devices/1-2/devnum")
        try FileManager.default.createDirectory(
            atPath: scratch.file("sys/bus/usb/devices/1-2/1-2:1.0"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: scratch.file("sys/bus/usb/devices/1-2/1-2:1.0/driver"),
            withDestinationPath: "../../../bus/usb/drivers/pn533_usb")
        // A keyboard: not a reader.
        try write("046d\n", "sys/bus/usb/devices/1-3/idVendor")
        try write("c31c\n", "sys/bus/usb/devices/1-3/idProduct")
        let found = USBReaderScan(sysRoot: scratch.file("sys"), devRoot: scratch.file("dev")).devices()
        #expect(found.count == 1)
        #expect(found.first?.name == "ACS ACR122U" && found.first?.kernelDriver == "pn533_usb")
        #expect(found.first?.node == scratch.file("dev") + "/bus/usb/001/007")
        #expect(USBReaderScan(sysRoot: scratch.file("nowhere")).devices().isEmpty)
    }

    @Test func theMachineNameJoinsHostAndMachineIdOrTakesTheOverride() throws {
        let roots = SystemRoots.under(scratch.path)
        try write("0123456789abcdef0123456789abcdef\n", "etc/machine-id")
        let named = MachineName.current(environment: [:], roots: roots)
        #expect(named.hasSuffix(" (01234567)"), "\(named)")
        #expect(MachineName.current(environment: ["NFCBENCH_MACHINE": "  rig-4 "], roots: roots) == "rig-4")
        try write("not hex at all\n", "etc/machine-id")
        #expect(!MachineName.current(environment: [:], roots: roots).contains("("))
    }

    @Test func permissionsAreJudgedForTheGivenAccountNotForRoot() throws {
        let node = scratch.file("device")
        try write("", "device")
        chmod(node, 0o660)
        var info = stat()
        stat(node, &info)
        let owner = UserIdentity(uid: info.st_uid, groups: [])
        let groupMember = UserIdentity(uid: 65_000, groups: [info.st_gid])
        let stranger = UserIdentity(uid: 65_000, groups: [65_001])
        #expect(owner.canReadWrite(node) == true && groupMember.canReadWrite(node) == true)
        #expect(stranger.canReadWrite(node) == false)
        #expect(stranger.canReadWrite(scratch.file("missing")) == nil)
        #expect(UserIdentity.current(environment: ["NFCBENCH_IDENTITY": "1234:5,6"]) == UserIdentity(uid: 1234, groups: [5, 6]))
    }
}
