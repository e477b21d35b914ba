/// A type whose properties declare command-line arguments (`@Option`, `@Flag`, `@Argument`,
/// `@OptionGroup`): a command, or a group of options several commands include.
///
/// The declarations are read from a default instance (`init()`), in order, by reflection; parsing
/// then decodes the type (`Decodable`, synthesized) from the checked words, each property filled
/// by its own declaration. The recording-decoder idea of `TrailheadSchema`, the other way round:
/// one declaration gives the usage, the help, the parsing and the typed value.
public protocol ParsableArguments: Decodable, Sendable {
    init()
}

extension ParsableArguments {
    /// The options and positionals the properties declare, in declaration order.
    static var declared: DeclaredArguments {
        declarations.reduce(into: DeclaredArguments()) { all, entry in
            let more = entry.declaration.declared(key: entry.key)
            all.options += more.options
            all.positionals += more.positionals
        }
    }

    /// Each argument property of a default instance, by its name (`days` for `_days`).
    static var declarations: [(key: String, declaration: any ArgumentDeclaration)] {
        Mirror(reflecting: Self()).children.compactMap { child in
            guard let label = child.label, let declaration = child.value as? any ArgumentDeclaration else { return nil }
            return (label.hasPrefix("_") ? String(label.dropFirst()) : label, declaration)
        }
    }

    /// An instance holding what `arguments` gave, each value read as its declared type.
    static func parse(_ arguments: ParsedArguments) throws -> Self {
        let declarations = Dictionary(declarations.map { ($0.key, $0.declaration) }, uniquingKeysWith: { first, _ in first })
        do {
            return try Self(from: ArgumentsDecoder(arguments: arguments, declarations: declarations))
        } catch let error as UsageError {
            throw error
        } catch {
            // A property without a declaration: a mistake in the command, not on the command line.
            throw CommandError("\(Self.self) declares an argument the parser cannot fill: \(error)")
        }
    }
}

/// What a property wrapper declares: an option, a flag, a positional, or a group of them.
protocol ArgumentDeclaration: Sendable {
    /// Its specs; `key` is the property's name.
    func declared(key: String) -> DeclaredArguments
    /// A copy holding the value the command line gave.
    func filled(from arguments: ParsedArguments, key: String) throws -> Self
}

/// The options and positionals of a command, as parsing and usage need them.
struct DeclaredArguments: Sendable {
    var options: [OptionSpec] = []
    var positionals: [PositionalSpec] = []

    /// The option named `--name`, or with the short name `-c`.
    func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }
    func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }

    /// A property's name as an option: `maxTurns` is `max-turns`.
    static func optionName(_ key: String) -> String {
        key.map { $0.isUppercase ? "-" + $0.lowercased() : String($0) }.joined()
    }
}

// MARK: - Filling the properties

/// Decodes a `ParsableArguments` type: each member is the declaration of that name, filled.
private struct ArgumentsDecoder: Decoder {
    let arguments: ParsedArguments
    let declarations: [String: any ArgumentDeclaration]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Members(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Self.unsupported }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Self.unsupported }

    static let unsupported = DecodingError.typeMismatch(
        ParsableArguments.self, .init(codingPath: [], debugDescription: "command-line arguments are a set of named properties"))

    private struct Members<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: ArgumentsDecoder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { decoder.declarations.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { decoder.declarations[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let declaration = decoder.declarations[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "'\(key.stringValue)' is not an @Option, @Flag, @Argument or @OptionGroup"))
            }
            guard let value = try declaration.filled(from: decoder.arguments, key: key.stringValue) as? T else {
                throw DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "declared as \(Swift.type(of: declaration))"))
            }
            return value
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw ArgumentsDecoder.unsupported
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw ArgumentsDecoder.unsupported }
        func superDecoder() throws -> any Decoder { throw ArgumentsDecoder.unsupported }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw ArgumentsDecoder.unsupported }
    }
}

// The wrappers are decoded only by `ArgumentsDecoder`, which fills them from their declarations.
extension Option: Decodable {
    public init(from decoder: any Decoder) throws { throw ArgumentsDecoder.unsupported }
}
extension Flag: Decodable {
    public init(from decoder: any Decoder) throws { throw ArgumentsDecoder.unsupported }
}
extension Argument: Decodable {
    public init(from decoder: any Decoder) throws { throw ArgumentsDecoder.unsupported }
}
extension OptionGroup: Decodable {
    public init(from decoder: any Decoder) throws { throw ArgumentsDecoder.unsupported }
}
