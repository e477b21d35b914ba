/// Where the command line leads: a command with its arguments, or a request for help or the version.
enum Invocation {
    case run(path: [any Command.Type], arguments: ParsedArguments)
    case help(path: [any Command.Type])
    case version
}

/// A usage mistake and the command whose usage should be shown with it.
struct ParseFailure: Error {
    var error: UsageError
    var path: [any Command.Type]
}

/// Splits the words of a command line into a path of commands and their checked arguments (each
/// command's `declared` options and positionals); reading them as typed values comes after.
///
/// Rules: `--name value` and `--name=value` for valued options; `-x` for one-letter aliases;
/// `--` ends options; a lone `-` is a positional (it usually means stdin). Options of a group
/// may be given before its subcommand's name. `--help`/`-h` anywhere before `--` wins over any
/// other mistake at that level, so `agent schema check --bogus --help` still shows help.
struct ArgumentParser {
    let root: any Command.Type

    func parse(_ words: [String]) -> Result<Invocation, ParseFailure> {
        var path: [any Command.Type] = [root]
        var arguments = ParsedArguments()
        var positionals: [String] = []
        var index = 0
        var optionsEnded = false

        func fail(_ message: String) -> Result<Invocation, ParseFailure> {
            let rest = words[index...].prefix { $0 != "--" }
            if !optionsEnded, rest.contains(where: Self.isHelp) { return .success(.help(path: path)) }
            return .failure(ParseFailure(error: UsageError(message), path: path))
        }

        while index < words.count {
            let word = words[index]
            let configuration = path.last!.configuration
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                let isGroup = !configuration.subcommands.isEmpty || path.count == 1
                if !optionsEnded, isGroup, path.last!.declared.positionals.isEmpty, positionals.isEmpty {
                    guard let subcommand = configuration.subcommand(named: word) else {
                        return fail("unknown command '\(word)'")
                    }
                    path.append(subcommand)
                } else {
                    positionals.append(word)
                }
                index += 1
                continue
            }
            if word == "--" { optionsEnded = true; index += 1; continue }
            if Self.isHelp(word) { return .success(.help(path: path)) }
            if word == "--version", path.count == 1 { return .success(.version) }

            // A named option: find its spec in this command or an enclosing group.
            let (name, inlineValue) = Self.split(word)
            let spec: OptionSpec?
            if word.hasPrefix("--") {
                spec = path.reversed().lazy.compactMap { $0.declared.option(named: name) }.first
            } else if name.count == 1 {
                spec = path.reversed().lazy.compactMap { $0.declared.option(short: name.first!) }.first
            } else {
                spec = nil
            }
            guard let spec else { return fail("unknown option '\(word.prefix { $0 != "=" })'") }
            index += 1
            if spec.isFlag {
                if inlineValue != nil { return fail("option '--\(spec.name)' takes no value") }
                arguments.flags.insert(spec.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count else {
                    return fail("option '--\(spec.name)' needs a value (\(spec.valueName!))")
                }
                value = words[index]
                index += 1
            }
            if !spec.isRepeatable, arguments.optionValues[spec.name] != nil {
                return fail("option '--\(spec.name)' given more than once")
            }
            arguments.optionValues[spec.name, default: []].append(value)
        }

        let leaf = path.last!
        if !leaf.configuration.subcommands.isEmpty, leaf.declared.positionals.isEmpty, positionals.isEmpty {
            // A group invoked alone: its run() decides (by default a usage error).
            return .success(.run(path: path, arguments: arguments))
        }
        switch Self.assign(positionals, to: leaf.declared.positionals) {
        case .success(let values):
            arguments.positionalValues = values
            return .success(.run(path: path, arguments: arguments))
        case .failure(let error):
            return .failure(ParseFailure(error: error, path: path))
        }
    }

    static func isHelp(_ word: String) -> Bool { word == "--help" || word == "-h" }

    /// `--name=value` → ("name", "value"); `--name` → ("name", nil); `-x` → ("x", nil).
    static func split(_ word: String) -> (name: String, value: String?) {
        let body = word.drop { $0 == "-" }
        guard word.hasPrefix("--"), let equals = body.firstIndex(of: "=") else { return (String(body), nil) }
        return (String(body[..<equals]), String(body[body.index(after: equals)...]))
    }

    /// Matches positionals to their specs in order: too few or too many is a usage error.
    static func assign(_ words: [String], to specs: [PositionalSpec]) -> Result<[String: [String]], UsageError> {
        var values: [String: [String]] = [:]
        var remaining = words[...]
        for spec in specs {
            if spec.isVariadic {
                values[spec.name] = Array(remaining)
                remaining = []
            } else if let word = remaining.popFirst() {
                values[spec.name] = [word]
            } else if !spec.isOptional {
                return .failure(UsageError("missing argument \(spec.name)"))
            }
        }
        if let extra = remaining.first { return .failure(UsageError("unexpected argument '\(extra)'")) }
        return .success(values)
    }
}
