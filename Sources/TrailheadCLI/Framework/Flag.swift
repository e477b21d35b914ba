/// A flag, present or absent: `@Flag(help: "Print one JSON object.") var json: Bool` is `--json`.
@propertyWrapper
public struct Flag: Sendable {
    public var wrappedValue = false
    let name: String?
    let short: Character?
    let help: String

    public init(name: String? = nil, short: Character? = nil, help: String) {
        self.name = name
        self.short = short
        self.help = help
    }
}

extension Flag: ArgumentDeclaration {
    func declared(key: String) -> DeclaredArguments {
        DeclaredArguments(options: [OptionSpec(name: name ?? DeclaredArguments.optionName(key), short: short, valueName: nil, isRepeatable: true, help: help)])
    }

    func filled(from arguments: ParsedArguments, key: String) throws -> Flag {
        var filled = self
        filled.wrappedValue = arguments.flags.contains(name ?? DeclaredArguments.optionName(key))
        return filled
    }
}
