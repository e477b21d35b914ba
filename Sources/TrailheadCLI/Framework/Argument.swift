/// A positional argument, matched in declaration order after the options are taken out:
///
/// ```swift
/// @Argument("SCHEMA", help: "The schema, a JSON file.") var schema: String          // required
/// @Argument("INSTANCES", help: "JSON Lines; '-' or omitted reads stdin.") var instances: String?
/// @Argument("FILE", help: "Files to import.") var files: [String]                     // zero or more, last
/// ```
///
/// `name` is its placeholder in usage.
@propertyWrapper
public struct Argument<Value: Sendable>: Sendable {
    public var wrappedValue: Value
    let spec: PositionalSpec
    let read: @Sendable ([String]) -> Value
}

extension Argument where Value == String {
    /// A required positional (a missing one is a usage error before the command runs).
    public init(_ name: String, help: String) {
        self.init(wrappedValue: "", spec: .required(name, help: help)) { $0.first ?? "" }
    }
}

extension Argument where Value == String? {
    /// An optional positional.
    public init(_ name: String, help: String) {
        self.init(wrappedValue: nil, spec: .optional(name, help: help)) { $0.first }
    }
}

extension Argument where Value == [String] {
    /// Zero or more positionals (`FILE…`); only the last one may be.
    public init(_ name: String, help: String) {
        self.init(wrappedValue: [], spec: .variadic(name, help: help)) { $0 }
    }
}

extension Argument: ArgumentDeclaration {
    func declared(key: String) -> DeclaredArguments { DeclaredArguments(positionals: [spec]) }

    func filled(from arguments: ParsedArguments, key: String) throws -> Argument {
        var filled = self
        filled.wrappedValue = read(arguments.positionalValues[spec.name] ?? [])
        return filled
    }
}
