/// OVERVIEW / USAGE / ARGUMENTS / OPTIONS / SUBCOMMANDS, as swift-argument-parser prints them.
struct HelpFormatter {
    let path: [String]
    let command: CommandSpec

    var usageLine: String {
        var parts = [path.joined(separator: " ")]
        if !command.subcommands.isEmpty && command.handler == nil {
            parts.append("<subcommand>")
        }
        for option in command.options {
            let text = option.synopsis + (option.isRepeatable ? " ..." : "")
            parts.append(option.isRequired ? text : "[\(text)]")
        }
        for argument in command.arguments {
            let text = "<\(argument.name)>" + (argument.isRepeating ? " ..." : "")
            parts.append(argument.isOptional ? "[\(text)]" : text)
        }
        return parts.joined(separator: " ")
    }

    func render() -> String {
        var out = "OVERVIEW: \(command.abstract)\n"
        if let discussion = command.discussion { out += "\n\(discussion)\n" }
        out += "\nUSAGE: \(usageLine)\n"
        if !command.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for a in command.arguments { out += row("<\(a.name)>", a.help) }
        }
        out += "\nOPTIONS:\n"
        var options = command.allOptions
        if path.count == 1 { options.insert(.version, at: options.count - 1) }
        for o in options {
            let names = (o.short.map { "-\($0), " } ?? "") + o.synopsis
            out += row(names, o.help)
        }
        if !command.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for s in command.subcommands { out += row(s.name, s.abstract) }
            out += "\n  See '\(path.first ?? "nfcbench") help <subcommand>' for detailed help.\n"
        }
        return out
    }

    private func row(_ left: String, _ right: String) -> String {
        let column = 26
        let lead = "  " + left
        if lead.count + 2 > column { return lead + "\n" + String(repeating: " ", count: column) + right + "\n" }
        return lead + String(repeating: " ", count: column - lead.count) + right + "\n"
    }
}
