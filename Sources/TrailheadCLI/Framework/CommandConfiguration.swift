/// What a command is called, what it does and how Ctrl-C ends it. What it accepts is declared by
/// its properties (`@Option`, `@Flag`, `@Argument`, `@OptionGroup`).
public struct CommandConfiguration: Sendable {
    /// The word that selects it on the command line (`check`).
    public var name: String
    /// One line for the parent's list of subcommands and the top of `--help`.
    public var summary: String
    /// Optional paragraphs printed after the usage line in `--help`.
    public var discussion: String
    public var subcommands: [any Command.Type]
    /// Whether Ctrl-C (SIGINT) cancels the command's task, for work that checks for cancellation
    /// and then ends cleanly (a plan closes its transcript); a second Ctrl-C exits at once. When
    /// false, Ctrl-C ends the process as it would any program.
    public var cancelsOnInterrupt: Bool

    public init(
        name: String, summary: String, discussion: String = "", subcommands: [any Command.Type] = [],
        cancelsOnInterrupt: Bool = false
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.subcommands = subcommands
        self.cancelsOnInterrupt = cancelsOnInterrupt
    }

    func subcommand(named name: String) -> (any Command.Type)? {
        subcommands.first { $0.configuration.name == name }
    }
}

/// A named option as parsing and usage see it: a flag (`--json`) or an option with a value
/// (`--args JSON`, `--args=JSON`). Declared by `@Option` and `@Flag`.
struct OptionSpec: Sendable {
    /// The long name, without dashes.
    var name: String
    /// An optional one-letter alias (`-v`).
    var short: Character?
    /// The placeholder for the value in usage (`JSON`); `nil` for a flag.
    var valueName: String?
    /// Whether it may be given several times (all values are kept, in order).
    var isRepeatable: Bool
    var help: String

    var isFlag: Bool { valueName == nil }
}

/// A positional argument, matched in order after options are taken out. Declared by `@Argument`.
struct PositionalSpec: Sendable {
    /// Its placeholder in usage (`SCHEMA`).
    var name: String
    var isOptional: Bool
    /// Takes every remaining positional (only the last one may be).
    var isVariadic: Bool
    var help: String

    static func required(_ name: String, help: String) -> PositionalSpec {
        PositionalSpec(name: name, isOptional: false, isVariadic: false, help: help)
    }

    static func optional(_ name: String, help: String) -> PositionalSpec {
        PositionalSpec(name: name, isOptional: true, isVariadic: false, help: help)
    }

    /// Zero or more (`FILE…`).
    static func variadic(_ name: String, help: String) -> PositionalSpec {
        PositionalSpec(name: name, isOptional: true, isVariadic: true, help: help)
    }
}
