import Foundation
import NFCBench
import NFCBenchUseCases

/// `doctor`'s check of the files that may hold a lab store password: lab.conf (when its
/// connection string carries one) and the pgpass file libpq reads. Either readable by
/// other users leaks the password to them; libpq itself ignores a pgpass file with group
/// or world access, so the bench would fail to log in without saying why.
enum SecretFileCheck {
    static func checks(_ context: CommandContext) -> [DoctorCheck] {
        var problems: [String] = []
        var fixes: [String] = []
        let lab = LabOptions.filePath(context)
        // A malformed lab.conf is doctor's lab check's to report (LabOptions.file throws there).
        if let url = (try? LabOptions.file(context))?["lab-store"], BenchStores.hasInlinePassword(url),
            let mode = othersCanRead(lab)
        {
            problems.append("\(lab) holds a password and is readable by others (mode \(mode))")
            fixes.append("chmod 600 \(lab), or move the password to ~/.pgpass")
        }
        let home = context.environment["HOME"] ?? NSHomeDirectory()
        let pgpass = context.environment["PGPASSFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.pgpass"
        if let mode = othersCanRead(pgpass) {
            problems.append("\(pgpass) is readable by others (mode \(mode)); libpq ignores it so")
            fixes.append("chmod 600 \(pgpass)")
        }
        guard !problems.isEmpty else {
            return [DoctorCheck(id: "lab-secrets", verdict: .ok, detail: "no password file readable by others")]
        }
        return [
            DoctorCheck(
                id: "lab-secrets", verdict: .warn, detail: problems.joined(separator: "; "),
                fix: fixes.joined(separator: "; "))
        ]
    }

    /// The file's mode in octal when its group or others may read it, else `nil`.
    static func othersCanRead(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o044 != 0 else { return nil }
        return String(info.st_mode & 0o777, radix: 8)
    }
}
