/// What a command is called, what it does and what it accepts.
public struct CommandConfiguration: Sendable {
    /// The word that selects it on the command line (`check`).
    public var name: String
    /// One line for the parent's list of subcommands and the top of `--help`.
    public var summary: String
    /// Optional paragraphs printed after the usage line in `--help`.
    public var discussion: String
    public var options: [OptionSpec]
    public var positionals: [PositionalSpec]
    public var subcommands: [any Command.Type]

    public init(
        name: String, summary: String, discussion: String = "",
        options: [OptionSpec] = [], positionals: [PositionalSpec] = [],
        subcommands: [any Command.Type] = []
    ) {
        precondition(positionals.dropLast().allSatisfy { !$0.isVariadic }, "only the last positional may be variadic")
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
    }

    /// The option named `--name`, or with the short name `-c`.
    func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }
    func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }
    func subcommand(named name: String) -> (any Command.Type)? {
        subcommands.first { $0.configuration.name == name }
    }
}

/// A named option: a flag (`--json`) or an option with a value (`--args JSON`, `--args=JSON`).
public struct OptionSpec: Sendable {
    /// The long name, without dashes.
    public var name: String
    /// An optional one-letter alias (`-v`).
    public var short: Character?
    /// The placeholder for the value in usage (`JSON`); `nil` for a flag.
    public var valueName: String?
    /// Whether it may be given several times (all values are kept, in order).
    public var isRepeatable: Bool
    public var help: String

    public var isFlag: Bool { valueName == nil }

    /// A flag: present or absent.
    public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, isRepeatable: true, help: help)
    }

    /// An option with a value; `repeatable` keeps every occurrence, otherwise a second one is a usage error.
    public static func option(
        _ name: String, short: Character? = nil, valueName: String, repeatable: Bool = false, help: String
    ) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, isRepeatable: repeatable, help: help)
    }
}

/// A positional argument, matched in order after options are taken out.
public struct PositionalSpec: Sendable {
    /// Its placeholder in usage, also the key to read it back (`SCHEMA`).
    public var name: String
    public var isOptional: Bool
    /// Takes every remaining positional (only the last one may be).
    public var isVariadic: Bool
    public var help: String

    public static func required(_ name: String, help: String) -> PositionalSpec {
        PositionalSpec(name: name, isOptional: false, isVariadic: false, help: help)
    }

    public static func optional(_ name: String, help: String) -> PositionalSpec {
        PositionalSpec(name: name, isOptional: true, isVariadic: false, help: help)
    }

    /// Zero or more (`FILE…`).
    public static func variadic(_ name: String, help: String) -> PositionalSpec {
        PositionalSpec(name: name, isOptional: true, isVariadic: true, help: help)
    }
}
