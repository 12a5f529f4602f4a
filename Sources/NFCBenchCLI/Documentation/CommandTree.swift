/// Every command of the tree with its path, depth first: what the manual pages and the
/// shell completions are generated from, so neither is ever written by hand and neither
/// can drift from what the parser accepts.
struct CommandTree {
    struct Node {
        let path: [String]
        let spec: CommandSpec

        /// `nfcbench catalog sync`.
        var invocation: String { path.joined(separator: " ") }
        /// `catalog sync`: the key the completion scripts use ("" for the root).
        var key: String { path.dropFirst().joined(separator: " ") }
        /// `nfcbench-catalog-sync`, the manual page's name (git's convention).
        var pageName: String { path.joined(separator: "-") }
        var isGroup: Bool { !spec.subcommands.isEmpty }
        /// Every option the parser takes here, as help lists them (`--version` on the root).
        var options: [OptionSpec] {
            var all = spec.allOptions
            if path.count == 1 { all.insert(.version, at: all.count - 1) }
            return all
        }
    }

    let nodes: [Node]

    init(root: CommandSpec) {
        var nodes: [Node] = []
        func visit(_ spec: CommandSpec, _ path: [String]) {
            nodes.append(Node(path: path, spec: spec))
            for sub in spec.subcommands { visit(sub.spec, path + [sub.name]) }
        }
        visit(root, [root.name])
        self.nodes = nodes
    }

    /// The node at `words` below the root (`["catalog", "sync"]`), or `nil`.
    func node(at words: [String]) -> Node? {
        nodes.first { Array($0.path.dropFirst()) == words }
    }
}

/// What a shell offers after an option that takes a value.
enum ValueCompletion: Equatable {
    case choices([String])
    case files
    case directories
    /// Free text (a model, a number, a URL): nothing to offer.
    case anything

    init(_ option: OptionSpec) { self.init(placeholder: option.valueName, choices: option.choices) }

    /// A positional argument: its choices, a file when its name says so (`<file>`), or free.
    init(_ argument: ArgumentSpec) { self.init(placeholder: argument.name, choices: argument.choices) }

    private init(placeholder: String?, choices: [String]) {
        if !choices.isEmpty {
            self = .choices(choices)
        } else if ["dir", "folder"].contains(placeholder) {
            self = .directories
        } else if let placeholder, ValueCompletion.fileNames.contains(where: placeholder.hasPrefix) {
            self = .files
        } else {
            self = .anything
        }
    }

    /// Placeholders that name a file on disk (`<file>`, `<file.svg>`, `<patch>`, `<key>`).
    private static let fileNames = ["file", "path", "patch", "key"]
}
