import NFCBench
import Testing

/// The equipment register's file: what it takes, what it refuses (by line), and when an
/// item is past its calibration.
@Suite("Equipment register")
struct EquipmentRegisterTests {
    static let good = """
        # the bench at the window
        [reader]
        maker = ACS
        model = ACR122U   # USB
        identity = RR554-012345
        calibrated = 2026-06-01
        due = 2027-06-01

        [reference-card]
        maker = NXP
        model = MIFARE DESFire EV3
        identity = RC-3
        """

    @Test func itemsAreReadWithTheirDates() throws {
        let register = try EquipmentRegister.parse(Self.good)
        #expect(register.items.map(\.role) == ["reader", "reference-card"])
        #expect(register.items[0].words == "ACS ACR122U RR554-012345; calibrated 2026-06-01, due 2027-06-01")
        #expect(register.items[1].words == "NXP MIFARE DESFire EV3 RC-3" && register.items[1].due == nil)
    }

    /// The due day itself is still in calibration; the day after is not. An item with no
    /// due date never falls out.
    @Test func anItemFallsOutTheDayAfterItIsDue() throws {
        let register = try EquipmentRegister.parse(Self.good)
        #expect(register.outOfCalibration(on: "2027-06-01").isEmpty)
        #expect(register.outOfCalibration(on: "2027-06-02").map(\.role) == ["reader"])
        #expect(register.eventDetails(on: "2027-06-02")["outOfCalibration"] == "reader")
        #expect(register.eventDetails(on: "2026-12-07")["outOfCalibration"] == nil)
        #expect(register.eventDetails(on: "2026-12-07")["reference-card"] == "NXP MIFARE DESFire EV3 RC-3")
    }

    @Test(
        arguments: [
            ("[reader]\nmaker = A\nmodel = B\n", 1, "needs 'identity"),
            ("maker = A\n", 1, "before any [section]"),
            ("[reader]\nmaker = A\nmodle = B\n", 3, "unknown key 'modle'"),
            ("[Reader]\n", 1, "is not a section"),
            ("[reader]\nmaker = A\nmaker = B\n", 3, "given twice"),
            ("[reader]\nmaker = A\nmodel = B\nidentity = C\ncalibrated = 2026-02-30\n", 5, "YYYY-MM-DD"),
            ("[reader]\nmaker = A\nmodel = B\nidentity = C\ndue = 2026-13-01\n", 5, "YYYY-MM-DD"),
            (
                "[reader]\nmaker = A\nmodel = B\nidentity = C\ncalibrated = 2026-06-01\ndue = 2026-05-01\n", 1,
                "before it was calibrated"
            ),
            ("[reader]\nmaker = A\nmodel = B\nidentity = C\n[reader]\n", 5, "listed twice"),
            ("[reader]\nmaker =\n", 2, "1 to 200 printable"),
            ("[reader]\nmaker = \u{1B}[31mred\n", 2, "1 to 200 printable"),
            ("[reader]\nidentity\n", 2, "is not 'key = value'"),
        ] as [(String, Int, String)])
    func aBadLineIsRefusedByNumber(text: String, line: Int, words: String) {
        #expect {
            try EquipmentRegister.parse(text)
        } throws: { error in
            guard let error = error as? EquipmentRegister.ParseError else { return false }
            return error.line == line && error.problem.contains(words)
        }
    }

    @Test func leapDaysAreRealDates() throws {
        let text = "[rig]\nmaker = A\nmodel = B\nidentity = C\ncalibrated = 2028-02-29\n"
        #expect(try EquipmentRegister.parse(text).items[0].calibrated == "2028-02-29")
        #expect(throws: EquipmentRegister.ParseError.self) {
            try EquipmentRegister.parse(text.replacingOccurrences(of: "2028", with: "2027"))
        }
    }
}
