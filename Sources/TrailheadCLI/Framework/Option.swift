/// An option with a value, declared where the command reads it:
///
/// ```swift
/// @Option(valueName: "N", in: 1...50, help: "Most model turns (default 10).")
/// var maxTurns = 10                       // --max-turns N
/// @Option(valueName: "N", help: "Sampling seed.")
/// var seed: Int?                          // absent: nil
/// @Option(valueName: "FILE", help: "A GeoJSON file to import.")
/// var geojson: [String] = []              // an array: repeatable, every value in order
/// ```
///
/// The name is the property's, in dashes (`maxTurns` is `--max-turns`), unless `name` gives one.
/// Parsing reads the value as its `ArgumentValue` type inside the bounds, or stops with a usage
/// error naming the option, what it must be and the word given; usage and help are written from
/// these declarations.
@propertyWrapper
public struct Option<Value: Sendable>: Sendable {
    public var wrappedValue: Value
    let name: String?
    let short: Character?
    let valueName: String
    let help: String
    let isRepeatable: Bool
    /// The value from the words given for the option (none when it is absent).
    let read: @Sendable (_ words: [String], _ name: String) throws(UsageError) -> Value

    init(
        default value: Value, name: String?, short: Character?, valueName: String, repeatable: Bool, help: String,
        read: @escaping @Sendable ([String], String) throws(UsageError) -> Value
    ) {
        wrappedValue = value
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        isRepeatable = repeatable
        self.read = read
    }
}

extension Option where Value: ArgumentValue {
    /// An option with a default value.
    public init(wrappedValue: Value, name: String? = nil, short: Character? = nil, valueName: String, help: String) {
        self.init(wrappedValue: wrappedValue, name: name, short: short, valueName: valueName, reader: .unbounded, help: help)
    }

    /// An option with a default value and the bounds a value must lie in (`1...14`, `1...`).
    public init<Bounds: ArgumentBounds<Value>>(
        wrappedValue: Value, name: String? = nil, short: Character? = nil, valueName: String, in bounds: Bounds, help: String
    ) {
        self.init(wrappedValue: wrappedValue, name: name, short: short, valueName: valueName, reader: .bounded(bounds), help: help)
    }

    private init(wrappedValue: Value, name: String?, short: Character?, valueName: String, reader: ValueReader<Value>, help: String) {
        self.init(default: wrappedValue, name: name, short: short, valueName: valueName, repeatable: false, help: help) {
            words, name throws(UsageError) in
            guard let word = words.last else { return wrappedValue }
            return try reader.read(word, option: name)
        }
    }
}

extension Option {
    /// An option that may be absent (nil).
    public init<Wrapped: ArgumentValue>(name: String? = nil, short: Character? = nil, valueName: String, help: String)
    where Value == Wrapped? {
        self.init(name: name, short: short, valueName: valueName, reader: ValueReader<Wrapped>.unbounded, help: help)
    }

    /// An option that may be absent (nil), with the bounds a value must lie in.
    public init<Wrapped: ArgumentValue, Bounds: ArgumentBounds<Wrapped>>(
        name: String? = nil, short: Character? = nil, valueName: String, in bounds: Bounds, help: String
    ) where Value == Wrapped? {
        self.init(name: name, short: short, valueName: valueName, reader: .bounded(bounds), help: help)
    }

    private init<Wrapped: ArgumentValue>(name: String?, short: Character?, valueName: String, reader: ValueReader<Wrapped>, help: String)
    where Value == Wrapped? {
        self.init(default: nil, name: name, short: short, valueName: valueName, repeatable: false, help: help) {
            words, name throws(UsageError) in
            guard let word = words.last else { return nil }
            return try reader.read(word, option: name)
        }
    }

    /// A repeatable option: every value given, in order.
    public init<Element: ArgumentValue>(
        wrappedValue: [Element] = [], name: String? = nil, short: Character? = nil, valueName: String, help: String
    ) where Value == [Element] {
        self.init(default: wrappedValue, name: name, short: short, valueName: valueName, repeatable: true, help: help) {
            words, name throws(UsageError) in
            if words.isEmpty { return wrappedValue }
            var values: [Element] = []
            for word in words { values.append(try ValueReader<Element>.unbounded.read(word, option: name)) }
            return values
        }
    }
}

extension Option: ArgumentDeclaration {
    func declared(key: String) -> DeclaredArguments {
        let spec = OptionSpec(
            name: name ?? DeclaredArguments.optionName(key), short: short, valueName: valueName, isRepeatable: isRepeatable, help: help)
        return DeclaredArguments(options: [spec])
    }

    func filled(from arguments: ParsedArguments, key: String) throws -> Option {
        var filled = self
        let name = name ?? DeclaredArguments.optionName(key)
        filled.wrappedValue = try read(arguments.optionValues[name] ?? [], name)
        return filled
    }
}
