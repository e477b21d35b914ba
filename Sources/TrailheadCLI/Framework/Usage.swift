/// The text of `--help` and of the usage shown after a mistake, derived from the configurations
/// and the declared arguments.
struct Usage {
    /// From the root to the command being described.
    let path: [any Command.Type]

    private var configuration: CommandConfiguration { path.last!.configuration }
    private var declared: DeclaredArguments { path.last!.declared }
    private var commandName: String { path.map { $0.configuration.name }.joined(separator: " ") }
    private var isRoot: Bool { path.count == 1 }

    /// `usage: agent schema check [options] SCHEMA [INSTANCES]`
    var line: String {
        var parts = ["usage:", commandName]
        if !configuration.subcommands.isEmpty || isRoot { parts.append("<command>") }
        parts.append("[options]")
        for positional in declared.positionals {
            let name = positional.isVariadic ? "\(positional.name)…" : positional.name
            parts.append(positional.isOptional ? "[\(name)]" : name)
        }
        return parts.joined(separator: " ")
    }

    /// What a usage mistake prints after its one-line error.
    var short: String { "\(line)\nRun '\(commandName) --help' for more.\n" }

    /// The full help: usage, summary, discussion, arguments, options, subcommands.
    var help: String {
        var out = "\(line)\n\n\(configuration.summary)\n"
        if !configuration.discussion.isEmpty { out += "\n\(configuration.discussion)\n" }
        if !declared.positionals.isEmpty {
            out += "\nArguments:\n"
            out += table(declared.positionals.map { ($0.name, $0.help) })
        }
        var rows = declared.options.map { option -> (String, String) in
            var left = option.short.map { "-\($0), " } ?? ""
            left += "--\(option.name)"
            if let valueName = option.valueName { left += " \(valueName)" }
            let help = option.isRepeatable && !option.isFlag ? "\(option.help) (repeatable)" : option.help
            return (left, help)
        }
        rows.append(("-h, --help", "Show this help."))
        if isRoot { rows.append(("--version", "Print the version.")) }
        out += "\nOptions:\n" + table(rows)
        if !configuration.subcommands.isEmpty {
            out += "\nCommands:\n"
            out += table(configuration.subcommands.map { ($0.configuration.name, $0.configuration.summary) })
            out += "\nRun '\(commandName) <command> --help' for a command's details.\n"
        }
        return out
    }

    /// Two columns, the left one padded to the widest entry (capped so long names wrap below).
    private func table(_ rows: [(String, String)]) -> String {
        let width = min(26, rows.map(\.0.count).max() ?? 0)
        return rows.map { left, right in
            if left.count > width { return "  \(left)\n  \(String(repeating: " ", count: width))  \(right)\n" }
            return "  \(left)\(String(repeating: " ", count: width - left.count))  \(right)\n"
        }.joined()
    }
}
