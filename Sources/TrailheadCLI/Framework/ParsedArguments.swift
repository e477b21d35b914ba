/// The words of one invocation, sorted by the option or positional they belong to and checked
/// against the declarations (of the command and of its parent groups, whose options may appear
/// before the subcommand's name). Each declaration reads its own words from here into its typed
/// value (`ParsableArguments.parse`); commands never see it.
struct ParsedArguments: Sendable, Equatable {
    /// Values of valued options by long name, in the order given.
    var optionValues: [String: [String]] = [:]
    /// Flags given, by long name.
    var flags: Set<String> = []
    /// Positionals by placeholder name (several for a variadic one).
    var positionalValues: [String: [String]] = [:]
}
