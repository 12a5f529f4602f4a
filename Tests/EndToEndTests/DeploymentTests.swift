import Foundation
import NFCHost
import NFCReaderLibNFC
import NFCTestSupport
import Testing

@Suite("udev rules and blacklist")
struct UdevRulesTests {
    let rules = try! String(contentsOf: BuiltBinary.root.appendingPathComponent("udev/70-nfcbench.rules"), encoding: .utf8)
    let blacklist = try! String(
        contentsOf: BuiltBinary.root.appendingPathComponent("udev/blacklist-nfcbench.conf"), encoding: .utf8)

    /// `KEY`, `KEY{attr}`, an operator and a double-quoted value.
    static var assignment: Regex<(Substring, Substring, Substring?, Substring, Substring)> {
        #/^([A-Z_]+)(\{[A-Za-z0-9_]+\})?(==|!=|\+=|-=|:=|=)"([^"]*)"$/#
    }

    var ruleLines: [(index: Int, text: String)] {
        rules.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { ($0.offset, $0.element.trimmingCharacters(in: .whitespaces)) }
            .filter { !$0.1.isEmpty && !$0.1.hasPrefix("#") }
    }

    @Test func everyRuleLineParses() {
        for line in ruleLines {
            for part in line.text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                #expect(part.wholeMatch(of: Self.assignment) != nil, "line \(line.index + 1): '\(part)' does not parse")
            }
        }
    }

    @Test func nothingIsWorldWritable() {
        var modes = 0
        for line in ruleLines {
            for match in line.text.matches(of: #/MODE\s*:?=\s*"(\d+)"/#) {
                modes += 1
                let mode = Int(match.1, radix: 8)!
                #expect(mode & 0o002 == 0, "line \(line.index + 1): MODE=\"\(match.1)\" is world-writable")
            }
        }
        #expect(modes == USBReaderScan.supportedUSB.count)
        // The project's own before-stop check greps the whole file, comments included.
        #expect(rules.firstMatch(of: #/MODE="?0?666/#) == nil)
    }

    @Test func everySupportedReaderIsCoveredWithGroupAndUaccess() {
        for reader in USBReaderScan.supportedUSB {
            let line = ruleLines.first {
                $0.text.contains("ATTR{idVendor}==\"\(reader.vid)\"") && $0.text.contains("ATTR{idProduct}==\"\(reader.pid)\"")
            }
            #expect(line != nil, "\(reader.name) \(reader.vid):\(reader.pid) has no rule")
            #expect(line?.text.contains("GROUP=\"plugdev\"") == true && line?.text.contains("TAG+=\"uaccess\"") == true)
        }
    }

    @Test func everyLineSaysWhy() {
        let lines = rules.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for line in ruleLines {
            #expect(line.index > 0 && lines[line.index - 1].hasPrefix("#"), "line \(line.index + 1) has no comment above it")
        }
        let bl = blacklist.split(separator: "\n").map(String.init)
        for module in USBReaderScan.kernelDrivers {
            let i = bl.firstIndex(of: "blacklist \(module)")
            #expect(i != nil && bl[i! - 1].hasPrefix("#"), "blacklist \(module) missing or without a comment")
        }
    }
}

/// Fake sysfs/proc/dev/etc trees, one per situation `doctor` must recognise.
struct FakeSystem {
    /// Removed when the last copy of this fake system goes away, at the end of its test.
    let scratch: TemporaryDirectory
    var root: String { scratch.path }

