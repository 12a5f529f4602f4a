import Foundation
import NFCRig

/// What `rig init` learns from a machine on a port, before any rig file exists: which
/// firmware answers, its travel and speed limits, and whether its homing cycle is safe to
/// run over a jig. Nothing here moves the machine; every question is a report command.
///
/// Homing is judged from the firmware's own settings, because a homing cycle that drives
/// Z downwards would put the reader into the phone before the run's first position:
/// - GRBL 1.1 homes each axis towards its positive end unless its bit in `$23` (the homing
///   direction invert mask) is set; Z's bit is 4. Homing also needs `$22=1`.
/// - Marlin homes Z to whichever endstop it was built with; `M119` lists the endstops the
///   board has, so `z_max` without `z_min` homes upwards. A printer homes Z to `z_min`.
public struct MachineSurvey: Sendable, Equatable {
    public let device: String
    public let dialect: MachineDialect
    public let baud: Int
    /// The firmware's own words: GRBL's `[VER:...]`, Marlin's `FIRMWARE_NAME:...`.
    public let firmware: String
    /// Millimetres from 0 (GRBL `$130`–`$132`, Marlin's `M211` soft endstop maxima).
    public let travel: (x: Double, y: Double, z: Double)?
    /// The fastest the firmware allows, mm/min (GRBL `$110`–`$112`); `nil` when not reported.
    public let maximumFeed: (xy: Double, z: Double)?
    public let homing: Homing

    public enum Homing: Sendable, Equatable {
        /// The homing cycle lifts Z first, away from the jig: a run may home.
        case safe(String)
        /// Homing would move Z down, or the firmware cannot say which way: a run must not home.
        case unsafe(String)
        /// The firmware has no homing cycle (GRBL `$22=0`).
        case disabled(String)

        public var runHomes: Bool { if case .safe = self { true } else { false } }
        public var reason: String {
            switch self {
            case .safe(let why), .unsafe(let why), .disabled(let why): why
            }
        }
    }

    public static func == (a: MachineSurvey, b: MachineSurvey) -> Bool {
        a.device == b.device && a.dialect == b.dialect && a.baud == b.baud && a.firmware == b.firmware
            && a.travel.map { [$0.x, $0.y, $0.z] } == b.travel.map { [$0.x, $0.y, $0.z] }
            && a.maximumFeed.map { [$0.xy, $0.z] } == b.maximumFeed.map { [$0.xy, $0.z] } && a.homing == b.homing
    }

    public init(
        device: String, dialect: MachineDialect, baud: Int, firmware: String, travel: (x: Double, y: Double, z: Double)?,
        maximumFeed: (xy: Double, z: Double)?, homing: Homing
    ) {
        self.device = device
        self.dialect = dialect
        self.baud = baud
        self.firmware = firmware
        self.travel = travel
        self.maximumFeed = maximumFeed
        self.homing = homing
    }

    /// GRBL's settings report (`$$`): `$N=value` lines.
    static func grblSettings(_ lines: [String]) -> [Int: Double] {
        var settings: [Int: Double] = [:]
        for line in lines where line.hasPrefix("$") {
            let parts = line.dropFirst().split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let key = Int(parts[0]),
                let value = Double(parts[1].split(separator: " ").first ?? ""), value.isFinite
            else { continue }
            settings[key] = value
        }
        return settings
    }

    /// Homing as GRBL's settings describe it.
    static func grblHoming(_ settings: [Int: Double]) -> Homing {
        guard let enabled = settings[22] else { return .unsafe("GRBL did not report $22 (homing enable)") }
        guard enabled != 0 else { return .disabled("homing is disabled in GRBL ($22=0)") }
        let mask = Int(settings[23] ?? 0)
        guard mask & 4 == 0 else {
            return .unsafe(
                "GRBL homes Z downwards ($23=\(mask) has Z's bit, 4): a homing cycle would drive the reader into the jig")
        }
        return .safe("GRBL homes with $22=1 and Z upwards first ($23=\(mask))")
    }

    /// Marlin's `M211`: `echo:Soft endstops: On  Min:  X0.00 Y0.00 Z0.00   Max:  X200.00 Y200.00 Z200.00`.
    static func marlinTravel(_ lines: [String]) -> (x: Double, y: Double, z: Double)? {
        for line in lines {
            guard let max = line.range(of: "Max:") else { continue }
            var axes: [Character: Double] = [:]
            for word in line[max.upperBound...].split(separator: " ") {
                guard let axis = word.first, "XYZ".contains(axis), let value = Double(word.dropFirst()), value.isFinite
                else { continue }
                axes[axis] = value
            }
            if let x = axes["X"], let y = axes["Y"], let z = axes["Z"] { return (x, y, z) }
        }
        return nil
    }

    /// Homing as Marlin's endstop report (`M119`: `x_min: open`, `z_max: TRIGGERED`...) describes it.
    static func marlinHoming(_ lines: [String]) -> Homing {
        let endstops = Set(
            lines.compactMap { line -> String? in
                let name = line.split(separator: ":").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                return name.flatMap { ["x_min", "x_max", "y_min", "y_max", "z_min", "z_max"].contains($0) ? $0 : nil }
            })
        if endstops.contains("z_max") && !endstops.contains("z_min") {
            return .safe("Marlin homes Z to its z_max endstop, upwards")
        }
        if endstops.contains("z_min") {
            return .unsafe("Marlin homes Z to its z_min endstop, down onto the jig (as a printer homes to its bed)")
        }
        return .unsafe("Marlin's endstop report (M119) names no Z endstop, so which way Z homes is unknown")
    }
}

extension RigConfiguration {
    /// The feeds a first rig file takes, mm/min, where the firmware allows them: a tenth of
    /// a typical 3018's rapid across, and slow enough downwards to stop on a phone.
    public static let firstFeeds = (xy: 3000.0, z: 600.0)

    /// A first rig file for a surveyed machine: its port, firmware, travel and feeds, and
    /// `homes` only where homing lifts Z first. The jig is left for `rig calibrate`.
    /// `nil` when the firmware did not report its travel.
    public init?(survey: MachineSurvey) {
        guard let travel = survey.travel, travel.x >= 1, travel.y >= 1, travel.z >= 1 else { return nil }
        let feeds = (
            xy: min(Self.firstFeeds.xy, survey.maximumFeed?.xy ?? .infinity),
            z: min(Self.firstFeeds.z, survey.maximumFeed?.z ?? .infinity)
        )
        self.init(
            device: survey.device, dialect: survey.dialect, baud: survey.baud, originX: 0, originY: 0,
            safeZ: min(30, travel.z), tapZ: 0, feedXY: max(feeds.xy, 1), feedZ: max(feeds.z, 1), travelX: travel.x,
            travelY: travel.y, travelZ: travel.z, homes: survey.homing.runHomes)
        jigMarked = false
    }
}
