import Foundation
import NFCBench

/// `run --equipment FILE` and `--require-calibrated`: the station's equipment register
/// (`EquipmentRegister`), read and checked before the session is written, snapshotted
/// into its trail, and held to each item's calibration due date.
enum EquipmentOptions {
    static let equipment = Option<String>(
        "--equipment", value: "file",
        help: "The station's equipment register (default NFCBENCH_EQUIPMENT, else equipment.conf beside lab.conf): "
            + "each item's identity and calibration dates, recorded with the session (docs/reports.md).")
    static let requireCalibrated = Flag(
        "--require-calibrated",
        help: "Refuse to start without an equipment register, or with an item past its calibration due date (else a warning)."
    )
    static let all = [equipment.spec, requireCalibrated.spec]

    /// Where the register is: `--equipment`, `NFCBENCH_EQUIPMENT`, else the station's
    /// default file when it exists; `explicit` when the user named it (so a missing file
    /// is an error, not "no register").
    static func location(_ invocation: ParsedInvocation?, _ context: CommandContext) -> (path: String, explicit: Bool) {
        if let given = invocation?[equipment] { return (context.url(forPath: given).path, true) }
        if let named = context.environment["NFCBENCH_EQUIPMENT"], !named.isEmpty {
            return (context.url(forPath: named).path, true)
        }
        let folder = (LabOptions.filePath(context) as NSString).deletingLastPathComponent
        return (folder + "/equipment.conf", false)
    }

    /// The register, checked against `day` (`YYYY-MM-DD`): an item past due is a warning,
    /// or with `--require-calibrated` a refusal, before anything is written.
    static func load(_ invocation: ParsedInvocation, _ context: CommandContext, day: String) throws -> EquipmentRegister? {
        let required = invocation[requireCalibrated]
        let (path, explicit) = location(invocation, context)
        guard explicit || FileManager.default.fileExists(atPath: path) else {
            if required {
                throw CommandFailure(
                    "--require-calibrated: this station has no equipment register, so no calibration can be shown.",
                    hint:
                        "Write \(path) (one [section] per item: maker, model, identity, calibrated, due), or give --equipment FILE."
                )
            }
            return nil
        }
        let register = try read(path)
        let overdue = register.outOfCalibration(on: day)
        guard !overdue.isEmpty else { return register }
        let words = overdue.map { TerminalSafeText.neutralise($0.dueWords) }.joined(separator: ", ")
        if required {
            throw CommandFailure(
                "Out of calibration: \(words). --require-calibrated refuses to record with it; nothing was written.",
                hint:
                    "Calibrate the item and update its dates in \(TerminalSafeText.neutralise(path)), or use calibrated equipment."
            )
        }
        context.errors.line("Warning: out of calibration: \(words). The session records it, and its report says so.")
        return register
    }

    /// The register at `path`, or a failure naming the file and the line to fix.
    static func read(_ path: String) throws -> EquipmentRegister {
        let data = try InputFile.read(URL(fileURLWithPath: path), limit: 64 << 10, what: "equipment register")
        do { return try EquipmentRegister.parse(String(decoding: data, as: UTF8.self)) } catch {
            throw CommandFailure(
                "The equipment register '\(TerminalSafeText.neutralise(path))' cannot be read: \(TerminalSafeText.neutralise(error.description)).",
                hint: "Fix that line; each [section] holds maker, model, identity and optionally calibrated and due (YYYY-MM-DD)."
            )
        }
    }

    /// `doctor`'s look at the station's register: where it is, what it holds, and any item
    /// past its due date today (a run would warn, or refuse with --require-calibrated).
    static func doctorCheck(_ context: CommandContext, day: String) -> DoctorCheck {
        let (path, explicit) = location(nil, context)
        guard explicit || FileManager.default.fileExists(atPath: path) else {
            return DoctorCheck(
                id: "equipment", verdict: .ok, detail: "no equipment register (\(path))",
                fix: "An accredited lab records its equipment there: one [section] per item with maker, model, identity, "
                    + "calibrated and due (docs/reports.md); run --require-calibrated needs it.")
        }
        let register: EquipmentRegister
        do { register = try read(path) } catch {
            let failure = error as? CommandFailure
            return DoctorCheck(
                id: "equipment", verdict: .fail, detail: failure?.message ?? "\(error)",
                fix: (failure?.hint.map { $0 + " " } ?? "") + "Every run is refused until it reads.")
        }
        let overdue = register.outOfCalibration(on: day)
        guard overdue.isEmpty else {
            return DoctorCheck(
                id: "equipment", verdict: .warn,
                detail: "out of calibration: " + overdue.map(\.dueWords).joined(separator: ", "),
                fix: "Calibrate it and update its dates in \(path); until then reports say \"out of calibration\".")
        }
        return DoctorCheck(
            id: "equipment", verdict: .ok,
            detail: "\(register.items.count) item(s) in \(path), none past its due date: "
                + register.items.map(\.role).joined(separator: ", "),
            fix: nil)
    }
}
