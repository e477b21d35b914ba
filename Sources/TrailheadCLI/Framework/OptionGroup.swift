/// Options several commands share, declared once in a `ParsableArguments` type and included
/// where they apply: `@OptionGroup var pluginFolders: PluginFolderOptions`.
@propertyWrapper
public struct OptionGroup<Group: ParsableArguments>: Sendable {
    public var wrappedValue: Group

    public init() { wrappedValue = Group() }
}

extension OptionGroup: ArgumentDeclaration {
    func declared(key: String) -> DeclaredArguments { Group.declared }

    func filled(from arguments: ParsedArguments, key: String) throws -> OptionGroup {
        var filled = self
        filled.wrappedValue = try Group.parse(arguments)
        return filled
    }
}
