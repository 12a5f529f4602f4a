import Foundation
import NFCMotion
import NFCRig

/// `rig init`: finds the machine among the serial ports (or asks the one named), and
/// makes the first rig file from what it reports. Nothing moves.
public enum RigInitialisation {
    /// One port asked, and what it said.
    public struct Answer: Sendable {
        public let port: MachinePorts.Port
        public let result: Result<MachineSurvey, MachineSurvey.Miss>
    }

    /// Asks each port in turn: `device` alone when given, else every serial port under
    /// `devRoot` (stable `/dev/serial/by-id` names first; a port another program holds is
    /// reported busy, not disturbed).
    public static func survey(device: String?, devRoot: String, baud: Int, timeout: Duration) async -> [Answer] {
        let ports =
            device.map { [MachinePorts.Port(named: $0)] }
            ?? MachinePorts.candidates(devRoot: devRoot)
        var answers: [Answer] = []
        for port in ports {
            answers.append(Answer(port: port, result: await MachineSurvey.identify(port.path, baud: baud, timeout: timeout)))
        }
        return answers
    }

    /// The rig the survey's reports make, or `nil` when the firmware did not report its travel.
    public static func rig(from survey: MachineSurvey) -> RigConfiguration? { RigConfiguration(survey: survey) }

    /// The file's text: a note of where it came from, then the machine's keys.
    public static func fileText(_ rig: RigConfiguration, survey: MachineSurvey, written: Date) -> String {
        let stamp = written.formatted(.iso8601.year().month().day())
        return [
            "# written by 'nfcbench rig init' on \(stamp) from \(survey.firmware) on \(survey.device)",
            "# homes = \(rig.homes ? "yes" : "no"): \(survey.homing.reason)",
            "# feeds: nfcbench's first feeds within the firmware's maxima; travel as the firmware reports it",
        ].map { String(String.UnicodeScalarView($0.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })) }
            .joined(separator: "\n") + "\n" + rig.text
    }
}
