import Testing

@testable import NFCMotion

/// What `rig init` reads from a firmware's reports, in the words the firmware uses.
@Suite("Machine surveys")
struct MachineSurveyTests {
    @Test func grblSettingsAndHoming() {
        let settings = MachineSurvey.grblSettings([
            "$22=1", "$23=3", "$110=5000.000", "$130=300.000 (x max travel, mm)", "$bogus=1", "$131=inf", "[MSG:x]",
        ])
        #expect(settings == [22: 1, 23: 3, 110: 5000, 130: 300])
        #expect(MachineSurvey.grblHoming(settings).runHomes, "X and Y inverted, Z up: safe")
        #expect(!MachineSurvey.grblHoming([22: 1, 23: 7]).runHomes)
        #expect(MachineSurvey.grblHoming([22: 0]) == .disabled("homing is disabled in GRBL ($22=0)"))
        #expect(!MachineSurvey.grblHoming([:]).runHomes, "unreported: not safe")
    }

    /// Marlin's own formats (gcode/control/M211.cpp; M119's endstop report).
    @Test func marlinTravelAndHoming() {
        let travel = MachineSurvey.marlinTravel([
            "echo:Soft endstops: On  Min:  X0.00 Y0.00 Z0.00   Max:  X235.00 Y235.00 Z250.00"
        ])
        #expect(travel.map { [$0.x, $0.y, $0.z] } == [235, 235, 250])
        #expect(MachineSurvey.marlinTravel(["echo:Soft endstops: Off"]) == nil)
        let printer = ["Reporting endstop status", "x_min: open", "y_min: open", "z_min: TRIGGERED"]
        #expect(!MachineSurvey.marlinHoming(printer).runHomes)
        #expect(MachineSurvey.marlinHoming(["x_min: open", "y_min: open", "z_max: open"]).runHomes)
        #expect(!MachineSurvey.marlinHoming(["x_min: open", "z_min: open", "z_max: open"]).runHomes, "both: unknown")
        #expect(!MachineSurvey.marlinHoming(["x_min: open"]).runHomes)
    }
}
