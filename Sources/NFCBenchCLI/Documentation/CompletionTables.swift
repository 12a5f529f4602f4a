/// The tables a completion script looks things up in, as POSIX `case` functions both
/// bash and zsh run: a command's subcommands, its options, how each option's value
/// completes and what its positional arguments are. Every row comes from the spec tree.
struct CompletionTables {
    let tree: CommandTree

    /// `__nfcbench_subcommands PATH`, `__nfcbench_options PATH`, `__nfcbench_value PATH
    /// OPTION` ("choices WORD...", "files", "dirs", "any"; nothing for a flag) and
    /// `__nfcbench_positional PATH` (the same words for its first argument).
    var functions: String {
        var out = "__nfcbench_subcommands() {\n    case \"$1\" in\n"
        for node in tree.nodes where node.isGroup {
            let words = (node.path.count == 1 ? ["help"] : []) + node.spec.subcommands.map(\.name)
            out += "        \(Shell.quote(node.key))) echo \(Shell.quote(words.joined(separator: " "))) ;;\n"
        }
        out += "    esac\n}\n\n__nfcbench_options() {\n    case \"$1\" in\n"
        for node in tree.nodes {
            let names = node.options.flatMap { option in [option.name] + (option.short.map { ["-\($0)"] } ?? []) }
            out += "        \(Shell.quote(node.key))) echo \(Shell.quote(names.joined(separator: " "))) ;;\n"
        }
        out += "    esac\n}\n\n__nfcbench_value() {\n    case \"$1|$2\" in\n"
        var rows: [(kind: String, keys: [String])] = []
        for node in tree.nodes {
            for option in node.options where option.takesValue {
                let kind = Self.word(ValueCompletion(option))
                let keys = ([option.name] + (option.short.map { ["-\($0)"] } ?? [])).map { node.key + "|" + $0 }
                if let index = rows.firstIndex(where: { $0.kind == kind }) {
                    rows[index].keys += keys
                } else {
                    rows.append((kind, keys))
                }
            }
        }
        for row in rows {
            out += "        " + row.keys.map(Shell.quote).joined(separator: " | ") + ")\n"
            out += "            echo \(Shell.quote(row.kind)) ;;\n"
        }
        out += "    esac\n}\n\n__nfcbench_positional() {\n    case \"$1\" in\n"
        for node in tree.nodes where !node.isGroup {
            // The first argument's completion: a command's later arguments are rare and free.
            guard let first = node.spec.arguments.first else { continue }
            let kind = ValueCompletion(first)
            if kind != .anything { out += "        \(Shell.quote(node.key))) echo \(Shell.quote(Self.word(kind))) ;;\n" }
        }
        out += "    esac\n}\n"
        return out
    }

    static func word(_ completion: ValueCompletion) -> String {
        switch completion {
        case .choices(let words): "choices " + words.joined(separator: " ")
        case .files: "files"
        case .directories: "dirs"
        case .anything: "any"
        }
    }
}

/// Quoting for the generated scripts.
enum Shell {
    /// A POSIX single-quoted word: what bash, zsh and fish all read back unchanged.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// fish's single quotes, where a backslash escapes a quote or a backslash.
    static func fishQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// The first sentence of a help text, short enough for a completion menu.
    static func summary(_ help: String) -> String {
        var flat = help.split(whereSeparator: \.isNewline).joined(separator: " ")
        if let stop = flat.range(of: ". ") { flat = String(flat[..<stop.lowerBound]) + "." }
        // A long aside in brackets ("Probe plan (default adaptive: ...") stays in --help.
        if flat.count > 80, let aside = flat.range(of: " (") { flat = String(flat[..<aside.lowerBound]) + "." }
        return flat
    }
}