    /// `ccidOptions`: the `ifdDriverOptions` string of a libccid Info.plist to install.
    init(
        reader: Bool = true, module: String? = nil, mode: Int = 0o660, pcscdHolds: Bool = false, rules: Bool = true,
        ccidOptions: String? = nil, pcscdSocket: Bool? = nil, virtualBench: Bool = false
    ) throws {
        scratch = try TemporaryDirectory("doctor")
        let root = scratch.path
        let fm = FileManager.default
        for dir in ["/sys/bus/usb/devices", "/dev/bus/usb/001", "/proc", "/etc/modprobe.d", "/etc/udev/rules.d"] {
            try fm.createDirectory(atPath: root + dir, withIntermediateDirectories: true)
        }
        // The operator's data folder: writable by them, as a home directory would be.
        try fm.createDirectory(atPath: root + "/data", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        try (module.map { "\($0) 49152 0 - Live 0x0000000000000000\n" } ?? "ext4 1 0 - Live 0x0\n")
            .write(toFile: root + "/proc/modules", atomically: true, encoding: .utf8)
        if reader {
            let device = root + "/sys/bus/usb/devices/1-2"
            try fm.createDirectory(atPath: device + "/1-2:1.0", withIntermediateDirectories: true)
            for (name, value) in [("idVendor", "072f"), ("idProduct", "2200"), ("busnum", "1"), ("devnum", "4")] {
                try value.write(toFile: device + "/" + name, atomically: true, encoding: .utf8)
            }
            if let module {
                try fm.createDirectory(atPath: root + "/sys/bus/usb/drivers/" + module, withIntermediateDirectories: true)
                try fm.createSymbolicLink(
                    atPath: device + "/1-2:1.0/driver", withDestinationPath: root + "/sys/bus/usb/drivers/" + module)
            }
            #expect(
                fm.createFile(
                    atPath: root + "/dev/bus/usb/001/004", contents: nil,
                    attributes: [.posixPermissions: mode, .groupOwnerAccountID: 46]))
        }
        // pcscd's socket, where clients look for it: there when it runs, unless told otherwise.
        if pcscdSocket ?? pcscdHolds {
            try fm.createDirectory(atPath: root + "/run/pcscd", withIntermediateDirectories: true)
            #expect(fm.createFile(atPath: root + "/run/pcscd/pcscd.comm", contents: nil))
        }
        // A virtual bench registered as running (this test process stands in for its server).
        if virtualBench {
            try fm.createDirectory(atPath: root + "/state/benches", withIntermediateDirectories: true)
            try fm.createDirectory(atPath: root + "/bench", withIntermediateDirectories: true)
            #expect(fm.createFile(atPath: root + "/bench/control.sock", contents: nil))
            try #"{"pid":\#(getpid()),"directory":"\#(root)/bench","connstring":"pn532_uart:\#(root)/bench/pn532"}"#
                .write(toFile: root + "/state/benches/\(getpid()).json", atomically: true, encoding: .utf8)
        }
        if pcscdHolds {
            try fm.createDirectory(atPath: root + "/proc/812/fd", withIntermediateDirectories: true)
            try "pcscd\n".write(toFile: root + "/proc/812/comm", atomically: true, encoding: .utf8)
            try fm.createSymbolicLink(atPath: root + "/proc/812/fd/7", withDestinationPath: root + "/dev/bus/usb/001/004")
        }
        if let ccidOptions {
            try """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            	<key>ifdCapabilities</key>
            	<string>0x00000000</string>
            	<key>ifdDriverOptions</key>
            	<string>\(ccidOptions)</string>
            </dict></plist>
            """.write(toFile: root + "/etc/libccid_Info.plist", atomically: true, encoding: .utf8)
        }
        if rules {
            try fm.copyItem(
                atPath: BuiltBinary.root.appendingPathComponent("udev/70-nfcbench.rules").path,
                toPath: root + "/etc/udev/rules.d/70-nfcbench.rules")
            try fm.copyItem(
                atPath: BuiltBinary.root.appendingPathComponent("udev/blacklist-nfcbench.conf").path,
                toPath: root + "/etc/modprobe.d/blacklist-nfcbench.conf")
        }
    }

    /// `nfcbench doctor --root` as a plugdev member (gid 46) unless told otherwise.
    func doctor(identity: String = "1000:1000,46") async throws -> (
        status: Int32, checks: [String: (verdict: String, fix: String?, detail: String)]
    ) {
        let r = try await BuiltBinary.run(
            ["doctor", "--root", root, "--json", "--db", root + "/data/bench.sqlite"],
            // This tree's own benches and pcscd socket, never those of the machine running the tests.
            environment: ["NFCBENCH_IDENTITY": identity, "NFCBENCH_STATE_DIR": root + "/state", "PCSCLITE_CSOCK_NAME": ""])
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        var checks: [String: (String, String?, String)] = [:]
        for c in object["checks"] as! [[String: Any]] {
            checks[c["id"] as! String] = (c["verdict"] as! String, c["fix"] as? String, c["detail"] as! String)
        }
        return (r.status, checks)
    }
}

@Suite("nfcbench doctor on fake systems")
struct DoctorTests {
    @Test func healthy() async throws {
        let r = try await FakeSystem().doctor()
        #expect(r.status == 0)
        for id in ["readers", "permissions", "kernel-modules", "udev-rules", "blacklist", "conflicts", "catalog", "libraries"] {
            #expect(r.checks[id]?.verdict == "OK", "\(id): \(String(describing: r.checks[id]))")
        }
        #expect(r.checks["pcscd"]?.verdict == "WARN")  // not running in the fake tree; only PC/SC needs it
        #expect(r.checks["ccid-escape"]?.verdict == "OK")  // libccid absent: nothing to warn about
        // The fake bench's ACR122U: tag mode is limited, and doctor says what to buy.
        #expect(r.checks["tag-mode"]?.verdict == "WARN" && r.checks["tag-mode"]?.fix?.contains("PN532") == true)
    }

