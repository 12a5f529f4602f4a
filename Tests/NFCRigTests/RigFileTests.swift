import Testing

@testable import NFCRig

@Suite("The rig file")
struct RigFileTests {
    static let complete = """
        # a GRBL gantry over an ACR122U
        device = /dev/ttyUSB0
        dialect = grbl
        baud = 115200
        origin-x = 40
        origin-y = 30.5
        x-axis = +X
        y-axis = -Y
        safe-z = 32
        tap-z = 2
        feed-xy = 3000
        feed-z = 600
        travel-x = 200
        travel-y = 250
        travel-z = 60
        homes = yes
        """

    @Test func aCompleteFileReadsAndWritesBackTheSame() throws {
        let rig = try RigConfiguration.parse(Self.complete)
        #expect(rig.device == "/dev/ttyUSB0")
        #expect(rig.dialect == .grbl)
        #expect(rig.originY == 30.5)
        #expect(rig.yAxis == RigConfiguration.AxisDirection(axis: .y, sign: -1))
        #expect(rig.homes)
        #expect(try RigConfiguration.parse(rig.text) == rig)
    }

    /// Issue 49, F7 and the CRLF finding: a file saved with CRLF reads as the same rig; a
    /// NUL, another control character or bytes that are not UTF-8 are refused naming the line.
    @Test func crlfReadsAndNulOrBadBytesAreRefusedWithTheirLine() throws {
        let crlf = Array(Self.complete.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        #expect(try RigConfiguration.parse(bytes: crlf) == RigConfiguration.parse(Self.complete))
        var nul = Array(Self.complete.utf8)
        let feedZ = try #require(Self.complete.range(of: "feed-z = 600")).upperBound
        nul.insert(0, at: Self.complete.utf8.distance(from: Self.complete.utf8.startIndex, to: feedZ) - 2)
        #expect(throws: RigFileError(line: 12, "holds a control character (NUL); only text belongs in a rig file")) {
            try RigConfiguration.parse(bytes: nul)
        }
        var latin1 = Array(Self.complete.utf8)
        latin1.insert(0xE9, at: 3)  // "é" as Latin-1, on line 1
        #expect(throws: RigFileError(line: 1, "is not UTF-8 text; save the file as UTF-8")) {
            try RigConfiguration.parse(bytes: latin1)
        }
        let escape = Self.complete.replacingOccurrences(of: "dialect = grbl", with: "dialect = grbl\u{1B}[2J")
        #expect(throws: RigFileError.self) { try RigConfiguration.parse(escape) }
    }

    @Test func deviceAndBaudAreOptional() throws {
        let text = Self.complete.split(separator: "\n").filter { !$0.hasPrefix("device") && !$0.hasPrefix("baud") }
            .joined(separator: "\n")
        let rig = try RigConfiguration.parse(text)
        #expect(rig.device == nil)
        #expect(rig.baud == 115_200)
    }

    /// Each bad line is refused with its line number and what would be right.
    @Test(arguments: [
        ("feed-xy = 3000", "feed-xy = inf", 11, "feed-xy must be a number"),
        ("feed-xy = 3000", "feed-xy = 1e309", 11, "feed-xy must be a number"),
        ("feed-z = 600", "feed-z = 0", 12, "outside"),
        ("x-axis = +X", "x-axis = Z", 7, "+X, -X, +Y or -Y"),
        ("homes = yes", "homes = maybe", 16, "yes or no"),
        ("dialect = grbl", "dialect = smoothie", 3, "grbl or marlin"),
        ("baud = 115200", "baud = 250000", 4, "baud must be one of"),
        ("tap-z = 2", "tap-z = 2\nspeed = 9", 11, "unknown key 'speed'"),
        ("tap-z = 2", "tap-z = 2\ntap-z = 3", 11, "set twice (first on line 10)"),
        ("origin-x = 40", "origin-x = 40 mm", 5, "must be a number"),
        ("device = /dev/ttyUSB0", "device = ttyUSB0", 2, "absolute path"),
        ("travel-z = 60", "travel-z", 15, "expected 'key = value'"),
    ])
    func aBadLineIsRefusedByNumber(_ good: String, _ bad: String, _ line: Int, _ words: String) {
        #expect(Self.complete.contains(good))
        let text = Self.complete.replacingOccurrences(of: good, with: bad)
        #expect(throws: RigFileError.self) { try RigConfiguration.parse(text) }
        do {
            _ = try RigConfiguration.parse(text)
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.description.contains(words), "\(error)")
        }
    }

    @Test(arguments: [
        ("safe-z = 32", "safe-z = 1", "must be above tap-z"),
        ("y-axis = -Y", "y-axis = -X", "both run along machine X"),
        ("origin-x = 40", "origin-x = 400", "beyond travel-x"),
        ("safe-z = 32", "safe-z = 70", "beyond travel-z"),
    ])
    func aRigAtOddsWithItselfIsRefused(_ good: String, _ bad: String, _ words: String) {
        let text = Self.complete.replacingOccurrences(of: good, with: bad)
        do {
            _ = try RigConfiguration.parse(text)
            Issue.record("accepted: \(bad)")
        } catch {
            #expect(error.description.contains(words), "\(error)")
        }
    }

    /// `clearance-z` is optional; where given it lies above tap-z and at most at safe-z,
    /// and it survives a write and a read.
    @Test func theClearanceHeightIsOptionalAndChecked() throws {
        #expect(try RigConfiguration.parse(Self.complete).clearanceZ == nil)
        let low = Self.complete.replacingOccurrences(of: "tap-z = 2", with: "tap-z = 2\nclearance-z = 4.5")
        let rig = try RigConfiguration.parse(low)
        #expect(rig.clearanceZ == 4.5)
        #expect(rig.text.contains("clearance-z = 4.5"))
        #expect(try RigConfiguration.parse(rig.text) == rig)
        for (value, words) in [
            ("2", "must be above tap-z 2.0 mm"), ("33", "at most safe-z 32.0 mm"), ("nan", "must be a number"),
        ] {
            let text = Self.complete.replacingOccurrences(of: "tap-z = 2", with: "tap-z = 2\nclearance-z = \(value)")
            do {
                _ = try RigConfiguration.parse(text)
                Issue.record("accepted clearance-z = \(value)")
            } catch {
                #expect(error.line == 11 && error.description.contains(words), "\(error)")
            }
        }
    }

    /// Issue 52: a run on the rig takes its tap window unless --tap-timeout says otherwise;
    /// one libnfc poll round (0.4 s) when the file sets none.
    @Test func theTapWindowIsOptionalAndChecked() throws {
        let plain = try RigConfiguration.parse(Self.complete)
        #expect(plain.tapWindow == nil && plain.defaultTapWindow == RigConfiguration.recommendedTapWindow)
        #expect(!plain.text.contains("tap-window"))
        let set = try RigConfiguration.parse(Self.complete + "\ntap-window = 0.25")
        #expect(set.defaultTapWindow == 0.25 && set.text.contains("tap-window = 0.25"))
        #expect(try RigConfiguration.parse(set.text) == set)
        for (value, words) in [("0.01", "outside 0.1...30 s"), ("inf", "must be a number of seconds"), ("5s", "a number")] {
            do {
                _ = try RigConfiguration.parse(Self.complete + "\ntap-window = \(value)")
                Issue.record("accepted tap-window = \(value)")
            } catch {
                #expect(error.line == 17 && error.description.contains(words), "\(error)")
            }
        }
    }

    @Test func aMissingKeyIsNamed() {
        let text = Self.complete.replacingOccurrences(of: "feed-z = 600\n", with: "")
        do {
            _ = try RigConfiguration.parse(text)
            Issue.record("accepted a file without feed-z")
        } catch {
            #expect(error.line == nil)
            #expect(error.description.contains("missing feed-z"))
        }
    }

    @Test func escapeCodesInAValueAreShownHarmlessly() {
        let text = Self.complete.replacingOccurrences(of: "dialect = grbl", with: "dialect = \u{1B}[2Jgrbl")
        do {
            _ = try RigConfiguration.parse(text)
            Issue.record("accepted")
        } catch {
            #expect(!error.description.contains("\u{1B}"))
        }
    }

    @Test func theSpecOverridesTheFile() throws {
        let rig = try RigConfiguration.parse(Self.complete)
        let spec = try MachineSpec.parse("/dev/ttyACM0?baud=57600&dialect=marlin").get()
        let applied = spec.applied(to: rig)
        #expect(applied.device == "/dev/ttyACM0")
        #expect(applied.baud == 57_600)
        #expect(applied.dialect == .marlin)
        #expect(try MachineSpec.parse("").get() == MachineSpec())
        for bad in ["ttyUSB0", "/dev/x?baud=12", "/dev/x?dialect=fanuc", "/dev/x?speed=3", "/dev/x?baud"] {
            guard case .failure = MachineSpec.parse(bad) else {
                Issue.record("accepted \(bad)")
                continue
            }
        }
    }
}

