/// The arguments of one invocation, checked against the command's configuration (and those of
/// its parent groups, whose options may appear before the subcommand's name).
public struct ParsedArguments: Sendable, Equatable {
    /// Values of valued options by long name, in the order given.
    var optionValues: [String: [String]] = [:]
    /// Flags given, by long name.
    var flags: Set<String> = []
    /// Positionals by placeholder name (several for a variadic one).
    var positionalValues: [String: [String]] = [:]

    public init() {}

    /// Whether the flag `--name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `--name VALUE`, if given (the last one for a repeatable option).
    public func value(of name: String) -> String? { optionValues[name]?.last }

    /// Every value of a repeatable option, in order.
    public func values(of name: String) -> [String] { optionValues[name] ?? [] }

    /// The positional with placeholder `name`, if given.
    public func positional(_ name: String) -> String? { positionalValues[name]?.first }

    /// All values of a variadic positional.
    public func positionals(_ name: String) -> [String] { positionalValues[name] ?? [] }
}