    @Test func kernelModuleLoaded() async throws {
        let r = try await FakeSystem(module: "pn533_usb").doctor()
        #expect(r.status == 1 && r.checks["kernel-modules"]?.verdict == "FAIL")
        #expect(r.checks["kernel-modules"]?.fix?.contains("modprobe -r pn533_usb pn533 nfc") == true)
    }

    @Test func noPermission() async throws {
        let r = try await FakeSystem().doctor(identity: "1000:1000")
        #expect(r.status == 1 && r.checks["permissions"]?.verdict == "FAIL")
        #expect(r.checks["permissions"]?.fix?.contains("plugdev") == true)
    }

    @Test func pcscdHoldingTheReader() async throws {
        let r = try await FakeSystem(pcscdHolds: true).doctor()
        #expect(r.checks["pcscd"]?.verdict == "OK" && r.checks["conflicts"]?.verdict == "WARN")
        #expect(r.checks["conflicts"]?.fix?.contains("--reader pcsc:ACR122") == true)
        #expect(r.status == 0)
    }

    @Test func noReader() async throws {
        let r = try await FakeSystem(reader: false).doctor()
        #expect(r.status == 1 && r.checks["readers"]?.verdict == "FAIL")
        #expect(r.checks["readers"]?.fix?.contains("lsusb") == true)
    }

    /// issue 52: with only virtual benches, a station still runs (without evidence): no FAIL.
    @Test func noReaderButAVirtualBench() async throws {
        let system = try FakeSystem(reader: false, virtualBench: true)
        let r = try await system.doctor()
        #expect(r.checks["readers"]?.verdict == "WARN", "\(String(describing: r.checks["readers"]))")
        #expect(r.checks["readers"]?.detail.contains("libnfc:pn532_uart:\(system.root)/bench/pn532") == true)
        #expect(r.checks["readers"]?.detail.contains("never bench evidence") == true)
        #expect(r.checks["readers"]?.fix?.contains("lsusb") == true)
    }

    /// issue 52: doctor said pcscd runs while 'readers' found no PC/SC service: a pcscd on
    /// another socket serves no client here. And a socket with no daemon is systemd's
    /// on-demand start, which serves them.
    @Test func pcscdIsJudgedByTheSocketClientsUse() async throws {
        let elsewhere = try await FakeSystem(pcscdHolds: true, pcscdSocket: false).doctor()
        #expect(elsewhere.checks["pcscd"]?.verdict == "WARN")
        #expect(elsewhere.checks["pcscd"]?.detail.contains("it serves another socket") == true)
        #expect(elsewhere.checks["pcscd"]?.fix?.contains("PCSCLITE_CSOCK_NAME") == true)
        let onDemand = try await FakeSystem(pcscdSocket: true).doctor()
        #expect(onDemand.checks["pcscd"]?.verdict == "OK")
        #expect(onDemand.checks["pcscd"]?.detail.contains("starts on demand") == true)
    }

    @Test func rulesMissing() async throws {
        let r = try await FakeSystem(rules: false).doctor()
        #expect(r.checks["udev-rules"]?.verdict == "WARN" && r.checks["blacklist"]?.verdict == "WARN")
        #expect(r.checks["udev-rules"]?.fix?.contains("70-nfcbench.rules") == true)
        #expect(r.checks["blacklist"]?.fix?.contains("blacklist-nfcbench.conf") == true)
    }

    @Test(arguments: [("0x0000", "WARN"), ("0x0005", "OK"), ("0x0004", "WARN"), ("1", "OK"), ("garbage", "WARN")])
    func libccidEscapeCommands(options: String, verdict: String) async throws {
        let r = try await FakeSystem(ccidOptions: options).doctor()
        #expect(r.checks["ccid-escape"]?.verdict == verdict, "\(String(describing: r.checks["ccid-escape"]))")
        if options == "0x0004" {
            #expect(r.checks["ccid-escape"]?.fix?.contains("<string>0x0005</string>") == true)
            #expect(r.checks["ccid-escape"]?.fix?.contains("restart pcscd") == true)
        }
        #expect(r.status == 0)  // a warning, not a failure: libnfc readers and card-present escapes still work
    }

