import Foundation
import NFCBench
import NFCBenchUseCases
import NFCHost
import NFCReaders

/// `nfcbench doctor`: is this machine ready for a real reader?
enum DoctorCommand {
    static let spec = CommandSpec(
        "doctor", abstract: "Check this machine's setup for NFC readers and say how to fix each problem.",
        discussion: """
            Exit codes: 0 no blocker (warnings allowed), 1 at least one FAIL.
            System trees come from --root, or NFCBENCH_SYSFS_ROOT/NFCBENCH_DEV_ROOT/NFCBENCH_PROC_ROOT/NFCBENCH_ETC_ROOT.
            """,
        options: [root.spec, database.spec, json.spec, LabOptions.labStore.spec, LabOptions.station.spec] + CatalogOptions.all,
        handler: run)

    static let root = Option<String>(
        "--root", value: "dir", help: "Read sys/, dev/, proc/ and etc/ under this folder instead of /.")
    static let database = Option<String>(
        "--db", value: "path", help: "The database to check (default: NFCBENCH_DB or the XDG data path).")
    static let json = Flag("--json", help: "Print the checks as JSON.")

    static func run(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let roots =
            invocation[root].map { SystemRoots.under(context.url(forPath: $0).path) }
            ?? SystemRoots.fromEnvironment(context.environment)
        var catalogs: [URL] = []
        if let seed = try? context.resources().seedCatalogURL { catalogs.append(seed) }
        if let extra = invocation[CatalogOptions.catalogFile] { catalogs.append(context.url(forPath: extra)) }
        var doctor = BenchDoctor(
            roots: roots, identity: .current(environment: context.environment),
            databasePath: DatabaseLocation.path(option: invocation[database], context: context),
            catalogURLs: catalogs.isEmpty ? [URL(fileURLWithPath: "/nonexistent/seed_catalog.json")] : catalogs)
        doctor.virtualReaders = ReaderInventory.virtualBenchReaders(environment: context.environment)
        doctor.pcscSocket = context.environment["PCSCLITE_CSOCK_NAME"].flatMap { $0.isEmpty ? nil : $0 }
        var providers: [any DoctorCheckProvider] = [
            doctor, FoundChecks(SecretFileCheck.checks(context)),
            FoundChecks([EquipmentOptions.doctorCheck(context, day: EquipmentRegister.day(of: Date()))]),
            AnalogRestoreChecks(journal: .fromEnvironment(context.environment)),
        ]
        var lab = LabOptions.Settings(invocation, context)
        if let url = try lab.labStoreURL() {
            providers.append(
                LabChecks(
                    url: url, station: try lab.station(),
                    machine: MachineName.current(environment: context.environment, roots: roots),
                    databasePath: doctor.databasePath, timeoutSeconds: try LabOptions.timeoutSeconds(context)))
        }
        let diagnosis = await Diagnosis.run(providers)
        let checks = diagnosis.checks
        if invocation[json] {
            context.output.line(
                JSONValue.object([
                    ("ok", .bool(!diagnosis.hasBlocker)),
                    (
                        "checks",
                        .array(
                            checks.map { c in
                                .object([
                                    ("id", .string(c.id)), ("verdict", .string(c.verdict.rawValue)),
                                    ("detail", .string(c.detail)), ("fix", .optional(c.fix)),
                                ])
                            })
                    ),
                ]).serialized(pretty: true))
        } else {
            let color = context.useColor(invocation)
            for c in checks {
                let label = c.verdict.rawValue.padding(toLength: 4, withPad: " ", startingAt: 0)
                let sgr = c.verdict == .ok ? "32" : c.verdict == .warn ? "33" : "31"
                context.output.line((color ? "\u{1B}[\(sgr)m\(label)\u{1B}[0m" : label) + "  \(c.id): \(c.detail)")
                if let fix = c.fix { context.output.line("      fix: \(fix)") }
            }
        }
        return diagnosis.hasBlocker ? ExitCode.failure : ExitCode.success
    }
}