/// The file `rig init` writes: the machine's keys, no jig (issue 52).
@Suite("A rig file without a jig")
struct JiglessRigFileTests {
    static let machineOnly = """
        device = /dev/serial/by-id/usb-1a86_USB_Serial-if00-port0
        dialect = grbl
        feed-xy = 3000
        feed-z = 600
        travel-x = 200
        travel-y = 250
        travel-z = 60
        homes = yes
        """

    @Test func runsRefuseItAndCalibrationReadsIt() throws {
        #expect(
            throws: RigFileError(
                line: nil,
                "has no jig yet (origin-x, origin-y, x-axis, y-axis, safe-z, tap-z); mark it with 'nfcbench rig calibrate --model MODEL'"
            )
        ) {
            try RigConfiguration.parse(Self.machineOnly)
        }
        let rig = try RigConfiguration.parse(bytes: Array(Self.machineOnly.utf8), requiringJig: false)
        #expect(!rig.jigMarked && rig.travelZ == 60 && rig.homes && rig.safeZ == 30 && rig.tapZ == 0)
        // Written back, it stays jig-less and reads the same.
        #expect(!rig.text.contains("origin-x") && rig.text.contains("no jig yet"))
        #expect(try RigConfiguration.parse(bytes: Array(rig.text.utf8), requiringJig: false) == rig)
    }

    /// Half a jig is a mistake, not a first file: every missing key is named.
    @Test func halfAJigNamesWhatIsMissing() {
        let half = Self.machineOnly + "\norigin-x = 40\n"
        #expect(throws: RigFileError.self) { try RigConfiguration.parse(bytes: Array(half.utf8), requiringJig: false) }
        do {
            _ = try RigConfiguration.parse(bytes: Array(half.utf8), requiringJig: false)
        } catch {
            #expect(error.description.contains("missing origin-y, x-axis, y-axis, safe-z, tap-z"), "\(error)")
        }
    }
}