    @Test func unwritableDatabase() async throws {
        let system = try FakeSystem()
        try FileManager.default.createDirectory(
            atPath: system.root + "/ro", withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o555])
        let r = try await BuiltBinary.run(
            ["doctor", "--root", system.root, "--db", system.root + "/ro/bench.sqlite"],
            environment: ["NFCBENCH_IDENTITY": "1000:1000,46"])
        #expect(r.status == 1 && r.stdout.contains("FAIL  database:") && r.stdout.contains("fix: Use --db PATH"))
    }
}

@Suite("install.sh")
struct InstallTests {
    @Test func stagedInstallRunsFromAnotherDirectoryAndUninstalls() async throws {
        let stage = FileManager.default.temporaryDirectory.appendingPathComponent("stage-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: stage) }
        let script = BuiltBinary.root.appendingPathComponent("scripts/install.sh").path
        for _ in 0..<2 {  // idempotent
            let r = try await runTool(
                "/bin/bash", [script, "--prefix", "/opt/nfcbench", "--bin", BuiltBinary.path],
                environment: ["DESTDIR": stage])
            #expect(r.status == 0, "\(r.output)")
        }
        for file in [
            "/opt/nfcbench/bin/nfcbench", "/opt/nfcbench/bin/nfcbench-fetch", "/opt/nfcbench/share/nfcbench/seed_catalog.json",
            "/opt/nfcbench/share/nfcbench/Localizable.xcstrings", "/etc/udev/rules.d/70-nfcbench.rules",
            "/etc/modprobe.d/blacklist-nfcbench.conf", "/opt/nfcbench/share/man/man1/nfcbench.1",
            "/opt/nfcbench/share/man/man1/nfcbench-run.1", "/opt/nfcbench/share/man/man1/nfcbench-catalog-sync.1",
            "/opt/nfcbench/share/bash-completion/completions/nfcbench", "/opt/nfcbench/share/zsh/site-functions/_nfcbench",
            "/opt/nfcbench/share/fish/vendor_completions.d/nfcbench.fish",
        ] {
            #expect(FileManager.default.fileExists(atPath: stage + file), "\(file) missing")
        }
        // man finds the installed pages through the prefix's share/man, as `man nfcbench-run` would.
        let page = try await runTool(
            "/usr/bin/man", ["-M", stage + "/opt/nfcbench/share/man", "nfcbench-run"],
            environment: ["MANWIDTH": "200", "LANG": "C.UTF-8"])
        #expect(page.status == 0 && page.output.contains("nfcbench-run - Guide a bench session"), "\(page.output)")
        let r = try await BuiltBinary.run(
            ["resolve", "--model", "SM-S921U1", "--json"],
            currentDirectory: URL(fileURLWithPath: "/"), binary: stage + "/opt/nfcbench/bin/nfcbench")
        let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(o["source"] as? String == "seedCatalog" && o["matchedKey"] as? String == "sm_s921b", "\(r.stderr)")
        let layers = o["layers"] as! [[String: Any]]
        #expect((layers[1]["origin"] as? String)?.hasPrefix(stage + "/opt/nfcbench/share/nfcbench") == true)

        let un = try await runTool(
            "/bin/bash",
            [
                BuiltBinary.root.appendingPathComponent("scripts/uninstall.sh").path,
                "--prefix", "/opt/nfcbench",
            ], environment: ["DESTDIR": stage])
        #expect(un.status == 0 && !FileManager.default.fileExists(atPath: stage + "/opt/nfcbench/bin/nfcbench"))
        #expect(!FileManager.default.fileExists(atPath: stage + "/opt/nfcbench/bin/nfcbench-fetch"))
        #expect(!FileManager.default.fileExists(atPath: stage + "/etc/udev/rules.d/70-nfcbench.rules"))
        let man1 = try FileManager.default.contentsOfDirectory(atPath: stage + "/opt/nfcbench/share/man/man1")
        #expect(man1.isEmpty, "left behind: \(man1)")
        #expect(!FileManager.default.fileExists(atPath: stage + "/opt/nfcbench/share/bash-completion/completions/nfcbench"))
        #expect(!FileManager.default.fileExists(atPath: stage + "/opt/nfcbench/share/zsh/site-functions/_nfcbench"))
        #expect(!FileManager.default.fileExists(atPath: stage + "/opt/nfcbench/share/fish/vendor_completions.d/nfcbench.fish"))
    }
}
