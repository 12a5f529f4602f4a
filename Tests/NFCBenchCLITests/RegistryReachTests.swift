import NFCBench
import NFCBenchUseCases
import Testing

@testable import NFCBenchCLI

/// Every registered reader, plan, positioner and report format reaches the command's
/// help, its refusal of an unknown name, its manual page and the shells' choices: a new
/// entry is one registration line, and nothing else has to name it.
@Suite("Registries reach help and errors")
struct RegistryReachTests {
    static func help(_ words: String...) async -> String {
        let h = Harness()
        #expect(await h.run(words + ["--help"]) == 0)
        return h.output.text
    }

    static func refusal(_ words: String...) async -> String {
        let h = Harness()
        #expect(await h.run(words) == 64)
        return h.errors.text
    }

    static func manual(_ words: String...) async -> String {
        let h = Harness()
        #expect(await h.run(["manual"] + words) == 0)
        return h.output.text
    }

    @Test func reportFormats() async {
        let help = await Self.help("report")
        let refused = await Self.refusal("report", "--all", "--format", "nosuch")
        let page = await Self.manual("report")
        for format in ReportFormats.registered {
            #expect(help.contains("\(format.name), \(format.summary)"), "\(format.name)")
            #expect(refused.contains(format.name), "\(format.name)")
            #expect(page.contains("\\fB\(format.name)\\fR"), "\(format.name)")
        }
        #expect(ReportCommand.format.spec.choices == ReportFormats.names)
    }

    @Test func plans() async {
        let help = await Self.help("run")
        let refused = await Self.refusal("run", "-m", "SM-S921B", "--plan", "nosuch")
        for plan in ProbePlans.registered {
            #expect(help.contains("\(plan.kind.rawValue): \(plan.summary)"), "\(plan.kind)")
            #expect(refused.contains(plan.kind.rawValue), "\(plan.kind)")
        }
        #expect(RunOptions.plan.spec.choices == ProbePlans.registered.map(\.kind.rawValue))
        #expect(TemplateCommand.plan.spec.choices == RunOptions.plan.spec.choices)
        #expect(PlanCommand.plan.spec.choices == RunOptions.plan.spec.choices)
    }

    @Test func positioners() async {
        let help = await Self.help("run")
        let refused = await Self.refusal("run", "-m", "SM-S921B", "--positioner", "nosuch")
        for positioner in Positioners.registered {
            #expect(help.contains(positioner.syntax), "\(positioner.syntax)")
            #expect(refused.contains(positioner.syntax), "\(positioner.syntax)")
            // A scheme that stands alone is a choice the shells offer.
            #expect(RunOptions.positioner.spec.choices.contains(positioner.scheme) == !positioner.scheme.hasSuffix(":"))
        }
    }

    @Test func readers() async {
        let help = await Self.help("run")
        let refused = await Self.refusal("run", "-m", "SM-S921B", "--reader", "nosuch:x")
        for reader in ReaderBackends.registered {
            #expect(help.contains(reader.syntax), "\(reader.syntax)")
            #expect(refused.contains(reader.syntax), "\(reader.syntax)")
        }
    }
}
